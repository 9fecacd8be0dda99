#include "autograd/optim/Optimizer.h"

#include <functional>
#include <set>
#include <string>

#include "autograd/nn/Module.h"
#include "ops/Factories.h"
#include "tensor/Error.h"

namespace mt::optim {

void Optimizer::add_params(std::vector<Tensor> params) {
  for (const Tensor& p : params) {
    MT_CHECK_VALUE(p.defined(), "optimizer got an undefined tensor as a parameter");
    MT_CHECK_VALUE(p.is_leaf(), "can't optimize a non-leaf Tensor");
    for (const Tensor& q : params_)
      MT_CHECK_VALUE(!q.is_same(p), "some parameters appear in more than one parameter group");
  }
  params_.insert(params_.end(), std::make_move_iterator(params.begin()), std::make_move_iterator(params.end()));
  group_ends_.push_back(params_.size());
  initial_lrs_.emplace_back();
}

void Optimizer::check_not_empty() const { MT_CHECK_VALUE(!params_.empty(), "optimizer got an empty parameter list"); }

size_t Optimizer::checked_group(size_t group) const {
  MT_CHECK_INDEX(group < num_param_groups(), "parameter group ", group, " out of range: the optimizer has ",
                 num_param_groups());
  return group;
}

std::span<const Tensor> Optimizer::group_parameters(size_t group) const {
  checked_group(group);
  return std::span<const Tensor>(params_).subspan(group_begin(group), group_end(group) - group_begin(group));
}

std::optional<double>& Optimizer::initial_lr(size_t group) { return initial_lrs_[checked_group(group)]; }

void Optimizer::zero_grad(bool set_to_none) {
  for (const Tensor& p : params_) nn::clear_grad(p, set_to_none);
}

namespace {

std::string group_key(size_t group, const char* name) {
  return "param_groups." + std::to_string(group) + "." + name;
}
std::string state_key(size_t param, const char* name) { return "state." + std::to_string(param) + "." + name; }

// Where the visitor is: options are keyed by group, buffers and counts by parameter.
class Keys {
 public:
  void for_group(size_t g) { group_ = g; }
  void for_param(size_t i) { param_ = i; }

 protected:
  std::string option_key(const char* name) const { return group_key(group_, name); }
  size_t group_ = 0, param_ = 0;
};

class Saver : public Optimizer::StateVisitor, public Keys {
 public:
  Saver(nn::OrderedDict<Tensor>& dict) : dict_(dict) {}
  void params(size_t begin, size_t end) {
    dict_.insert(option_key("params"), mt::arange(static_cast<int64_t>(begin), static_cast<int64_t>(end), 1,
                                                  TensorOptions(kInt64)));
  }
  void option(const char* name, double& value) override {
    dict_.insert(option_key(name), mt::tensor(value, TensorOptions(kFloat64)));
  }
  void option(const char* name, bool& value) override {
    dict_.insert(option_key(name), mt::tensor(value, TensorOptions(kBool)));
  }
  void buffer(const char* name, Tensor& value) override {
    if (value.defined()) dict_.insert(state_key(param_, name), value.detach().clone());
  }
  void count(const char* name, int64_t& value) override {
    if (value != 0) dict_.insert(state_key(param_, name), mt::tensor(value, TensorOptions(kInt64)));
  }

