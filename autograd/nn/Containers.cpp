#include "autograd/nn/Containers.h"

#include <utility>

namespace mt::nn {

ModuleList::ModuleList(std::vector<std::shared_ptr<Module>> modules) {
  for (auto& m : modules) push_back(std::move(m));
}

void ModuleList::push_back(std::shared_ptr<Module> module) {
  MT_CHECK_VALUE(module != nullptr, "ModuleList: cannot add a null module");
  register_module(std::to_string(modules_.size()), module);
  modules_.push_back(std::move(module));
}

std::shared_ptr<Module> ModuleList::operator[](int64_t index) const {
  const auto n = static_cast<int64_t>(modules_.size());
  MT_CHECK_INDEX(index >= -n && index < n, "index ", index, " is out of range");
  return modules_[static_cast<size_t>(index < 0 ? index + n : index)];
}

ModuleDict::ModuleDict(const std::vector<std::pair<std::string, std::shared_ptr<Module>>>& modules) {
  for (const auto& [key, module] : modules) insert(key, module);
}

void ModuleDict::insert(const std::string& key, std::shared_ptr<Module> module) {
  MT_CHECK_VALUE(module != nullptr, "ModuleDict: cannot add a null module under '", key, "'");
  MT_CHECK_VALUE(!contains(key), "ModuleDict: key '", key, "' is already in the dictionary");
  register_module(key, std::move(module));
}

const std::shared_ptr<Module>& ModuleDict::operator[](const std::string& key) const {
  MT_CHECK_INDEX(contains(key), "ModuleDict: no module under key '", key, "'");
  return named_children()[key];
}

std::vector<std::string> ModuleDict::keys() const {
  std::vector<std::string> out;
  for (const auto& [key, module] : named_children()) out.push_back(key);
  return out;
}

}  // namespace mt::nn
