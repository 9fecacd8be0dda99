#include "autograd/data/Dataset.h"

#include <numeric>
#include <utility>

#include "ops/Factories.h"
#include "ops/api/index_select.h"
#include "ops/api/stack.h"

namespace mt::data {

namespace {

void check_index(int64_t index, int64_t size) {
  MT_CHECK_INDEX(index >= 0 && index < size, "index ", index, " is out of range for a dataset of size ", size);
}

// The indices as an int64 tensor, each checked against `size`.
Tensor index_tensor(const std::vector<int64_t>& indices, int64_t size) {
  for (int64_t i : indices) check_index(i, size);
  return tensor(indices);
}

}  // namespace

Example Dataset::get_batch(const std::vector<int64_t>& indices) const {
  std::vector<Tensor> data, target;
  data.reserve(indices.size());
  target.reserve(indices.size());
  for (int64_t i : indices) {
    Example e = get(i);
    data.push_back(std::move(e.data));
    target.push_back(std::move(e.target));
  }
  return {stack(data), stack(target)};
}

TensorDataset::TensorDataset(Tensor data, Tensor target) : data_(std::move(data)), target_(std::move(target)) {
  MT_CHECK_VALUE(data_.defined() && target_.defined(), "TensorDataset: data and target must be defined tensors");
  MT_CHECK_VALUE(data_.dim() > 0 && target_.dim() > 0 && data_.size(0) == target_.size(0),
                 "TensorDataset: size mismatch between tensors: data has shape ", data_.sizes(), " and target ",
                 target_.sizes(), " (their first dims must be equal)");
}

int64_t TensorDataset::size() const { return data_.size(0); }

Example TensorDataset::get(int64_t index) const {
  check_index(index, size());
  return {data_.select(0, index), target_.select(0, index)};
}

Example TensorDataset::get_batch(const std::vector<int64_t>& indices) const {
  const Tensor i = index_tensor(indices, size());
  return {index_select(data_, 0, i), index_select(target_, 0, i)};
}

Subset::Subset(std::shared_ptr<const Dataset> dataset, std::vector<int64_t> indices)
    : dataset_(std::move(dataset)), indices_(std::move(indices)) {
  MT_CHECK_VALUE(dataset_ != nullptr, "Subset: the dataset is null");
  for (int64_t i : indices_) check_index(i, dataset_->size());
}

int64_t Subset::size() const { return static_cast<int64_t>(indices_.size()); }

Example Subset::get(int64_t index) const {
  check_index(index, size());
  return dataset_->get(indices_[index]);
}

Example Subset::get_batch(const std::vector<int64_t>& indices) const {
  std::vector<int64_t> inner;
  inner.reserve(indices.size());
  for (int64_t i : indices) {
    check_index(i, size());
    inner.push_back(indices_[i]);
  }
  return dataset_->get_batch(inner);
}

std::vector<int64_t> random_permutation(int64_t n, Generator& generator) {
  std::vector<int64_t> p(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  for (int64_t i = 0; i + 1 < n; ++i) {
    const auto z = static_cast<int64_t>(generator.random() % static_cast<uint64_t>(n - i));
    std::swap(p[i], p[i + z]);
  }
  return p;
}

std::vector<std::shared_ptr<Subset>> random_split(const std::shared_ptr<const Dataset>& dataset,
                                                  const std::vector<int64_t>& lengths, Generator& generator) {
  MT_CHECK_VALUE(dataset != nullptr, "random_split: the dataset is null");
  int64_t total = 0;
  for (int64_t l : lengths) {
    MT_CHECK_VALUE(l >= 0, "random_split: lengths must be non-negative, but got ", l);
    total += l;
  }
  MT_CHECK_VALUE(total == dataset->size(),
                 "Sum of input lengths does not equal the length of the input dataset! (", total, " and ",
                 dataset->size(), ")");
  const std::vector<int64_t> order = random_permutation(total, generator);
  std::vector<std::shared_ptr<Subset>> subsets;
  auto begin = order.begin();
  for (int64_t l : lengths) {
    subsets.push_back(std::make_shared<Subset>(dataset, std::vector<int64_t>(begin, begin + l)));
    begin += l;
  }
  return subsets;
}

}  // namespace mt::data
