#include "autograd/nn/Serialize.h"

#include <bit>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>
#include <vector>

#include "ops/Factories.h"
#include "ops/api/empty.h"
#include "ops/api/put.h"

namespace mt::nn {

// Raw values are written as they lie in memory; the format says little-endian.
static_assert(std::endian::native == std::endian::little, "mt::nn::save assumes a little-endian host");

namespace {

constexpr char kMagic[8] = {'M', 'T', 'S', 'T', 'D', 'I', 'C', 'T'};
constexpr uint32_t kVersion = 1;
constexpr uint32_t kMaxDim = 64;

template <typename T>
void put(std::ofstream& out, T value) {
  out.write(reinterpret_cast<const char*>(&value), sizeof(T));
}

ScalarType dtype_from_name(std::string_view name, bool& ok) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto t = static_cast<ScalarType>(i);
    if (scalar_type_name(t) == name) {
      ok = true;
      return t;
    }
  }
  ok = false;
  return ScalarType::Undefined;
}

// Reads the file front to back; every read says what it was reading, so a short file is reported as
// "truncated while reading <what>".
class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path), in_(path, std::ios::binary) {
    MT_CHECK(in_.is_open(), "cannot open file '", path, "': ", std::strerror(errno));
    in_.seekg(0, std::ios::end);
    size_ = static_cast<uint64_t>(in_.tellg());
    in_.seekg(0, std::ios::beg);
  }

  void require(uint64_t n, const std::string& what) const {
    MT_CHECK(n <= remaining(), "file '", path_, "' is truncated: it ends while reading ", what, " (", n,
             " bytes needed, ", remaining(), " left)");
  }
  void bytes(void* dst, uint64_t n, const std::string& what) {
    require(n, what);
    in_.read(static_cast<char*>(dst), static_cast<std::streamsize>(n));
    MT_CHECK(in_.good(), "error reading file '", path_, "' at ", what);
    pos_ += n;
  }
  template <typename T>
  T get(const std::string& what) {
    T value;
    bytes(&value, sizeof(T), what);
    return value;
  }
  std::string string(uint64_t n, const std::string& what) {
    require(n, what);  // before allocating: a corrupt length must not ask for gigabytes
    std::string s(n, '\0');
    bytes(s.data(), n, what);
    return s;
  }
  uint64_t remaining() const { return size_ - pos_; }
  [[noreturn]] void fail(const std::string& what) const {
    throw RuntimeError("file '" + path_ + "' is not a valid microtorch state dict: " + what);
  }

 private:
  std::string path_;
  std::ifstream in_;
  uint64_t size_ = 0;
  uint64_t pos_ = 0;
};

}  // namespace

void save(const StateDict& dict, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  MT_CHECK(out.is_open(), "cannot open file '", path, "' for writing: ", std::strerror(errno));
  out.write(kMagic, sizeof(kMagic));
  put<uint32_t>(out, kVersion);
  put<uint64_t>(out, dict.size());
  for (const auto& [name, tensor] : dict) {
    MT_CHECK(tensor.defined(), "cannot save '", name, "': it is an undefined tensor");
    const Tensor cpu = (tensor.is_cpu() ? tensor : tensor.to(Device(kCPU))).contiguous();
    const std::string_view dtype = scalar_type_name(cpu.dtype());
    put<uint32_t>(out, static_cast<uint32_t>(name.size()));
    out.write(name.data(), static_cast<std::streamsize>(name.size()));
    put<uint8_t>(out, static_cast<uint8_t>(dtype.size()));
    out.write(dtype.data(), static_cast<std::streamsize>(dtype.size()));
    put<uint32_t>(out, static_cast<uint32_t>(cpu.dim()));
    for (int64_t s : cpu.sizes()) put<int64_t>(out, s);
    put<uint64_t>(out, cpu.nbytes());
    out.write(static_cast<const char*>(cpu.data_ptr()), static_cast<std::streamsize>(cpu.nbytes()));
  }
  out.close();
  MT_CHECK(!out.fail(), "error writing file '", path, "'");
}

void save(const Module& module, const std::string& path) { save(module.state_dict(), path); }
void save(const std::shared_ptr<Module>& module, const std::string& path) { save(*module, path); }

StateDict load(const std::string& path) {
  Reader r(path);
  char magic[sizeof(kMagic)];
  r.bytes(magic, sizeof(magic), "the header");
  if (std::memcmp(magic, kMagic, sizeof(kMagic)) != 0) r.fail("bad magic header (expected \"MTSTDICT\")");
  const auto version = r.get<uint32_t>("the header");
  if (version != kVersion) {
    r.fail("format version " + std::to_string(version) + ", but this build reads version " + std::to_string(kVersion));
  }
  const auto count = r.get<uint64_t>("the header");
  StateDict dict;
  for (uint64_t i = 0; i < count; ++i) {
    const std::string entry = "entry " + std::to_string(i);
    const auto name = r.string(r.get<uint32_t>(entry + "'s name"), entry + "'s name");
    const std::string where = "entry " + std::to_string(i) + " ('" + name + "')";
    const auto dtype_name = r.string(r.get<uint8_t>(where + "'s dtype"), where + "'s dtype");
    bool known = false;
    const ScalarType dtype = dtype_from_name(dtype_name, known);
    if (!known) r.fail(where + " has unknown dtype '" + dtype_name + "'");
    const auto ndim = r.get<uint32_t>(where + "'s sizes");
    if (ndim > kMaxDim) r.fail(where + " has " + std::to_string(ndim) + " dimensions");
    std::vector<int64_t> sizes(ndim);
    uint64_t numel = 1;
    for (auto& s : sizes) {
      s = r.get<int64_t>(where + "'s sizes");
      if (s < 0) r.fail(where + " has a negative size");
      if (__builtin_mul_overflow(numel, static_cast<uint64_t>(s), &numel)) {
        r.fail(where + " has too many elements");
      }
    }
    const auto nbytes = r.get<uint64_t>(where + "'s byte count");
    uint64_t needed = 0;
    if (__builtin_mul_overflow(numel, element_size(dtype), &needed) || nbytes != needed) {
      r.fail(where + " holds " + std::to_string(nbytes) + " bytes, but its sizes and dtype need " +
             std::to_string(needed));
    }
    // Checked before allocating, so a corrupt size cannot ask for more memory than the file holds.
    r.require(nbytes, where + "'s data");
    Tensor t = mt::empty(sizes, dtype);
    r.bytes(t.data_ptr(), nbytes, where + "'s data");
    if (dict.contains(name)) r.fail("duplicate key '" + name + "'");
    dict.insert(name, std::move(t));
  }
  if (r.remaining() != 0) r.fail(std::to_string(r.remaining()) + " unexpected bytes after the last entry");
  return dict;
}

void load(Module& module, const std::string& path) {
  const StateDict dict = load(path);
  try {
    module.load_state_dict(dict);
  } catch (const Error& e) {
    throw RuntimeError("file '" + path + "' does not match the module: " + e.what());
  }
}

void load(const std::shared_ptr<Module>& module, const std::string& path) { load(*module, path); }

}  // namespace mt::nn
