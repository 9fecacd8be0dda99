#include "tensor/TensorImpl.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#include "tensor/CPUAllocator.h"
#include "tensor/Error.h"

namespace mt {

namespace {
thread_local bool tls_inference_mode = false;

constexpr size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

size_t checked_nbytes(int64_t numel, ScalarType dtype, IntArrayRef sizes) {
  size_t nbytes = 0;
  MT_CHECK_VALUE(!__builtin_mul_overflow(static_cast<size_t>(numel), element_size(dtype), &nbytes) &&
                     nbytes <= (size_t(1) << 62),
                 "Storage size calculation overflowed with sizes=", sizes, " and dtype ", dtype);
  return nbytes;
}
}  // namespace

BackendComponent backend_of(DeviceType t) {
  switch (t) {
    case kCPU:
      return BackendComponent::CPUBit;
    case kCUDA:
      return BackendComponent::CUDABit;
    case kMeta:
      return BackendComponent::MetaBit;
    case kPrivateUse1:
      return BackendComponent::PrivateUse1Bit;
  }
  return BackendComponent::InvalidBit;
}

bool is_inference_mode_enabled() { return tls_inference_mode; }
void detail::set_inference_mode_enabled(bool enabled) { tls_inference_mode = enabled; }

int64_t maybe_wrap_dim(int64_t dim, int64_t ndim) {
  const int64_t n = ndim == 0 ? 1 : ndim;
  MT_CHECK_INDEX(dim >= -n && dim < n, "Dimension out of range (expected to be in range of [", -n, ", ", n - 1,
                 "], but got ", dim, ")");
  return dim < 0 ? dim + n : dim;
}

void compute_contiguous_strides(IntArrayRef sizes, int64_t* strides_out) {
  int64_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides_out[i] = stride;
    stride *= sizes[i] > 1 ? sizes[i] : 1;
  }
}

int64_t checked_numel(IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    MT_CHECK_VALUE(s >= 0, "Trying to create tensor with negative dimension ", s, ": ", sizes);
    MT_CHECK_VALUE(!__builtin_mul_overflow(n, s, &n), "numel: integer multiplication overflow for sizes ", sizes);
  }
  return n;
}

DispatchKeySet compute_tensor_key_set(Device device, ScalarType dtype, bool inference) {
  const BackendComponent b = backend_of(device.type());
  DispatchKeySet ks = DispatchKeySet(DispatchKey::Dense) | DispatchKeySet(b);
  if (!inference) ks = ks | DispatchKeySet({DispatchKey::ADInplaceOrView, DispatchKey::AutogradFunctionality});
  if (is_floating_point(dtype)) {
    if (device.is_cpu()) ks = ks.add(DispatchKey::AutocastCPU);
    if (device.is_cuda()) ks = ks.add(DispatchKey::AutocastCUDA);
  }
  return ks;
}

TensorImpl::TensorImpl(intrusive_ptr<StorageImpl> storage, ScalarType dtype)
    : TensorImpl(std::move(storage), dtype, DispatchKeySet()) {
  key_set_ = compute_tensor_key_set(device(), dtype, tls_inference_mode);
}

TensorImpl::TensorImpl(intrusive_ptr<StorageImpl> storage, ScalarType dtype, DispatchKeySet key_set)
    : storage_(std::move(storage)),
      version_counter_(tls_inference_mode ? nullptr : &storage_->version_counter()),
      key_set_(key_set),
      dtype_(dtype) {}

TensorImpl::~TensorImpl() = default;

intrusive_ptr<TensorImpl> TensorImpl::view_of(const TensorImpl& base) {
  const bool inference = base.is_inference();
  auto impl = make_intrusive<TensorImpl>(base.storage_, base.dtype_,
                                         compute_tensor_key_set(base.device(), base.dtype_, inference));
  impl->version_counter_ = base.version_counter_;
  return impl;
}

void TensorImpl::release_resources_and_free() {
  if (!block_) {
    delete this;
    return;
  }
  detail::SharedBlock* block = block_;
  this->~TensorImpl();
  block->release();
}

