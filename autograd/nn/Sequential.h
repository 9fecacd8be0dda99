#pragma once
// mt::nn::Sequential: runs its modules in order, each one's output the next one's input.
//
//   auto model = std::make_shared<mt::nn::Sequential>(
//       std::make_shared<mt::nn::Linear>(784, 128), std::make_shared<mt::nn::ReLU>(),
//       std::make_shared<mt::nn::Linear>(128, 10));
//   mt::Tensor logits = model->forward(x);
//
// Any module with `Tensor forward(const Tensor&)` can be added; its children are named "0", "1", ...
#include <concepts>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "autograd/nn/Module.h"

namespace mt::nn {

template <typename M>
concept TensorToTensorModule = std::is_base_of_v<Module, M> && requires(M& m, const Tensor& x) {
  { m.forward(x) } -> std::convertible_to<Tensor>;
};

class Sequential : public Module {
 public:
  Sequential() = default;
  template <TensorToTensorModule... Ms>
  explicit Sequential(std::shared_ptr<Ms>... modules) {
    (push_back(std::move(modules)), ...);
  }

  // Appends `module` under the next index as its name.
  template <TensorToTensorModule M>
  void push_back(std::shared_ptr<M> module) {
    M* raw = module.get();
    register_module(std::to_string(forwards_.size()), std::move(module));
    forwards_.emplace_back([raw](const Tensor& x) { return Tensor(raw->forward(x)); });
  }

  Tensor forward(const Tensor& input) const;

  size_t size() const { return forwards_.size(); }
  std::shared_ptr<Module> operator[](size_t index) const;
  // The module at `index` as its concrete type; an error if it is another type.
  template <typename M>
  std::shared_ptr<M> at(size_t index) const {
    auto typed = std::dynamic_pointer_cast<M>((*this)[index]);
    MT_CHECK(typed != nullptr, "Sequential: module ", index, " (", (*this)[index]->name(),
             ") is not of the requested type");
    return typed;
  }

  std::string name() const override { return "Sequential"; }

 private:
  // Type-erased forward of each child; the child itself is kept alive by the registered shared_ptr.
  std::vector<std::function<Tensor(const Tensor&)>> forwards_;
};

}  // namespace mt::nn
