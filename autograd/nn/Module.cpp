#include "autograd/nn/Module.h"

#include <sstream>

#include "autograd/GradMode.h"
#include "tensor/Error.h"

namespace mt::nn {

namespace {

// "[3, 2]"
std::string shape_str(IntArrayRef sizes) {
  std::ostringstream ss;
  ss << "[";
  for (size_t i = 0; i < sizes.size(); ++i) ss << (i ? ", " : "") << sizes[i];
  ss << "]";
  return ss.str();
}

std::string quoted_list(const std::vector<std::string>& keys) {
  std::string out;
  for (size_t i = 0; i < keys.size(); ++i) out += (i ? ", \"" : "\"") + keys[i] + "\"";
  return out;
}

}  // namespace

// A name is one path component, unique among the module's parameters, buffers and children, so that
// dotted state-dict keys are unambiguous.
static void check_new_name(const std::string& kind, const std::string& name, const Module& m,
                           const OrderedDict<Tensor>& params, const OrderedDict<Tensor>& bufs,
                           const OrderedDict<std::shared_ptr<Module>>& children) {
  MT_CHECK(!name.empty(), kind, " name must not be empty");
  MT_CHECK(name.find('.') == std::string::npos, kind, " name must not contain a dot (got '", name, "')");
  MT_CHECK(!params.contains(name) && !bufs.contains(name) && !children.contains(name), kind, " '", name,
           "' already defined: ", m.name(), " already has a parameter, buffer or submodule of that name");
}

Tensor Module::register_parameter(std::string name, Tensor tensor, bool requires_grad) {
  check_new_name("Parameter", name, *this, parameters_, buffers_, children_);
  MT_CHECK(tensor.defined(), "Parameter '", name, "' is an undefined tensor");
  tensor.requires_grad_(requires_grad);
  return parameters_.insert(std::move(name), std::move(tensor));
}

Tensor Module::register_buffer(std::string name, Tensor tensor) {
  check_new_name("Buffer", name, *this, parameters_, buffers_, children_);
  MT_CHECK(tensor.defined(), "Buffer '", name, "' is an undefined tensor");
  return buffers_.insert(std::move(name), std::move(tensor));
}

void Module::add_child(std::string name, std::shared_ptr<Module> module) {
  check_new_name("Submodule", name, *this, parameters_, buffers_, children_);
  MT_CHECK(module != nullptr, "Submodule '", name, "' is null");
  children_.insert(std::move(name), std::move(module));
}

void Module::collect(StateDict& out, const std::string& prefix, bool params, bool bufs, bool recurse) const {
  if (params) {
    for (const auto& [n, t] : parameters_) out.insert(prefix + n, t);
  }
  if (bufs) {
    for (const auto& [n, t] : buffers_) out.insert(prefix + n, t);
  }
  if (!recurse) return;
  for (const auto& [n, child] : children_) child->collect(out, prefix + n + ".", params, bufs, true);
}

std::vector<Tensor> Module::parameters(bool recurse) const { return named_parameters(recurse).values(); }

StateDict Module::named_parameters(bool recurse) const {
  StateDict out;
  collect(out, "", true, false, recurse);
  return out;
}

std::vector<Tensor> Module::buffers(bool recurse) const { return named_buffers(recurse).values(); }

StateDict Module::named_buffers(bool recurse) const {
  StateDict out;
  collect(out, "", false, true, recurse);
  return out;
}

std::vector<std::shared_ptr<Module>> Module::children() const { return children_.values(); }

void Module::train(bool on) {
  training_ = on;
  for (const auto& [n, child] : children_) child->train(on);
}

void clear_grad(const Tensor& param, bool set_to_none) {
  Tensor& g = param.mutable_grad();
  if (!g.defined()) return;
  if (set_to_none) {
    g.reset();
    return;
  }
  // A gradient built with create_graph has history; zeroing must not record into it.
  if (g.grad_fn()) g = g.detach();
  NoGradGuard no_grad;
  g.zero_();
}

void Module::to(Device device) {
  NoGradGuard no_grad;
  auto move = [&](const Tensor& t) {
    if (t.defined() && t.device() != device) t.unsafeGetTensorImpl()->set_data(*t.to(device).unsafeGetTensorImpl());
  };
  for (const Tensor& p : parameters()) {
    move(p);
    move(p.grad());
  }
  for (const Tensor& b : buffers()) move(b);
}

void Module::zero_grad(bool set_to_none) {
  for (const auto& [n, p] : parameters_) clear_grad(p, set_to_none);
  for (const auto& [n, child] : children_) child->zero_grad(set_to_none);
}

StateDict Module::state_dict() const {
  StateDict all;
  collect(all, "", true, true, true);
  StateDict out;
  for (const auto& [n, t] : all) out.insert(n, t.detach());
  return out;
}

void Module::load_state_dict(const StateDict& dict, bool strict) {
  StateDict own;
  collect(own, "", true, true, true);
  std::vector<std::string> missing, unexpected, errors;
  for (const auto& [key, dst] : own) {
    const Tensor* src = dict.find(key);
    if (src == nullptr) {
      missing.push_back(key);
    } else if (!src->defined()) {
      errors.push_back("undefined tensor for " + key + " in the state dict.");
    } else if (src->sizes() != dst.sizes()) {
      errors.push_back("size mismatch for " + key + ": copying a param with shape " + shape_str(src->sizes()) +
                       " from checkpoint, the shape in current model is " + shape_str(dst.sizes()) + ".");
    }
  }
  for (const auto& [key, src] : dict) {
    if (!own.contains(key)) unexpected.push_back(key);
  }
  if (strict && !unexpected.empty()) {
    errors.insert(errors.begin(), "Unexpected key(s) in state_dict: " + quoted_list(unexpected) + ".");
  }
  if (strict && !missing.empty()) {
    errors.insert(errors.begin(), "Missing key(s) in state_dict: " + quoted_list(missing) + ".");
  }
  if (!errors.empty()) {
    std::string msg = "Error(s) in loading state_dict for " + name() + ":";
    for (const auto& e : errors) msg += "\n\t" + e;
    throw RuntimeError(msg);
  }
  NoGradGuard no_grad;
  for (auto& [key, dst] : own) {
    if (const Tensor* src = dict.find(key)) dst.copy_(*src);
  }
}

static void print_module(std::ostream& os, const Module& m, const std::string& indent) {
  os << m.name() << "(";
  const std::string extra = m.extra_repr();
  const auto& children = m.named_children();
  if (children.empty()) {
    os << extra << ")";
    return;
  }
  const std::string inner = indent + "  ";
  os << "\n";
  if (!extra.empty()) os << inner << extra << "\n";
  for (const auto& [n, child] : children) {
    os << inner << "(" << n << "): ";
    print_module(os, *child, inner);
    os << "\n";
  }
  os << indent << ")";
}

std::ostream& operator<<(std::ostream& os, const Module& module) {
  print_module(os, module, "");
  return os;
}

}  // namespace mt::nn
