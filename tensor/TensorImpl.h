#pragma once
// TensorImpl: the refcounted object behind a Tensor. Shape (sizes, strides, offset into a Storage),
// dtype, device, the DispatchKeySet the dispatcher reads, the version counter shared with views, and a
// slot for autograd metadata that stays empty until autograd needs it.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "dispatch/DispatchKeySet.h"
#include "tensor/Device.h"
#include "tensor/ScalarType.h"
#include "tensor/SizesAndStrides.h"
#include "tensor/Storage.h"
#include "tensor/intrusive_ptr.h"

namespace mt {

// Implemented by the autograd layer; the core only owns it.
struct AutogradMetaInterface {
  virtual ~AutogradMetaInterface() = default;
};

// Whether tensors made on this thread now are inference tensors (set by mt::InferenceMode).
bool is_inference_mode_enabled();
namespace detail {
void set_inference_mode_enabled(bool enabled);
}

// Wraps `dim` into [0, ndim) as Python indexing does; a 0-dim tensor accepts -1 and 0.
int64_t maybe_wrap_dim(int64_t dim, int64_t ndim);
// Row-major strides for `sizes` (a size-0 or size-1 dim gets the stride it would have at size 1).
void compute_contiguous_strides(IntArrayRef sizes, int64_t* strides_out);
// Product of sizes, checked against overflow, with sizes checked to be non-negative.
int64_t checked_numel(IntArrayRef sizes);

// The backend bit of a device type (the low half of its tensors' key sets).
BackendComponent backend_of(DeviceType t);

// The key set of a plain tensor on `device`: its backend, autograd and ADInplaceOrView unless it is an
// inference tensor, and the device's autocast key for floating dtypes.
DispatchKeySet compute_tensor_key_set(Device device, ScalarType dtype, bool inference);

class TensorImpl : public intrusive_ptr_target {
 public:
  // A tensor viewing `storage`; its key set is computed from device, dtype and inference mode.
  TensorImpl(intrusive_ptr<StorageImpl> storage, ScalarType dtype);
  // A tensor with an explicit key set (wrapper tensors of the functorch layers).
  TensorImpl(intrusive_ptr<StorageImpl> storage, ScalarType dtype, DispatchKeySet key_set);
  ~TensorImpl() override;

  // A tensor over `base`'s storage (geometry still to set): an inference tensor exactly when `base` is
  // one, whatever the current mode, since a view shares its base's version counter.
  static intrusive_ptr<TensorImpl> view_of(const TensorImpl& base);
  // A new contiguous tensor with fresh, uninitialised memory. On CPU and Meta the TensorImpl, its
  // StorageImpl and the data share one allocation.
  static intrusive_ptr<TensorImpl> empty(IntArrayRef sizes, ScalarType dtype, Device device);
  // A new tensor with the given strides over fresh memory large enough for them.
  static intrusive_ptr<TensorImpl> empty_strided(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
                                                 Device device);

  IntArrayRef sizes() const { return sizes_and_strides_.sizes(); }
  IntArrayRef strides() const { return sizes_and_strides_.strides(); }
  int64_t dim() const { return static_cast<int64_t>(sizes_and_strides_.size()); }
  int64_t size(int64_t d) const { return sizes()[wrap_existing_dim(d)]; }
  int64_t stride(int64_t d) const { return strides()[wrap_existing_dim(d)]; }
  int64_t numel() const { return numel_; }
  int64_t storage_offset() const { return storage_offset_; }
  bool is_contiguous() const { return is_contiguous_; }
  ScalarType dtype() const { return dtype_; }
  size_t itemsize() const { return element_size(dtype_); }
  Device device() const { return storage_->device(); }
  DispatchKeySet key_set() const { return key_set_; }
  const intrusive_ptr<StorageImpl>& storage() const { return storage_; }

  // Address of the first element (nullptr on Meta).
  void* data() const {
    char* base = static_cast<char*>(storage_->data());
    return base ? base + storage_offset_ * static_cast<int64_t>(itemsize()) : nullptr;
  }

