#include "ops/infra/TensorIterator.h"

#include <algorithm>

#include "ops/Copy.h"
#include "ops/infra/MemoryOverlap.h"
#include "ops/infra/Parallel.h"
#include "ops/Views.h"
#include "tensor/TypePromotion.h"

namespace mt {

SmallVector<int64_t, 5> infer_size(IntArrayRef a, IntArrayRef b) {
  const size_t n = std::max(a.size(), b.size());
  SmallVector<int64_t, 5> out;
  out.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t sa = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t sb = i < n - b.size() ? 1 : b[i - (n - b.size())];
    MT_CHECK(sa == sb || sa == 1 || sb == 1, "The size of tensor a (", sa, ") must match the size of tensor b (", sb,
             ") at non-singleton dimension ", i);
    out[i] = sa == 1 ? sb : sa;
  }
  return out;
}

bool can_cast(ScalarType from, ScalarType to) {
  if (is_floating_point(from) && is_integral(to, /*include_bool=*/true)) return false;
  if (from != kBool && to == kBool) return false;
  return true;
}

// --- configuration --------------------------------------------------------------------------------------

void check_same_device(Device expected, const TensorBase& t) {
  MT_CHECK(t.device() == expected, "Expected all tensors to be on the same device, but found at least two devices, ",
           expected, " and ", t.device(), "!");
}

void check_same_device(std::initializer_list<const TensorBase*> tensors) {
  for (const TensorBase* t : tensors) check_same_device((*tensors.begin())->device(), *t);
}

