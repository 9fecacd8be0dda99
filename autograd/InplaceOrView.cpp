#include "autograd/InplaceOrView.h"

#include "autograd/AutogradMeta.h"
#include "autograd/InferenceMode.h"
#include "dispatch/Dispatcher.h"
#include "tensor/SmallVector.h"

namespace mt::autograd {

namespace {

void bump_after_redispatch(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const auto& args = op.schema().arguments;
  SmallVector<Tensor, 2> written;
  const IValue* first = stack->data() + stack->size() - args.size();
  for (size_t i = 0; i < args.size(); ++i) {
    const auto& alias = args[i].alias;
    if (alias && alias->is_write && first[i].isTensor()) written.push_back(first[i].toTensor());
  }
  // Checked before the op runs, so that a refused update leaves the tensor as it was. (Recording the
  // write is the autograd layer's job: a formula, or the not-implemented fallback of Fallbacks.cpp.)
  for (const Tensor& t : written) {
    MT_CHECK(!t.unsafeGetTensorImpl()->is_inference() || InferenceMode::is_enabled(),
             "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get "
             "a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more "
             "details.");
  }
  {
    ExcludeDispatchKeyGuard below(autograd_dispatch_keyset_with_ADInplaceOrView);
    op.redispatchBoxed(ks & after_ADInplaceOrView_keyset, stack);
  }
  for (const Tensor& t : written) {
    if (!t.unsafeGetTensorImpl()->is_inference()) t.unsafeGetTensorImpl()->bump_version();
  }
}

// The output of a view op remembers its base, unless the op returned self itself (contiguous of a
// contiguous tensor) or new memory, or it is an inference tensor (which autograd never sees). Memory is
// compared by alias group: a functional tensor's storage follows its value, its alias group does not.
void view_after_redispatch(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const Tensor self = (*stack)[stack->size() - op.schema().arguments.size()].toTensor();
  {
    ExcludeDispatchKeyGuard below(autograd_dispatch_keyset_with_ADInplaceOrView);
    op.redispatchBoxed(ks & after_ADInplaceOrView_keyset, stack);
  }
  const Tensor& out = stack->back().toTensor();
  if (!out.is_same(self) && !out.is_inference() &&
      out.unsafeGetTensorImpl()->alias_group() == self.unsafeGetTensorImpl()->alias_group()) {
    as_view(self, out);
  }
}

}  // namespace

CppFunction track_view_bases() { return CppFunction::makeFromBoxedFunction<&view_after_redispatch>(); }

CppFunction bump_versions_of_written_tensors() { return CppFunction::makeFromBoxedFunction<&bump_after_redispatch>(); }

}  // namespace mt::autograd
