#include "autograd/nn/Sequential.h"

namespace mt::nn {

Tensor Sequential::forward(const Tensor& input) const {
  Tensor x = input;
  for (const auto& f : forwards_) x = f(x);
  return x;
}

std::shared_ptr<Module> Sequential::operator[](size_t index) const {
  MT_CHECK_INDEX(index < forwards_.size(), "index ", index, " is out of range for a Sequential of ", forwards_.size(),
                 " modules");
  return named_children().items()[index].second;
}

}  // namespace mt::nn