TensorIteratorConfig& TensorIteratorConfig::add_output(const TensorBase& out) {
  outputs_.push_back(&out);
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::add_input(const TensorBase& in) {
  inputs_.push_back(&in);
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::promote_inputs_to_common_dtype(bool v) {
  promote_inputs_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::promote_integer_inputs_to_float(bool v) {
  int_to_float_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::output_dtype(ScalarType t) {
  output_dtype_ = t;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::check_all_same_dtype(bool v) {
  same_dtype_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::keep_output_dtype(bool v) {
  keep_output_dtype_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::resize_outputs(bool v) {
  resize_outputs_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::check_mem_overlap(bool v) {
  check_mem_overlap_ = v;
  return *this;
}
TensorIteratorConfig& TensorIteratorConfig::name(const char* n) {
  name_ = n;
  return *this;
}

// The common case, set up without broadcasting or promotion: inputs of one shape and dtype, all
// contiguous, and outputs that are undefined or just like them.
bool TensorIteratorConfig::try_fast_setup(TensorIterator& it) const {
  if (inputs_.empty() || !inputs_[0]->defined()) return false;
  const TensorBase& first = *inputs_[0];
  const ScalarType dtype = first.dtype();
  if (int_to_float_ && is_integral(dtype, /*include_bool=*/true)) return false;
  const ScalarType out_dtype = output_dtype_.value_or(dtype);
  for (const TensorBase* tp : inputs_) {
    const TensorBase& t = *tp;
    if (!t.defined() || t.dtype() != dtype || !t.is_contiguous() || !(t.sizes() == first.sizes()) ||
        t.device() != first.device() || t.unsafeGetTensorImpl()->is_wrapped_number())
      return false;
  }
  for (const TensorBase* tp : outputs_) {
    const TensorBase& t = *tp;
    if (!t.defined()) continue;
    if (t.dtype() != out_dtype || !t.is_contiguous() || !(t.sizes() == first.sizes()) || t.device() != first.device())
      return false;
    for (const TensorBase* in : inputs_) {  // the general path checks (and refuses) partial overlaps
      if (in->unsafeGetTensorImpl() != t.unsafeGetTensorImpl() && in->storage_offset() != t.storage_offset() &&
          shares_storage(*in, t))
        return false;
    }
  }
  it.device_ = first.device();
  it.common_dtype_ = dtype;
  for (const TensorBase* out : outputs_) {
    TensorIterator::Operand op;
    op.is_output = true;
    if (out->defined()) op.borrowed = out;
    else op.owned = TensorBase(TensorImpl::empty(first.sizes(), out_dtype, it.device_));
    it.operands_.push_back(std::move(op));
  }
  it.num_outputs_ = static_cast<int>(outputs_.size());
  for (const TensorBase* in : inputs_) {
    TensorIterator::Operand op;
    op.borrowed = in;
    it.operands_.push_back(std::move(op));
  }
  it.numel_ = first.numel();
  it.shape_.clear();
  it.shape_.push_back(it.numel_);
  it.strides_.clear();
  for (const auto& op : it.operands_) it.strides_.push_back(static_cast<int64_t>(op.tensor().element_size()));
  return true;
}

TensorIterator TensorIteratorConfig::build() {
  TensorIterator it;
  MT_INTERNAL_ASSERT(outputs_.size() + inputs_.size() <= TensorIterator::kMaxOperands);
  if (try_fast_setup(it)) return it;
  it.device_ = compute_device();
  const SmallVector<int64_t, 5> shape = compute_shape();
  const IntArrayRef shape_ref(shape.data(), shape.size());
  it.common_dtype_ = compute_common_dtype();
  const Layout layout = compute_layout(shape_ref);
  add_outputs(it, shape_ref, layout);
  add_inputs(it);
  it.numel_ = 1;
  for (int64_t s : shape) it.numel_ *= s;
  it.shape_ = shape;
  it.compute_strides_and_coalesce(layout.order);
  return it;
}

// Every operand on one device, except that 0-dim CPU inputs may join an op on another device.
Device TensorIteratorConfig::compute_device() const {
  std::optional<Device> device;
  auto check_device = [&](const TensorBase& t) {
    if (!t.defined()) return;
    if (!device) device = t.device();
    else check_same_device(*device, t);
  };
  for (const TensorBase* t : inputs_)
    if (!(t->defined() && t->dim() == 0 && t->is_cpu())) check_device(*t);
  for (const TensorBase* t : outputs_) check_device(*t);
  return device.value_or(Device(kCPU));
}

// The inputs broadcast together (and the outputs, where they are not resized to the result).
SmallVector<int64_t, 5> TensorIteratorConfig::compute_shape() const {
  SmallVector<int64_t, 5> shape;
  for (const TensorBase* t : inputs_) shape = infer_size(shape, t->sizes());
  if (inputs_.empty() || !resize_outputs_) {
    for (const TensorBase* t : outputs_)
      if (t->defined()) shape = infer_size(shape, t->sizes());
  }
  return shape;
}

// The common dtype of the inputs, by PyTorch's promotion rules.
ScalarType TensorIteratorConfig::compute_common_dtype() const {
  ScalarType common = inputs_.empty() ? outputs_[0]->dtype() : inputs_[0]->dtype();
  if (same_dtype_) {
    for (const TensorBase* t : inputs_)
      MT_CHECK_TYPE(t->dtype() == common, name_, ": expected all tensors to have the same dtype, but got ", common,
                    " and ", t->dtype());
  } else if (!inputs_.empty()) {
    ResultTypeState state;
    for (const TensorBase* t : inputs_) state = update_result_type_state(*t, state);
    common = result_type(state);
  }
  if (int_to_float_ && is_integral(common, /*include_bool=*/true)) common = get_default_dtype();
  return common;
}

// The dims in the order the operands lay them out in memory (outputs written in place first), so that a
// new output keeps a permuted input's layout and the loop walks memory in order.
TensorIteratorConfig::Layout TensorIteratorConfig::compute_layout(IntArrayRef shape) const {
  const int ndim = static_cast<int>(shape.size());
  SmallVector<int64_t, 5 * TensorIterator::kMaxOperands> stride_buffer;  // ndim strides per operand
  auto add_layout = [&](const TensorBase& t) {
    for (int d = 0; d < ndim; ++d) {
      const int td = d - (ndim - static_cast<int>(t.dim()));
      const bool broadcast = td < 0 || (t.sizes()[td] == 1 && shape[d] != 1);
      stride_buffer.push_back(broadcast ? 0 : t.strides()[td]);
    }
  };
  for (const TensorBase* t : outputs_)
    if (t->defined() && t->sizes() == shape) add_layout(*t);
  for (const TensorBase* t : inputs_) add_layout(*t);
  SmallVector<IntArrayRef, TensorIterator::kMaxOperands> operand_strides;
  for (size_t begin = 0; ndim > 0 && begin < stride_buffer.size(); begin += ndim)
    operand_strides.push_back(IntArrayRef(stride_buffer.data() + begin, ndim));
  Layout layout;
  layout.order = memory_order(shape, ArrayRef<IntArrayRef>(operand_strides.data(), operand_strides.size()));
  for (int k = 0; k < ndim; ++k) layout.row_major = layout.row_major && layout.order[k] == ndim - 1 - k;
  // New outputs are dense in that order; inputs that all share one dense layout give it exactly,
  // strides of size-1 dims included (PyTorch's non-overlapping-and-dense fast setup).
  if (!layout.row_major) {
    const TensorBase* first = inputs_.empty() ? nullptr : inputs_[0];
    bool same_layout =
        first && first->sizes() == shape && is_non_overlapping_and_dense(first->sizes(), first->strides());
    for (const TensorBase* t : inputs_) same_layout = same_layout && t->sizes() == shape && t->strides() == first->strides();
    layout.out_strides = same_layout ? to_dim_vector(first->strides()) : dense_strides(shape, layout.order);
  }
  return layout;
}

// Outputs: allocated where undefined, resized from empty (out=), or checked (shape, dtype, overlap with
// the inputs), all before any of them changes; an output of another dtype gets a result to cast into it.
void TensorIteratorConfig::add_outputs(TensorIterator& it, IntArrayRef shape, const Layout& layout) const {
  const ScalarType common = it.common_dtype_, compute_out = output_dtype_.value_or(common);
  auto new_output = [&](ScalarType dtype) {
    return TensorBase(layout.row_major ? TensorImpl::empty(shape, dtype, it.device_)
                                       : TensorImpl::empty_strided(shape, layout.out_strides, dtype, it.device_));
  };
  for (const TensorBase* out_ptr : outputs_) {
    const TensorBase& out = *out_ptr;
    TensorIterator::Operand op;
    op.is_output = true;
    if (!out.defined()) {
      op.owned = new_output(compute_out);
    } else {
      MT_CHECK(out.sizes() == shape || (resize_outputs_ && out.numel() == 0), name_, ": output with shape ",
               out.sizes(), " doesn't match the broadcast shape ", shape);
      if (same_dtype_) {
        MT_CHECK_TYPE(out.dtype() == common, name_, ": expected the output to have dtype ", common, " but got ",
                      out.dtype());
      }
      const bool written_directly = out.dtype() == compute_out || keep_output_dtype_;
      MT_CHECK_TYPE(written_directly || can_cast(compute_out, out.dtype()), "result type ", compute_out,
                    " can't be cast to the desired output type ", out.dtype());
      if (check_mem_overlap_) {
        check_no_internal_overlap(out);
        for (const TensorBase* in : inputs_) check_no_partial_overlap(out, *in);
      }
      // Only now that every check passed may the output change.
      if (!(out.sizes() == shape)) {
        TensorImpl* impl = out.unsafeGetTensorImpl();
        impl->resize_(shape);
        if (!layout.row_major) impl->set_sizes_and_strides(shape, layout.out_strides, impl->storage_offset());
      }
      if (written_directly) {
        op.borrowed = out_ptr;
      } else {
        op.owned = new_output(compute_out);
        op.original = out;
      }
    }
    it.operands_.push_back(std::move(op));
  }
  it.num_outputs_ = static_cast<int>(outputs_.size());
}

// Inputs, converted to the common dtype where the op promotes them.
void TensorIteratorConfig::add_inputs(TensorIterator& it) const {
  for (const TensorBase* in : inputs_) {
    TensorIterator::Operand op;
    op.borrowed = in;
    if (promote_inputs_ && in->dtype() != it.common_dtype_) op.owned = converted_copy(*in, it.common_dtype_);
    it.operands_.push_back(std::move(op));
  }
}

// --- shapes and strides ---------------------------------------------------------------------------------

void TensorIterator::compute_strides_and_coalesce(IntArrayRef order) {
  const int n = ntensors();
  const int ndim = static_cast<int>(shape_.size());
  // Innermost dim first, so the loop runs along dim 0.
  SmallVector<int64_t, 5> shape;
  strides_.clear();
  for (int d = 0; d < ndim; ++d) {
    const int outer = static_cast<int>(order[d]);
    shape.push_back(shape_[outer]);
    for (int i = 0; i < n; ++i) {
      const TensorBase& t = operands_[i].tensor();
      const int td = outer - (ndim - static_cast<int>(t.dim()));
      const bool broadcast = td < 0 || t.sizes()[td] == 1;
      strides_.push_back(broadcast ? 0 : t.strides()[td] * static_cast<int64_t>(t.element_size()));
    }
  }
  if (shape.empty()) {
    shape.push_back(1);
    for (int i = 0; i < n; ++i) strides_.push_back(0);
  }
  // Merge dim d into the previous kept one when every operand steps through both as through one.
  auto stride = [&](int d, int i) -> int64_t& { return strides_[d * n + i]; };
  int prev = 0;
  for (int d = 1; d < static_cast<int>(shape.size()); ++d) {
    bool can_merge = shape[prev] == 1 || shape[d] == 1;
    if (!can_merge) {
      can_merge = true;
      for (int i = 0; i < n; ++i) can_merge = can_merge && stride(prev, i) * shape[prev] == stride(d, i);
    }
    if (can_merge) {
      if (shape[prev] == 1)
        for (int i = 0; i < n; ++i) stride(prev, i) = stride(d, i);
      shape[prev] *= shape[d];
    } else {
      ++prev;
      shape[prev] = shape[d];
      for (int i = 0; i < n; ++i) stride(prev, i) = stride(d, i);
    }
  }
  shape.resize(prev + 1);
  strides_.resize((prev + 1) * n);
  shape_ = shape;
}

bool TensorIterator::is_contiguous() const {
  if (shape_.size() != 1) return numel_ <= 1;
  for (int i = 0; i < ntensors(); ++i)
    if (strides_[i] != static_cast<int64_t>(operands_[i].tensor().element_size())) return false;
  return true;
}

// --- loops ----------------------------------------------------------------------------------------------

void TensorIterator::serial_for_each(const Loop& loop, int64_t begin, int64_t end) const {
  const int n = ntensors();
  const int ndim = static_cast<int>(shape_.size());
  int64_t counter[16] = {};
  MT_INTERNAL_ASSERT(ndim <= 16, "too many dims after coalescing: ", ndim);
  int64_t idx = begin;
  for (int d = 0; d < ndim; ++d) {
    counter[d] = idx % shape_[d];
    idx /= shape_[d];
  }
  char* base[kMaxOperands];
  for (int i = 0; i < n; ++i) base[i] = static_cast<char*>(operands_[i].tensor().data_ptr());
  char* ptrs[kMaxOperands];
  while (begin < end) {
    for (int i = 0; i < n; ++i) {
      ptrs[i] = base[i];
      for (int d = 0; d < ndim; ++d) ptrs[i] += counter[d] * strides_[d * n + i];
    }
    const int64_t run = std::min(shape_[0] - counter[0], end - begin);
    loop(ptrs, strides_.data(), run);
    begin += run;
    counter[0] += run;
    for (int d = 0; d < ndim - 1 && counter[d] == shape_[d]; ++d) {
      counter[d] = 0;
      ++counter[d + 1];
    }
  }
}

void TensorIterator::for_each(const Loop& loop, int64_t grain) {
  if (grain < 0) grain = kParallelGrain;
  if (numel_ > 0 && numel_ < grain && !device_.is_meta()) {
    serial_for_each(loop, 0, numel_);
  } else if (numel_ > 0 && !device_.is_meta()) {
    parallel_for(0, numel_, grain,
                 [&](int64_t begin, int64_t end) { serial_for_each(loop, begin, end); });
  }
  cast_outputs();
}

bool TensorIterator::is_cpu_scalar(int operand) const {
  const TensorBase& t = operands_[operand].tensor();
  return !operands_[operand].is_output && t.dim() == 0 && t.is_cpu() && !device_.is_cpu();
}

bool TensorIterator::is_scalar(int operand) const {
  if (operand < num_outputs_ || numel_ == 0 || operands_[operand].borrowed->numel() != 1) return false;
  for (int d = 0; d < ndim(); ++d)
    if (shape_[d] != 1 && stride(d, operand) != 0) return false;
  return true;
}

void TensorIterator::remove_operand(int operand) {
  MT_INTERNAL_ASSERT(operand >= num_outputs_ && operand < ntensors(), "remove_operand: not an input: ", operand);
  const int n = ntensors();
  int kept = 0;
  for (int k = 0; k < static_cast<int>(strides_.size()); ++k)
    if (k % n != operand) strides_[kept++] = strides_[k];
  strides_.resize(kept);
  operands_.erase(operands_.begin() + operand);
}

void TensorIterator::cast_outputs() {
  for (Operand& op : operands_) {
    if (op.is_output && op.original.defined()) copy_into(op.original, op.tensor());
  }
}

TensorIterator TensorIterator::nullary_op(TensorBase& out) {
  return TensorIteratorConfig().add_output(out).check_mem_overlap(false).build();
}

}  // namespace mt
