#pragma once
// Module containers that hold children without running them, as torch::nn::ModuleList and ModuleDict:
// the children's parameters belong to the container (parameters(), state_dict(), to(), train()), and
// the owner's forward decides how to call them.
//
//   auto blocks = register_module("blocks", std::make_shared<mt::nn::ModuleList>());
//   for (int i = 0; i < 3; ++i) blocks->push_back(std::make_shared<mt::nn::Linear>(8, 8));
//   for (const auto& b : *blocks) x = std::dynamic_pointer_cast<mt::nn::Linear>(b)->forward(x);
#include <memory>
#include <string>
#include <vector>

#include "autograd/nn/Module.h"

namespace mt::nn {

// Children named "0", "1", ... in the order they were added.
class ModuleList : public Module {
 public:
  ModuleList() = default;
  explicit ModuleList(std::vector<std::shared_ptr<Module>> modules);

  void push_back(std::shared_ptr<Module> module);
  size_t size() const { return modules_.size(); }
  bool empty() const { return modules_.empty(); }
  // Negative indices count from the end, as Python's.
  std::shared_ptr<Module> operator[](int64_t index) const;
  // The module at `index` as its concrete type; an error if it is another type.
  template <typename M>
  std::shared_ptr<M> at(int64_t index) const {
    auto typed = std::dynamic_pointer_cast<M>((*this)[index]);
    MT_CHECK_TYPE(typed != nullptr, "ModuleList: module ", index, " (", (*this)[index]->name(),
                  ") is not of the requested type");
    return typed;
  }
  auto begin() const { return modules_.begin(); }
  auto end() const { return modules_.end(); }

  std::string name() const override { return "ModuleList"; }

 private:
  std::vector<std::shared_ptr<Module>> modules_;
};

// Children under names of the caller's choosing, in insertion order.
class ModuleDict : public Module {
 public:
  ModuleDict() = default;
  explicit ModuleDict(const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules);

  // Adds `module` under `key`; a key already present is an error.
  void insert(const std::string& key, std::shared_ptr<Module> module);
  size_t size() const { return named_children().size(); }
  bool empty() const { return named_children().empty(); }
  bool contains(const std::string& key) const { return named_children().contains(key); }
  const std::shared_ptr<Module>& operator[](const std::string& key) const;
  std::vector<std::string> keys() const;
  auto begin() const { return named_children().begin(); }
  auto end() const { return named_children().end(); }

  std::string name() const override { return "ModuleDict"; }
};

}  // namespace mt::nn
