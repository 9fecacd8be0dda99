#include "autograd/SavedVariable.h"

#include "autograd/AutogradMeta.h"
#include "tensor/Error.h"

namespace mt::autograd {

namespace {

// PyTorch's legacy type names: "FloatTensor", "LongTensor", ...
std::string legacy_type_name(const Tensor& t) {
  switch (t.dtype()) {
    case kBool: return "mt.BoolTensor";
    case kInt64: return "mt.LongTensor";
    case kFloat32: return "mt.FloatTensor";
    case kFloat64: return "mt.DoubleTensor";
    case kFloat16: return "mt.HalfTensor";
    case kBFloat16: return "mt.BFloat16Tensor";
    default: return "mt.Tensor";
  }
}

}  // namespace

SavedVariable::SavedVariable(const Tensor& t, bool is_output) {
  if (!t.defined()) return;
  MT_CHECK(!t.unsafeGetTensorImpl()->is_inference(),
           "Inference tensors cannot be saved for backward. To work around you can make a clone to get a normal "
           "tensor and use it in autograd.");
  saved_version_ = t.unsafeGetTensorImpl()->version();
  is_output_ = is_output;
  if (const AutogradMeta* meta = get_autograd_meta(t); meta && meta->grad_fn) {
    has_grad_fn_ = true;
    grad_fn_name_ = meta->grad_fn->name();
    output_nr_ = meta->output_nr;
    if (is_output) output_grad_fn_ = meta->grad_fn;
  }
  data_ = is_output ? alias_without_history(t) : t;
}

Tensor SavedVariable::unpack() const {
  if (!data_.defined()) return Tensor();
  const uint32_t current = data_.unsafeGetTensorImpl()->version();
  if (current != saved_version_) {
    std::string who = "[" + legacy_type_name(data_) + " " + detail::str_cat(data_.sizes()) + "]";
    if (has_grad_fn_) who += detail::str_cat(", which is output ", output_nr_, " of ", grad_fn_name_, ",");
    detail::throw_error<RuntimeError>(
        "one of the variables needed for gradient computation has been modified by an inplace operation: ", who,
        " is at version ", current, "; expected version ", saved_version_,
        " instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
        "with torch.autograd.set_detect_anomaly(True).");
  }
  if (!is_output_ || !has_grad_fn_) return data_;
  // A saved output gets its history back, so double backward sees through it.
  Tensor t = alias_without_history(data_);
  if (std::shared_ptr<Node> fn = output_grad_fn_.lock()) {
    AutogradMeta& meta = materialize_autograd_meta(t);
    meta.grad_fn = std::move(fn);
    meta.output_nr = output_nr_;
  }
  return t;
}

}  // namespace mt::autograd
