#pragma once
// TensorIterator: the one place pointwise kernels get broadcasting, type promotion, output allocation
// and strided iteration from (PyTorch's TensorIterator, in miniature). A kernel builds one from its
// outputs and inputs, then loops with for_each over 1-D runs of elements; backends differ only in the
// loop. Building works on Meta tensors too, so the same code gives Meta kernels their shapes and dtypes.
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>

#include "tensor/SmallVector.h"
#include "tensor/TensorBase.h"

namespace mt {

// The broadcast shape of two shapes, or PyTorch's "The size of tensor a (3) must match ..." error.
SmallVector<int64_t, 5> infer_size(IntArrayRef a, IntArrayRef b);
// Whether a value of type `from` can be written into a tensor of type `to` (no float -> int, no -> bool).
bool can_cast(ScalarType from, ScalarType to);
// PyTorch's "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and
// cpu!" unless `t` is on `expected`; the list form compares every tensor with the first.
void check_same_device(Device expected, const TensorBase& t);
void check_same_device(std::initializer_list<const TensorBase*> tensors);

class TensorIteratorConfig;

class TensorIterator {
 public:
  static constexpr int kMaxOperands = 4;
  // Processes `n` elements: data[i] points at operand i's first element (outputs first), strides[i]
  // is its step in bytes.
  using Loop = std::function<void(char** data, const int64_t* strides, int64_t n)>;

  // Writes one value to every element (fill_): an expanded `out` is allowed, as in PyTorch.
  static TensorIterator nullary_op(TensorBase& out);

  int ntensors() const { return static_cast<int>(operands_.size()); }
  int noutputs() const { return num_outputs_; }
  ScalarType common_dtype() const { return common_dtype_; }
  ScalarType dtype(int i) const { return operands_[i].tensor().dtype(); }
  Device device() const { return device_; }
  int64_t numel() const { return numel_; }
  const TensorBase& output(int i = 0) const {
    return operands_[i].original.defined() ? operands_[i].original : operands_[i].tensor();
  }
  const TensorBase& tensor(int i) const { return operands_[i].tensor(); }
  // True when every operand is contiguous over the whole shape with no broadcasting.
  bool is_contiguous() const;

  // Runs `loop` over all elements, splitting the range across threads when it is large, then writes
  // outputs that were computed in another dtype back into the tensors the caller gave.
  void for_each(const Loop& loop, int64_t grain = -1);
  void serial_for_each(const Loop& loop, int64_t begin, int64_t end) const;

  // For backends that launch their own loops (CUDA): the coalesced shape, innermost dim first, and
  // each operand's byte stride along it. Such a loop calls cast_outputs() when it is done.
  int ndim() const { return static_cast<int>(shape_.size()); }
  int64_t shape(int dim) const { return shape_[dim]; }
  int64_t stride(int dim, int operand) const { return strides_[dim * ntensors() + operand]; }
  void* data_ptr(int operand) const { return operands_[operand].tensor().data_ptr(); }
  // A 0-dim CPU input of an op on another device (a wrapped number, say): PyTorch lets such scalars
  // join GPU ops, whose loops read them once on the host.
  bool is_cpu_scalar(int operand) const;
  void cast_outputs();

  // An input of one element, broadcast to all.
  bool is_scalar(int operand) const;
  // That input's value as the caller gave it, before conversion to the common dtype: PyTorch computes
  // a 16-bit float times or over a scalar with the scalar in float (half(1000) * 1e-8 is 1.0014e-05,
  // where the scalar rounded to half first would give 0).
  template <typename T>
  T original_scalar_value(int operand) const {
    return operands_[operand].borrowed->item().to<T>();
  }
  // Drops an input, so a kernel that captured its value (see above) loops over the rest.
  void remove_operand(int operand);

 private:
  friend class TensorIteratorConfig;
  // Operands borrow the caller's tensors (which outlive the iterator) and own only what the iterator
  // made: allocated outputs and converted inputs. Borrowing saves two atomic refcount updates each.
  struct Operand {
    const TensorBase& tensor() const { return owned.defined() ? owned : *borrowed; }
    const TensorBase* borrowed = nullptr;  // every input's, even when converted into `owned`
    TensorBase owned;
    TensorBase original;  // an output the result is cast into after the loop (undefined when none)
    bool is_output = false;
  };
  // `order`: the dims of the broadcast shape, innermost first.
  void compute_strides_and_coalesce(IntArrayRef order);

  SmallVector<Operand, kMaxOperands> operands_;
  int num_outputs_ = 0;
  SmallVector<int64_t, 5> shape_;  // innermost dim first, after coalescing
  // strides_[d * ntensors() + i]: operand i's byte stride along dim d.
  SmallVector<int64_t, 5 * kMaxOperands> strides_;
  int64_t numel_ = 0;
  ScalarType common_dtype_ = ScalarType::Undefined;
  Device device_ = Device(kCPU);
};

// Borrows the tensors it is given: build it in one expression, or keep them alive until build().
class TensorIteratorConfig {
 public:
  TensorIteratorConfig& add_output(const TensorBase& out);
  TensorIteratorConfig& add_input(const TensorBase& in);
  // Inputs of other dtypes are converted to the common dtype before the loop.
  TensorIteratorConfig& promote_inputs_to_common_dtype(bool v);
  // An integral common dtype becomes the default float dtype.
  TensorIteratorConfig& promote_integer_inputs_to_float(bool v);
  // Allocated outputs get this dtype instead of the common one (comparisons: bool).
  TensorIteratorConfig& output_dtype(ScalarType t);
  // Every operand must already have the same dtype (no promotion at all).
  TensorIteratorConfig& check_all_same_dtype(bool v);
  // Defined outputs are written in their own dtype by the loop itself (copy converts as it goes).
  TensorIteratorConfig& keep_output_dtype(bool v);
  // Defined outputs take part in broadcasting and must already have the result's shape (in-place
  // ops, copy_), instead of being resized from empty (out= arguments).
  TensorIteratorConfig& resize_outputs(bool v);
  // Refuse outputs whose elements share memory with each other (an expanded tensor) or, at other
  // positions, with an input's (on by default).
  TensorIteratorConfig& check_mem_overlap(bool v);
  // The op's name, for error messages.
  TensorIteratorConfig& name(const char* n);
  TensorIterator build();

 private:
  // build()'s steps, in order. The common case (inputs of one shape and dtype, contiguous) takes the
  // first alone.
  bool try_fast_setup(TensorIterator& it) const;
  Device compute_device() const;
  SmallVector<int64_t, 5> compute_shape() const;
  ScalarType compute_common_dtype() const;
  // The order the loop walks the dims in (innermost first), and the strides of new outputs in that
  // order (none where it is row-major).
  struct Layout {
    SmallVector<int64_t, 6> order;
    bool row_major = true;
    SmallVector<int64_t, 6> out_strides;
  };
  Layout compute_layout(IntArrayRef shape) const;
  void add_outputs(TensorIterator& it, IntArrayRef shape, const Layout& layout) const;
  void add_inputs(TensorIterator& it) const;

  SmallVector<const TensorBase*, TensorIterator::kMaxOperands> outputs_, inputs_;
  bool promote_inputs_ = false;
  bool int_to_float_ = false;
  bool same_dtype_ = false;
  bool keep_output_dtype_ = false;
  bool resize_outputs_ = true;
  bool check_mem_overlap_ = true;
  std::optional<ScalarType> output_dtype_;
  const char* name_ = "operation";
};

}  // namespace mt
