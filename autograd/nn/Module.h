#pragma once
// mt::nn::Module: the base of every layer, as torch::nn::Module. A module owns named parameters
// (tensors an optimizer updates), buffers (state that is saved but not trained) and child modules,
// and answers for the whole tree: parameters(), train()/eval(), zero_grad(), state_dict().
//
//   struct Net : mt::nn::Module {
//     Net() : fc1(register_module("fc1", std::make_shared<mt::nn::Linear>(4, 8))) {}
//     mt::Tensor forward(const mt::Tensor& x) { return fc1->forward(x); }
//     std::shared_ptr<mt::nn::Linear> fc1;
//   };
//
// Modules live behind std::shared_ptr (children are shared), and are not copyable: a copy would
// silently share its parameters with the original.
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "autograd/nn/OrderedDict.h"
#include "tensor/Tensor.h"

namespace mt::nn {

// Full dotted name ("fc1.weight") -> tensor: what state_dict() returns and load_state_dict() takes.
using StateDict = OrderedDict<Tensor>;

class Module {
 public:
  Module() = default;
  virtual ~Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  // The type name printed by operator<< ("Linear"); subclasses override it.
  virtual std::string name() const { return "Module"; }
  // What goes between the parentheses when printed ("in_features=4, out_features=8, bias=true").
  virtual std::string extra_repr() const { return ""; }

  // Registers `tensor` (a leaf) under `name` and sets its requires_grad; returns it (a handle to the
  // same tensor, e.g. to keep as a member).
  Tensor register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  // A buffer is saved in the state dict but not returned by parameters().
  Tensor register_buffer(std::string name, Tensor tensor);
  // Adds a child; its parameters appear as "<name>.<param>". Returns the module, typed as given.
  template <typename M>
  std::shared_ptr<M> register_module(std::string name, std::shared_ptr<M> module) {
    add_child(std::move(name), module);
    return module;
  }

  // In registration order: this module's own, then each child's (depth first) when `recurse`.
  std::vector<Tensor> parameters(bool recurse = true) const;
  StateDict named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  StateDict named_buffers(bool recurse = true) const;
  // The direct children only.
  std::vector<std::shared_ptr<Module>> children() const;
  const OrderedDict<std::shared_ptr<Module>>& named_children() const { return children_; }

  // Sets training mode on this module and every descendant (Dropout reads it).
  virtual void train(bool on = true);
  void eval() { train(false); }
  bool is_training() const { return training_; }

  // Moves every parameter and buffer (and a parameter's .grad) to `device` in place: the tensors keep
  // their identity, so layers and optimizers that hold them see the moved data (torch's module.to()).
  void to(Device device);
  // Clears every parameter's .grad (set_to_none), or zeroes it in place.
  void zero_grad(bool set_to_none = true);

  // Parameters and buffers under their dotted names, detached (they share storage with the module).
  StateDict state_dict() const;
  // Copies `dict` into the existing parameters and buffers under no_grad (the tensors keep their
  // identity, so optimizers holding them stay valid). Every key of the module must be present and
  // nothing else when `strict`; shapes must always match. On any error nothing is copied, and the
  // message lists every problem, in PyTorch's words.
  void load_state_dict(const StateDict& dict, bool strict = true);

 private:
  void add_child(std::string name, std::shared_ptr<Module> module);
  // Appends this module's parameters and/or buffers (and its descendants') to `out`, named under `prefix`.
  void collect(StateDict& out, const std::string& prefix, bool params, bool bufs, bool recurse) const;

  OrderedDict<Tensor> parameters_;
  OrderedDict<Tensor> buffers_;
  OrderedDict<std::shared_ptr<Module>> children_;
  bool training_ = true;
};

// What zero_grad does to one parameter: resets its .grad (set_to_none), or zeroes it in place.
void clear_grad(const Tensor& param, bool set_to_none);

// Prints the module tree as PyTorch's repr does:
//   Sequential(
//     (0): Linear(in_features=784, out_features=128, bias=true)
//     (1): ReLU()
//   )
std::ostream& operator<<(std::ostream& os, const Module& module);

}  // namespace mt::nn
