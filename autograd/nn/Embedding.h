#pragma once
// mt::nn::Embedding: a lookup table of num_embeddings rows of size embedding_dim, indexed by int64
// tensors.
#include <optional>

#include "autograd/nn/Module.h"
#include "tensor/Generator.h"

namespace mt::nn {

class Embedding : public Module {
 public:
  // weight is drawn from N(0, 1) (from `generator`, or the default one when null). The row at
  // padding_idx (negative counts from the end) starts at zero and receives no gradient.
  Embedding(int64_t num_embeddings, int64_t embedding_dim, std::optional<int64_t> padding_idx = std::nullopt,
            Generator* generator = nullptr);
  // indices [...] -> [..., embedding_dim]
  Tensor forward(const Tensor& indices) const;
  std::string name() const override { return "Embedding"; }
  std::string extra_repr() const override;

  int64_t num_embeddings() const { return weight.size(0); }
  int64_t embedding_dim() const { return weight.size(1); }
  std::optional<int64_t> padding_idx() const { return padding_idx_; }

  Tensor weight;

 private:
  std::optional<int64_t> padding_idx_;  // normalised to [0, num_embeddings)
};

}  // namespace mt::nn
