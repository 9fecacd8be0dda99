#include "autograd/InplaceOrView.h"

#include <optional>

#include "autograd/AutogradMeta.h"
#include "autograd/GradMode.h"
#include "autograd/InferenceMode.h"
#include "dispatch/Dispatcher.h"
#include "tensor/SmallVector.h"

namespace mt::autograd {

namespace {

using Written = SmallVector<Tensor, 2>;

// Checked before the op runs, so that a refused update leaves the tensor as it was. (Recording the write
// is the autograd layer's job: a formula, or the not-implemented fallback of Fallbacks.cpp.) A view whose
// history cannot be rebased is refused here when only an operand requires grad: the autograd kernel's
// check_inplace looks at self alone.
void check_writes(const Written& written, const IValue* args, size_t n_args) {
  for (const Tensor& t : written) {
    MT_CHECK(!t.unsafeGetTensorImpl()->is_inference() || InferenceMode::is_enabled(),
             "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to get "
             "a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more "
             "details.");
    const AutogradMeta* meta = get_autograd_meta(t);
    if (!meta || !meta->view || meta->view->creation_meta == CreationMeta::DEFAULT || !GradMode::is_enabled()) continue;
    for (size_t i = 0; i < n_args; ++i) {
      if (args[i].isTensor() && requires_grad(args[i].toTensorRef())) handle_view_on_rebase(*meta, /*indirect=*/false);
    }
  }
}

void redispatch_below(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  ExcludeDispatchKeyGuard below(autograd_dispatch_keyset_with_ADInplaceOrView);
  op.redispatchBoxed(ks & after_ADInplaceOrView_keyset, stack);
}

// Runs the op below this layer, bumping the version counter of every tensor it wrote.
void run_and_bump(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const auto& args = op.schema().arguments;
  Written written;
  const IValue* first = stack->data() + stack->size() - args.size();
  for (size_t i = 0; i < args.size(); ++i) {
    const auto& alias = args[i].alias;
    if (alias && alias->is_write && first[i].isTensor()) written.push_back(first[i].toTensor());
  }
  check_writes(written, first, args.size());
  redispatch_below(op, ks, stack);
  for (const Tensor& t : written) {
    if (!t.unsafeGetTensorImpl()->is_inference()) t.unsafeGetTensorImpl()->bump_version();
  }
}

// An output of a view op remembers its base, unless the op returned self itself (contiguous of a
// contiguous tensor) or new memory, or it is an inference tensor (which autograd never sees). Memory is
// compared by alias group: a functional tensor's storage follows its value, its alias group does not.
void record_view(const Tensor& self, const Tensor& out, CreationMeta creation_meta) {
  if (!out.is_same(self) && !out.is_inference() &&
      out.unsafeGetTensorImpl()->alias_group() == self.unsafeGetTensorImpl()->alias_group()) {
    as_view(self, out, creation_meta);
  }
}

// The views of self an op returned (its first return: one tensor or a list of them).
void record_views(const Tensor& self, const IValue& out) {
  if (out.isTensorList()) {
    const CreationMeta creation_meta = creation_meta_for_new_view(/*multi_output=*/true);
    for (const Tensor& t : out.toTensorList()) record_view(self, t, creation_meta);
  } else {
    record_view(self, out.toTensorRef(), creation_meta_for_new_view(/*multi_output=*/false));
  }
}

void view_after_redispatch(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const Tensor self = (*stack)[stack->size() - schema.arguments.size()].toTensor();
  redispatch_below(op, ks, stack);
  record_views(self, (*stack)[stack->size() - schema.returns.size()]);
}

// The only argument and the only return a schema marks as aliased without writing (Tensor(a)), if any.
std::optional<size_t> single_read_alias(const std::vector<Argument>& args, const char* what, const char* with) {
  std::optional<size_t> found;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].alias || args[i].alias->is_write) continue;
    MT_CHECK(!found, "Fallback ADInplaceOrView kernel expects only a single ", what,
             " in the operator schema to have a non-write alias annotation (i.e., 'Tensor(a)'). Non-composite "
             "functions where multiple ",
             what, "s are aliased with ", with, " aren't supported.", std::string_view(what) == "input" ? " " : "",
             "Please rewrite your function as a composite function.");
    found = i;
  }
  return found;
}

// PyTorch's autogradNotImplementedInplaceOrViewFallback: what the generated kernels do, read off the
// schema, for an operator that has none. Checked before the op runs.
void not_implemented_inplace_or_view(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const std::optional<size_t> output = single_read_alias(schema.returns, "output", "inputs");
  const std::optional<size_t> input = single_read_alias(schema.arguments, "input", "outputs");
  MT_CHECK((!input && !output) || (input == 0 && output == 0),
           "Fallback ADInplaceOrView kernel can only create view relationships between the first input and the "
           "first output (the output can be a vector of tensors). Please change the order of your operator's "
           "parameters so that this is the case.");
  const IValue& first = (*stack)[stack->size() - schema.arguments.size()];
  MT_CHECK(!input || first.isTensor(), "Fallback ADInplaceOrView kernel: the aliased input of ", schema.op.str(),
           " must be a Tensor, got ", schema.arguments[0].type.str(), ".");
  const Tensor self = input ? first.toTensor() : Tensor();
  run_and_bump(op, ks, stack);
  if (input) record_views(self, (*stack)[stack->size() - schema.returns.size()]);
}

}  // namespace

CppFunction track_view_bases() { return CppFunction::makeFromBoxedFunction<&view_after_redispatch>(); }

CppFunction bump_versions_of_written_tensors() { return CppFunction::makeFromBoxedFunction<&run_and_bump>(); }

CppFunction autogradNotImplementedInplaceOrViewFallback() {
  return CppFunction::makeFromBoxedFunction<&not_implemented_inplace_or_view>();
}

}  // namespace mt::autograd
