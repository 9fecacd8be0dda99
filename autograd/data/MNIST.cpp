#include "autograd/data/MNIST.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <vector>

#include "ops/Factories.h"

namespace mt::data::datasets {

namespace {

constexpr unsigned char kUnsignedByte = 0x08;  // the IDX element type of MNIST's files
constexpr int kMaxDims = 8;

// Reads a file gzipped or not: zlib reads a file without a gzip header as it is.
class GzFile {
 public:
  explicit GzFile(const std::string& path) : path_(path), file_(gzopen(path.c_str(), "rb")) {
    MT_CHECK(file_ != nullptr, "cannot open file '", path, "': ", errno ? std::strerror(errno) : "out of memory");
  }
  ~GzFile() {
    if (file_) gzclose(file_);
  }
  GzFile(const GzFile&) = delete;
  GzFile& operator=(const GzFile&) = delete;

  // Reads exactly n bytes, or fails saying what it was reading.
  void read(void* dst, size_t n, const char* what) {
    auto* out = static_cast<unsigned char*>(dst);
    size_t done = 0;
    while (done < n) {
      const unsigned chunk = static_cast<unsigned>(std::min<size_t>(n - done, 1u << 30));
      const int got = gzread(file_, out + done, chunk);
      check_stream();
      MT_CHECK(got > 0, "file '", path_, "' is truncated: it ends while reading ", what, " (", n, " bytes needed, ",
               done, " read)");
      done += static_cast<size_t>(got);
    }
  }
  bool at_end() {
    unsigned char byte;
    const int got = gzread(file_, &byte, 1);
    check_stream();
    return got == 0;
  }

 private:
  void check_stream() const {
    int code = Z_OK;
    const char* message = gzerror(file_, &code);
    MT_CHECK(code != Z_BUF_ERROR, "file '", path_, "' is truncated: its gzip stream ends early");
    MT_CHECK(code == Z_OK, "file '", path_, "' is not a valid gzip stream: ", message);
  }

  std::string path_;
  gzFile file_;
};

std::string hex(uint32_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << v;
  return s.str();
}

uint32_t big_endian(const unsigned char* b) {
  return uint32_t{b[0]} << 24 | uint32_t{b[1]} << 16 | uint32_t{b[2]} << 8 | uint32_t{b[3]};
}

// `name` in `root`, gzipped where that file exists, else as it is.
std::string find_file(const std::string& root, const std::string& name) {
  const std::filesystem::path dir(root);
  for (const std::string& candidate : {name + ".gz", name})
    if (std::filesystem::exists(dir / candidate)) return (dir / candidate).string();
  throw RuntimeError("MNIST: neither '" + (dir / (name + ".gz")).string() + "' nor '" + (dir / name).string() +
                     "' exists (Debian's dataset-fashion-mnist package puts Fashion-MNIST in " + kFashionMnistDir +
                     ")");
}

// Images [N, rows, cols] become [N, 1, rows, cols], as libtorch's MNIST returns them.
Tensor read_images(const std::string& path) {
  Tensor images = read_idx(path);
  MT_CHECK(images.dim() == 3, "file '", path, "' holds ", images.dim(), "-d data, but MNIST images are 3-d (count, ",
           "rows, columns)");
  return images.unsqueeze(1);
}

Tensor read_labels(const std::string& path) {
  const Tensor labels = read_idx(path);
  MT_CHECK(labels.dim() == 1, "file '", path, "' holds ", labels.dim(), "-d data, but MNIST labels are 1-d");
  return labels.to(kInt64);
}

}  // namespace

Tensor read_idx(const std::string& path) {
  GzFile file(path);
  unsigned char magic[4];
  file.read(magic, 4, "the magic number");
  MT_CHECK(magic[0] == 0 && magic[1] == 0 && magic[3] >= 1 && magic[3] <= kMaxDims, "file '", path,
           "' is not an IDX file: its magic number is ", hex(big_endian(magic)),
           " (expected 0x0000TTDD: a type byte and 1 to ", kMaxDims, " dims)");
  MT_CHECK(magic[2] == kUnsignedByte, "file '", path, "' holds IDX elements of type ", hex(magic[2]),
           ", but only unsigned bytes (0x08) are read");
  std::vector<int64_t> sizes;
  int64_t numel = 1;
  for (int d = 0; d < magic[3]; ++d) {
    unsigned char size[4];
    file.read(size, 4, "the dimension sizes");
    sizes.push_back(big_endian(size));
    numel *= sizes.back();
    MT_CHECK(numel <= (int64_t{1} << 40), "file '", path, "' declares sizes ", IntArrayRef(sizes),
             " too large to be real");
  }
  Tensor out = empty(IntArrayRef(sizes), TensorOptions(kUInt8));
  file.read(out.data_ptr(), static_cast<size_t>(numel), "the data");
  MT_CHECK(file.at_end(), "file '", path, "' holds more bytes than its sizes ", IntArrayRef(sizes), " declare");
  return out;
}

// The images and labels of `mode`, whose counts must agree.
Example MNIST::load(const std::string& root, Mode mode) {
  const bool train = mode == Mode::Train;
  const std::string images_path = find_file(root, train ? "train-images-idx3-ubyte" : "t10k-images-idx3-ubyte");
  const std::string labels_path = find_file(root, train ? "train-labels-idx1-ubyte" : "t10k-labels-idx1-ubyte");
  Example e{read_images(images_path), read_labels(labels_path)};
  MT_CHECK(e.data.size(0) == e.target.size(0), "MNIST: '", images_path, "' holds ", e.data.size(0), " images but '",
           labels_path, "' holds ", e.target.size(0), " labels");
  return e;
}

MNIST::MNIST(const std::string& root, Mode mode) : MNIST(load(root, mode)) {}

MNIST::MNIST(Example e) : TensorDataset(std::move(e.data), std::move(e.target)) {}

}  // namespace mt::data::datasets