 private:
  nn::OrderedDict<Tensor>& dict_;
};

// Checks each entry as the optimizer's fields are visited and queues its assignment; nothing is assigned
// until every field has been checked and no key is left over.
class Loader : public Optimizer::StateVisitor, public Keys {
 public:
  Loader(const nn::OrderedDict<Tensor>& dict, const std::vector<Tensor>& params) : dict_(dict), params_(params) {}
  // The group's parameter indices must be the optimizer's: the same groups, in the same order.
  void params(size_t begin, size_t end) {
    const std::string key = option_key("params");
    const Tensor* t = take(key);
    MT_CHECK_VALUE(t, "Optimizer.load_state_dict: missing key '", key, "'");
    bool same = t->dim() == 1 && t->numel() == static_cast<int64_t>(end - begin);
    if (same) {
      const Tensor indices = t->to(kInt64).contiguous();
      for (size_t i = begin; i < end && same; ++i) same = indices.data_ptr<int64_t>()[i - begin] == static_cast<int64_t>(i);
    }
    MT_CHECK_VALUE(same, "Optimizer.load_state_dict: loaded state dict contains a parameter group that doesn't match "
                   "the size of optimizer's group (group ", group_, " holds parameters ", begin, " to ", end, ")");
  }
  void option(const char* name, double& value) override {
    const Tensor& t = scalar(option_key(name), true);
    assign_.push_back([&value, v = t.item<double>()] { value = v; });
  }
  void option(const char* name, bool& value) override {
    const Tensor& t = scalar(option_key(name), true);
    assign_.push_back([&value, v = t.item<double>() != 0] { value = v; });
  }
  // A scheduler's rate: kept if the dict has it, dropped if not.
  void initial_lr(std::optional<double>& value) {
    const Tensor t = scalar(option_key("initial_lr"), false);
    assign_.push_back([&value, v = t.defined() ? std::optional<double>(t.item<double>()) : std::nullopt] { value = v; });
  }
  void buffer(const char* name, Tensor& value) override {
    const std::string key = state_key(param_, name);
    const Tensor* t = take(key);
    const Tensor& p = params_[param_];
    MT_CHECK_VALUE(!t || t->sizes() == p.sizes(), "Optimizer.load_state_dict: '", key, "' has shape ", t->sizes(),
                   " but parameter ", param_, " has shape ", p.sizes());
    assign_.push_back([&value, v = t ? t->to(p.options()).clone() : Tensor()] { value = v; });
  }
  void count(const char* name, int64_t& value) override {
    const Tensor& t = scalar(state_key(param_, name), false);
    assign_.push_back([&value, v = t.defined() ? t.item<int64_t>() : 0] { value = v; });
  }
  void finish() {
    std::string unknown;
    for (const auto& [key, t] : dict_)
      if (!used_.count(key)) unknown += (unknown.empty() ? "'" : ", '") + key + "'";
    MT_CHECK_VALUE(unknown.empty(), "Optimizer.load_state_dict: unexpected keys ", unknown, " (the optimizer has ",
                   params_.size(), " parameters)");
    for (const auto& a : assign_) a();
  }

 private:
  const Tensor* take(const std::string& key) {
    const Tensor* t = dict_.find(key);
    if (t) used_.insert(key);
    return t;
  }
  // A 0-dim entry; an option must be there, a count may be missing (no step taken).
  Tensor scalar(const std::string& key, bool required) {
    const Tensor* t = take(key);
    MT_CHECK_VALUE(t || !required, "Optimizer.load_state_dict: missing key '", key, "'");
    MT_CHECK_VALUE(!t || t->numel() == 1, "Optimizer.load_state_dict: '", key, "' should hold one value, but has shape ",
                   t->sizes());
    return t ? *t : Tensor();
  }

  const nn::OrderedDict<Tensor>& dict_;
  const std::vector<Tensor>& params_;
  std::set<std::string> used_;
  std::vector<std::function<void()>> assign_;
};

}  // namespace

// Saving reads the fields through the same visitor interface that loading writes them through.
nn::OrderedDict<Tensor> Optimizer::state_dict() const {
  nn::OrderedDict<Tensor> dict;
  auto& self = const_cast<Optimizer&>(*this);
  Saver saver(dict);
  for (size_t g = 0; g < num_param_groups(); ++g) {
    saver.for_group(g);
    saver.params(group_begin(g), group_end(g));
    self.visit_options(g, saver);
    if (initial_lrs_[g]) dict.insert(group_key(g, "initial_lr"), mt::tensor(*initial_lrs_[g], TensorOptions(kFloat64)));
  }
  for (size_t i = 0; i < params_.size(); ++i) {
    saver.for_param(i);
    self.visit_state(i, saver);
  }
  return dict;
}

void Optimizer::load_state_dict(const nn::OrderedDict<Tensor>& dict) {
  size_t groups = 0;
  while (dict.find(group_key(groups, "params"))) ++groups;
  MT_CHECK_VALUE(groups == num_param_groups(), "Optimizer.load_state_dict: loaded state dict has a different number "
                 "of parameter groups (", groups, ", the optimizer has ", num_param_groups(), ")");
  Loader loader(dict, params_);
  for (size_t g = 0; g < num_param_groups(); ++g) {
    loader.for_group(g);
    loader.params(group_begin(g), group_end(g));
    visit_options(g, loader);
    loader.initial_lr(initial_lrs_[g]);
  }
  for (size_t i = 0; i < params_.size(); ++i) {
    loader.for_param(i);
    visit_state(i, loader);
  }
  loader.finish();
}

}  // namespace mt::optim
