#pragma once
// mt::data: datasets and the loader that batches them, as torch.utils.data (and libtorch's
// torch::data). A Dataset maps an index to an Example (an input and its target); TensorDataset holds
// tensors whose first dim indexes the examples, Subset picks some of another dataset's, and random_split
// cuts one into disjoint random subsets.
//
//   auto train = std::make_shared<mt::data::datasets::MNIST>(root, mt::data::datasets::Mode::Train);
//   mt::data::DataLoader loader(train, {.batch_size = 64, .shuffle = true, .num_workers = 2});
//   for (const mt::data::Example& batch : loader) { ... batch.data, batch.target ... }
#include <cstdint>
#include <memory>
#include <vector>

#include "tensor/Generator.h"
#include "tensor/Tensor.h"

namespace mt::data {

// One example, or a batch of them stacked along a new first dim.
struct Example {
  Tensor data;
  Tensor target;
};

class Dataset {
 public:
  virtual ~Dataset() = default;
  virtual int64_t size() const = 0;
  // Example `index`, 0 <= index < size().
  virtual Example get(int64_t index) const = 0;
  // The examples at `indices` stacked along a new first dim (collated). The default stacks get()'s
  // results; datasets that hold their examples in tensors gather them in one step.
  virtual Example get_batch(const std::vector<int64_t>& indices) const;
};

// Examples are the slices data[i], target[i]; both tensors have the same size along their first dim.
class TensorDataset : public Dataset {
 public:
  TensorDataset(Tensor data, Tensor target);
  int64_t size() const override;
  Example get(int64_t index) const override;
  Example get_batch(const std::vector<int64_t>& indices) const override;
  const Tensor& data() const { return data_; }
  const Tensor& target() const { return target_; }

 private:
  Tensor data_, target_;
};

// The examples of `dataset` at `indices`, in that order (torch.utils.data.Subset).
class Subset : public Dataset {
 public:
  Subset(std::shared_ptr<const Dataset> dataset, std::vector<int64_t> indices);
  int64_t size() const override;
  Example get(int64_t index) const override;
  Example get_batch(const std::vector<int64_t>& indices) const override;
  const std::vector<int64_t>& indices() const { return indices_; }

 private:
  std::shared_ptr<const Dataset> dataset_;
  std::vector<int64_t> indices_;
};

// Splits `dataset` into subsets of the given lengths, which sum to its size, by one random permutation
// of its indices (torch.utils.data.random_split with integer lengths).
std::vector<std::shared_ptr<Subset>> random_split(const std::shared_ptr<const Dataset>& dataset,
                                                  const std::vector<int64_t>& lengths,
                                                  Generator& generator = default_generator());

// A random permutation of 0 .. n-1 drawn as PyTorch's CPU randperm draws it: for each position i, one
// 32-bit draw modulo n - i picks the element swapped into it.
std::vector<int64_t> random_permutation(int64_t n, Generator& generator);

}  // namespace mt::data