  void set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset);
  void set_sizes_contiguous(IntArrayRef sizes);
  void set_storage_offset(int64_t offset) { storage_offset_ = offset; }
  // Points the tensor at another storage (whose version counter it then shares), with this geometry:
  // a wrapper tensor whose value was replaced (functionalize).
  void set_storage_and_geometry(intrusive_ptr<StorageImpl> storage, IntArrayRef sizes, IntArrayRef strides,
                                int64_t storage_offset);
  // PyTorch's `tensor.data = src`: this tensor takes src's storage, geometry, dtype and device (and the
  // backend keys that go with them) and keeps its autograd identity: how Module::to moves parameters
  // that layers and optimizers already hold.
  void set_data(const TensorImpl& src);
  // The tensor whose memory holds this one's elements, for the host to read them (item(), printing):
  // itself, or for a wrapper whose geometry need not describe its memory (functionalize's), its
  // up-to-date value's. A wrapper whose memory is more than its elements (vmap's, a whole batch) raises.
  virtual const TensorImpl& data_holder() { return *this; }
  // How printing shows such a wrapper: a header such as "BatchedTensor(lvl=1, bdim=0" and the tensor it
  // wraps, printed beneath. Nothing for a tensor that prints its data_holder()'s elements.
  struct WrapperRepr {
    std::string header;
    intrusive_ptr<TensorImpl> value;
  };
  virtual std::optional<WrapperRepr> wrapper_repr() const { return std::nullopt; }
  // What a view shares with its base: the storage, or, for a wrapper whose storage changes with its
  // value (functionalize's), the group of tensors that alias each other.
  virtual const void* alias_group() const { return storage_.get(); }
  // Makes the tensor contiguous with `sizes`, moving to fresh (uninitialised) memory when the current
  // storage is too small (out= arguments that were empty).
  void resize_(IntArrayRef sizes);

  // A fake tensor (dispatch/modes/FakeTensorMode.h) has a shape, dtype and device but no data; it
  // carries the DispatchMode key so that every op on it reaches the mode, never a kernel.
  bool is_fake() const { return key_set_.has(DispatchKey::DispatchMode); }

  // Inference tensors have no version counter: they are never saved for backward.
  bool is_inference() const { return version_counter_ == nullptr; }
  uint32_t version() const;
  void bump_version();

  // A tensor made from a C++ number (e.g. the 2 in `a * 2`): it takes part in type promotion like a
  // Python scalar, not like a tensor.
  bool is_wrapped_number() const { return is_wrapped_number_; }
  void set_wrapped_number(bool w) { is_wrapped_number_ = w; }

  AutogradMetaInterface* autograd_meta() const { return autograd_meta_.get(); }
  void set_autograd_meta(std::unique_ptr<AutogradMetaInterface> meta) { autograd_meta_ = std::move(meta); }

  void set_key_set(DispatchKeySet ks) { key_set_ = ks; }

 protected:
  void release_resources_and_free() override;

 private:
  // Like maybe_wrap_dim, but a 0-dim tensor has no dim to read.
  int64_t wrap_existing_dim(int64_t d) const {
    MT_CHECK_INDEX(dim() > 0, "dimension specified as ", d, " but tensor has no dimensions");
    return maybe_wrap_dim(d, dim());
  }
  void refresh_numel_and_contiguity();

  SizesAndStrides sizes_and_strides_;
  int64_t storage_offset_ = 0;
  int64_t numel_ = 1;
  intrusive_ptr<StorageImpl> storage_;
  std::atomic<uint32_t>* version_counter_;
  std::unique_ptr<AutogradMetaInterface> autograd_meta_;
  detail::SharedBlock* block_ = nullptr;
  DispatchKeySet key_set_;
  ScalarType dtype_;
  bool is_contiguous_ = true;
  bool is_wrapped_number_ = false;
};

}  // namespace mt
