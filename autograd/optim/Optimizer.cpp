#include "autograd/optim/Optimizer.h"

#include <functional>
#include <set>
#include <string>

#include "autograd/nn/Module.h"
#include "ops/Factories.h"
#include "tensor/Error.h"

namespace mt::optim {

Optimizer::Optimizer(std::vector<Tensor> params) : params_(std::move(params)) {
  MT_CHECK_VALUE(!params_.empty(), "optimizer got an empty parameter list");
  for (const Tensor& p : params_) {
    MT_CHECK_VALUE(p.defined(), "optimizer got an undefined tensor as a parameter");
    MT_CHECK_VALUE(p.is_leaf(), "can't optimize a non-leaf Tensor");
  }
}

void Optimizer::zero_grad(bool set_to_none) {
  for (const Tensor& p : params_) nn::clear_grad(p, set_to_none);
}

namespace {

std::string option_key(const char* name) { return std::string("param_groups.0.") + name; }
std::string state_key(size_t param, const char* name) { return "state." + std::to_string(param) + "." + name; }

class Saver : public Optimizer::StateVisitor {
 public:
  Saver(nn::OrderedDict<Tensor>& dict) : dict_(dict) {}
  void for_param(size_t i) { param_ = i; }
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
  size_t param_ = 0;
};

// Checks each entry as the optimizer's fields are visited and queues its assignment; nothing is assigned
// until every field has been checked and no key is left over.
class Loader : public Optimizer::StateVisitor {
 public:
  Loader(const nn::OrderedDict<Tensor>& dict, const std::vector<Tensor>& params) : dict_(dict), params_(params) {}
  void for_param(size_t i) { param_ = i; }
  void option(const char* name, double& value) override {
    const Tensor& t = scalar(option_key(name), true);
    assign_.push_back([&value, v = t.item<double>()] { value = v; });
  }
  void option(const char* name, bool& value) override {
    const Tensor& t = scalar(option_key(name), true);
    assign_.push_back([&value, v = t.item<double>() != 0] { value = v; });
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
  size_t param_ = 0;
  std::set<std::string> used_;
  std::vector<std::function<void()>> assign_;
};

}  // namespace

// Saving reads the fields through the same visitor interface that loading writes them through.
nn::OrderedDict<Tensor> Optimizer::state_dict() const {
  nn::OrderedDict<Tensor> dict;
  auto& self = const_cast<Optimizer&>(*this);
  Saver saver(dict);
  self.visit_options(saver);
  if (initial_lr) dict.insert(option_key("initial_lr"), mt::tensor(*initial_lr, TensorOptions(kFloat64)));
  for (size_t i = 0; i < params_.size(); ++i) {
    saver.for_param(i);
    self.visit_state(i, saver);
  }
  return dict;
}

void Optimizer::load_state_dict(const nn::OrderedDict<Tensor>& dict) {
  Loader loader(dict, params_);
  visit_options(loader);
  const Tensor* initial = dict.find(option_key("initial_lr"));
  double initial_value = 0;
  if (initial) loader.option("initial_lr", initial_value);
  for (size_t i = 0; i < params_.size(); ++i) {
    loader.for_param(i);
    visit_state(i, loader);
  }
  loader.finish();
  initial_lr = initial ? std::optional<double>(initial_value) : std::nullopt;
}

}  // namespace mt::optim
