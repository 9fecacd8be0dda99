#include "autograd/SavedVariable.h"

#include "autograd/AutogradMeta.h"
#include "tensor/Error.h"

namespace mt::autograd {

namespace {

// PyTorch's legacy type names: "FloatTensor", "LongTensor", ...
std::string legacy_type_name(const Tensor& t) {
  switch (t.dtype()) {
    case kBool: return "mt.BoolTensor";
    case kUInt8: return "mt.ByteTensor";
    case kInt8: return "mt.CharTensor";
    case kInt16: return "mt.ShortTensor";
    case kInt32: return "mt.IntTensor";
    case kInt64: return "mt.LongTensor";
    case kFloat32: return "mt.FloatTensor";
    case kFloat64: return "mt.DoubleTensor";
    case kFloat16: return "mt.HalfTensor";
    case kBFloat16: return "mt.BFloat16Tensor";
    default: return "mt.Tensor";
  }
}

}  // namespace

SavedVariable::SavedVariable(const Tensor& t) {
  if (!t.defined()) return;
  MT_CHECK(!t.unsafeGetTensorImpl()->is_inference(),
           "Inference tensors cannot be saved for backward. To work around you can make a clone to get a normal "
           "tensor and use it in autograd.");
  saved_version_ = t.unsafeGetTensorImpl()->version();
  if (const AutogradMeta* meta = get_autograd_meta(t); meta && meta->grad_fn) {
    grad_fn_name_ = meta->grad_fn->name();
    output_nr_ = meta->output_nr;
  }
  data_ = t;
}

Tensor SavedVariable::unpack() const {
  if (!data_.defined()) return Tensor();
  const uint32_t current = data_.unsafeGetTensorImpl()->version();
  if (current != saved_version_) {
    std::string who = "[" + legacy_type_name(data_) + " " + detail::str_cat(data_.sizes()) + "]";
    if (!grad_fn_name_.empty()) who += detail::str_cat(", which is output ", output_nr_, " of ", grad_fn_name_, ",");
    detail::throw_error<RuntimeError>(
        "one of the variables needed for gradient computation has been modified by an inplace operation: ", who,
        " is at version ", current, "; expected version ", saved_version_,
        " instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, "
        "with torch.autograd.set_detect_anomaly(True).");
  }
  return data_;
}

}  // namespace mt::autograd