intrusive_ptr<TensorImpl> TensorImpl::empty(IntArrayRef sizes, ScalarType dtype, Device device) {
  MT_CHECK_TYPE(dtype != ScalarType::Undefined, "empty: expected a defined dtype");
  const int64_t numel = checked_numel(sizes);
  const size_t nbytes = checked_nbytes(numel, dtype, sizes);
  Allocator* allocator = get_allocator(device.type());
  // Large blocks come from the allocator's cache instead.
  const bool inline_data = allocator == get_default_cpu_allocator() && nbytes < kCPULargeBlock;
  if (!inline_data && !device.is_meta()) {
    auto storage = make_intrusive<StorageImpl>(allocator->allocate(nbytes), nbytes, allocator);
    auto impl = make_intrusive<TensorImpl>(std::move(storage), dtype);
    impl->set_sizes_contiguous(sizes);
    return impl;
  }

  constexpr size_t impl_offset = round_up(sizeof(detail::SharedBlock), alignof(TensorImpl));
  constexpr size_t storage_offset = round_up(impl_offset + sizeof(TensorImpl), alignof(StorageImpl));
  constexpr size_t header = storage_offset + sizeof(StorageImpl);
  // Plain malloc (16-byte aligned) is much cheaper than an aligned allocation; the data is aligned to
  // kCPUAlignment inside the block instead.
  const size_t total = header + (inline_data && nbytes > 0 ? nbytes + kCPUAlignment : 0);
  void* raw = std::malloc(total);
  MT_CHECK(raw != nullptr, "DefaultCPUAllocator: not enough memory: you tried to allocate ", nbytes, " bytes.");
  char* base = static_cast<char*>(raw);
  auto* block = new (base) detail::SharedBlock();
  void* data = nullptr;
  if (inline_data && nbytes > 0) {
    const auto addr = reinterpret_cast<uintptr_t>(base + header);
    data = base + header + (round_up(addr, kCPUAlignment) - addr);
  }
  auto* storage = new (base + storage_offset)
      StorageImpl(DataPtr(data, nullptr, nullptr, Device(device.type())), nbytes, allocator, block);
  auto* impl = new (base + impl_offset) TensorImpl(intrusive_ptr<StorageImpl>(storage), dtype);
  impl->block_ = block;
  impl->set_sizes_contiguous(sizes);
  return intrusive_ptr<TensorImpl>(impl);
}

intrusive_ptr<TensorImpl> TensorImpl::empty_strided(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
                                                    Device device) {
  MT_CHECK_VALUE(sizes.size() == strides.size(), "empty_strided: mismatch in length of strides and shape: sizes ",
                 sizes, " but strides ", strides);
  int64_t extent = checked_numel(sizes) == 0 ? 0 : 1;
  for (size_t i = 0; i < sizes.size() && extent > 0; ++i) {
    MT_CHECK_VALUE(strides[i] >= 0, "empty_strided: negative strides are not supported, got strides ", strides);
    extent += (sizes[i] - 1) * strides[i];
  }
  auto impl = empty({extent}, dtype, device);
  impl->set_sizes_and_strides(sizes, strides, 0);
  return impl;
}

void TensorImpl::set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset) {
  MT_INTERNAL_ASSERT(sizes.size() == strides.size());
  sizes_and_strides_.set(sizes, strides);
  storage_offset_ = storage_offset;
  refresh_numel_and_contiguity();
}

void TensorImpl::set_sizes_contiguous(IntArrayRef sizes) {
  sizes_and_strides_.resize(sizes.size());
  std::copy(sizes.begin(), sizes.end(), sizes_and_strides_.sizes_data());
  compute_contiguous_strides(sizes, sizes_and_strides_.strides_data());
  numel_ = checked_numel(sizes);
  is_contiguous_ = true;
}

void TensorImpl::resize_(IntArrayRef sizes) {
  const int64_t numel = checked_numel(sizes);
  const size_t needed = checked_nbytes(storage_offset_ + numel, dtype_, sizes);
  if (needed > storage_->nbytes()) {
    Allocator* allocator = get_allocator(device().type());
    auto storage = make_intrusive<StorageImpl>(allocator->allocate(needed), needed, allocator);
    if (version_counter_) {
      storage->version_counter().store(version_counter_->load());
      version_counter_ = &storage->version_counter();
    }
    storage_ = std::move(storage);
  }
  set_sizes_contiguous(sizes);
}

void TensorImpl::set_storage_and_geometry(intrusive_ptr<StorageImpl> storage, IntArrayRef sizes, IntArrayRef strides,
                                          int64_t storage_offset) {
  storage_ = std::move(storage);
  if (version_counter_) version_counter_ = &storage_->version_counter();
  set_sizes_and_strides(sizes, strides, storage_offset);
}

void TensorImpl::set_data(const TensorImpl& src) {
  const bool inference = !key_set_.has(DispatchKey::AutogradFunctionality);
  dtype_ = src.dtype_;
  set_storage_and_geometry(src.storage_, src.sizes(), src.strides(), src.storage_offset());
  key_set_ = compute_tensor_key_set(device(), dtype_, inference);
}

void TensorImpl::refresh_numel_and_contiguity() {
  numel_ = checked_numel(sizes());
  // Contiguous means row-major up to dims of size 1, whose stride does not matter.
  is_contiguous_ = true;
  if (numel_ == 0) return;
  int64_t expected = 1;
  for (int64_t i = dim() - 1; i >= 0; --i) {
    const int64_t s = sizes()[i];
    if (s == 1) continue;
    if (strides()[i] != expected) {
      is_contiguous_ = false;
      return;
    }
    expected *= s;
  }
}

uint32_t TensorImpl::version() const {
  MT_CHECK(version_counter_ != nullptr, "Inference tensors do not track version counter.");
  return version_counter_->load(std::memory_order_relaxed);
}

void TensorImpl::bump_version() {
  MT_CHECK(version_counter_ != nullptr, "Inference tensors do not track version counter.");
  version_counter_->fetch_add(1, std::memory_order_relaxed);
}

}  // namespace mt
