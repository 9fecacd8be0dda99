#pragma once
// mt::data::datasets::MNIST: the MNIST and Fashion-MNIST files (same format), as libtorch's
// torch::data::datasets::MNIST. `root` holds the four IDX files under their usual names
// (train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte, t10k-labels-idx1-ubyte),
// each gzipped (".gz", as Debian's dataset-fashion-mnist ships them) or not. Images are uint8
// [N, 1, 28, 28] as stored (transforms convert and normalise them), labels int64 [N].
//
// A missing, truncated or corrupt file (wrong magic number, counts that disagree, a short read, a bad
// gzip stream) raises mt::RuntimeError naming the file and the problem; nothing is half-loaded.
#include <string>

#include "autograd/data/Dataset.h"

namespace mt::data::datasets {

enum class Mode { Train, Test };

// Where Debian's dataset-fashion-mnist package puts the files.
inline constexpr const char* kFashionMnistDir = "/usr/share/datasets/fashion-mnist";

class MNIST : public TensorDataset {
 public:
  MNIST(const std::string& root, Mode mode = Mode::Train);
  const Tensor& images() const { return data(); }
  const Tensor& targets() const { return target(); }

 private:
  explicit MNIST(Example images_and_labels);
  static Example load(const std::string& root, Mode mode);
};

// The contents of one IDX file: its element type must be unsigned bytes (0x08), the only type MNIST
// uses. Exposed for tests and for other IDX data.
Tensor read_idx(const std::string& path);

}  // namespace mt::data::datasets
