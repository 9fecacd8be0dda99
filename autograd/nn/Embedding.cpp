#include "autograd/nn/Embedding.h"

#include <sstream>

#include "ops/Factories.h"
#include "ops/api/embedding.h"
#include "ops/api/randn.h"

namespace mt::nn {

Embedding::Embedding(int64_t num_embeddings, int64_t embedding_dim, std::optional<int64_t> padding_idx,
                     Generator* generator) {
  MT_CHECK_VALUE(num_embeddings >= 0 && embedding_dim >= 0,
                 "Embedding: num_embeddings and embedding_dim must be non-negative, but got ", num_embeddings, " and ",
                 embedding_dim);
  if (padding_idx) {
    MT_CHECK_VALUE(*padding_idx < num_embeddings && *padding_idx >= -num_embeddings,
                   "Padding_idx must be within num_embeddings");
    padding_idx_ = *padding_idx < 0 ? *padding_idx + num_embeddings : *padding_idx;
  }
  Tensor w = mt::randn({num_embeddings, embedding_dim}, generator);
  if (padding_idx_) w[*padding_idx_].zero_();
  weight = register_parameter("weight", std::move(w));
}

Tensor Embedding::forward(const Tensor& indices) const {
  return mt::embedding(weight, indices, padding_idx_.value_or(-1));
}

std::string Embedding::extra_repr() const {
  std::ostringstream ss;
  ss << num_embeddings() << ", " << embedding_dim();
  if (padding_idx_) ss << ", padding_idx=" << *padding_idx_;
  return ss.str();
}

}  // namespace mt::nn
