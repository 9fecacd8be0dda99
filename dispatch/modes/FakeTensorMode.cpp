#include "dispatch/modes/FakeTensorMode.h"

#include <optional>
#include <vector>

#include "dispatch/MapTensors.h"

namespace mt {

namespace {

// A fake tensor with `meta`'s geometry on `device`, over `storage` (a view's base's) or a new empty one.
Tensor fake_like(const Tensor& meta, Device device, intrusive_ptr<StorageImpl> storage) {
  if (!storage) storage = make_intrusive<StorageImpl>(DataPtr(nullptr, nullptr, nullptr, device), 0, nullptr);
  const DispatchKeySet ks =
      compute_tensor_key_set(device, meta.dtype(), is_inference_mode_enabled()).add(DispatchKey::DispatchMode);
  auto impl = make_intrusive<TensorImpl>(std::move(storage), meta.dtype(), ks);
  impl->set_sizes_and_strides(meta.sizes(), meta.strides(), meta.storage_offset());
  return Tensor(std::move(impl));
}

}  // namespace

Tensor meta_twin(const Tensor& t) {
  if (t.is_meta()) return t;
  Tensor meta(TensorImpl::empty_strided(t.sizes(), t.strides(), t.dtype(), Device(kMeta)));
  meta.unsafeGetTensorImpl()->set_storage_offset(t.storage_offset());
  meta.unsafeGetTensorImpl()->set_wrapped_number(t.unsafeGetTensorImpl()->is_wrapped_number());
  return meta;
}

Tensor FakeTensorMode::from_tensor(const Tensor& real) { return fake_like(meta_twin(real), real.device(), {}); }

void FakeTensorMode::dispatch(const OperatorHandle& op, DispatchKeySet, Stack& stack) {
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments.size();
  IValue* args = stack.data() + stack.size() - n;
  const std::vector<IValue> originals(args, args + n);
  std::optional<Device> device;
  for (size_t i = 0; i < n; ++i) {
    const Argument& a = schema.arguments[i];
    if (args[i].isTensor()) {
      const Tensor& t = args[i].toTensorRef();
      MT_CHECK(!(a.alias && a.alias->is_write) || is_fake(t) || t.is_meta(), "FakeTensorMode: ", schema.op.str(),
               " would write into the real tensor passed as '", a.name,
               "'. Under FakeTensorMode only fake tensors "
               "(made under the mode, or with FakeTensorMode::from_tensor) can be written.");
      if (!device) device = t.device();
      args[i] = IValue(meta_twin(t));
    } else if (args[i].isTensorList()) {
      std::vector<Tensor> twins;
      for (const Tensor& t : args[i].toTensorList()) {
        if (!device) device = t.device();
        twins.push_back(meta_twin(t));
      }
      args[i] = IValue(std::move(twins));
    } else if (a.name == "device" && a.type.kind == TypeKind::Device) {
      // A factory: the requested device (or the CPU) is the one the result reports.
      device = args[i].isNone() ? Device(kCPU) : args[i].toDevice();
      args[i] = IValue(Device(kMeta));
    }
  }
  op.redispatchBoxed(meta_kernel_keys, &stack);

  const Device out_device = device.value_or(Device(kCPU));
  IValue* results = stack.data() + stack.size() - schema.returns.size();
  for (size_t r = 0; r < schema.returns.size(); ++r) {
    const Argument& ret = schema.returns[r];
    const std::optional<size_t> source = schema.aliased_argument(ret);
    const bool source_is_tensor = source && originals[*source].isTensor();
    if (ret.alias && ret.alias->is_write && source_is_tensor) {
      // In place or out=: the fake argument takes the result's geometry (an out= may be resized).
      const Tensor& meta = results[r].toTensorRef();
      originals[*source].toTensorRef().unsafeGetTensorImpl()->set_sizes_and_strides(meta.sizes(), meta.strides(),
                                                                                    meta.storage_offset());
      results[r] = originals[*source];
      continue;
    }
    // A view shares its base's (empty) storage, as autograd's view tracking expects.
    intrusive_ptr<StorageImpl> storage;
    if (source_is_tensor) storage = originals[*source].toTensorRef().unsafeGetTensorImpl()->storage();
    results[r] = map_tensors(results[r], [&](const Tensor& t) { return fake_like(t, out_device, storage); });
  }
}

}  // namespace mt
