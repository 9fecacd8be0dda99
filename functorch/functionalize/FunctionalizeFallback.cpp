// The Functionalize fallback: one boxed kernel, driven by each op's schema, for every op that reaches
// functional tensors of the current functionalize level.
// - Composite ops decompose first; their parts come back here.
// - A mutable op (in-place or out=) is checked on meta tensors (so that it fails as it would in eager
//   mode), then its functional variant runs on the values and each written wrapper takes the result
//   (FunctionalTensorWrapper::commit), which every alias sees.
// - A view op records the view on a new wrapper sharing the parent's storage. Its value is the view of
//   the parent's value (remove=mutations) or a copy taken from the base (remove=mutations_and_views).
// - Any other op runs on the values; its results become new functional tensors.
#include <mutex>
#include <unordered_map>

#include "dispatch/Library.h"
#include "dispatch/MapTensors.h"
#include "dispatch/modes/FakeTensorMode.h"
#include "functorch/functionalize/FunctionalTensorWrapper.h"
#include "functorch/functionalize/FunctionalizeInterpreter.h"
#include "ops/api/clone.h"
#include "ops/api/take.h"

namespace mt::functorch {

namespace {

// --- arguments -------------------------------------------------------------------------------------

// Refuses functional tensors whose functionalize already returned, and says whether any argument is a
// functional tensor of `level`.
bool check_alive_and_find_level(const FunctionSchema& schema, IValue* args, size_t n, int64_t level) {
  bool found = false;
  for_each_tensor(args, n, [&](const Tensor& t) {
    const FunctionalTensorWrapper* w = maybe_get_functional(t);
    if (w == nullptr) return;
    MT_CHECK(w->is_alive(), "functionalize: ", schema.op.str(),
             " got a tensor of a functionalize() call that "
             "already returned (did it escape, e.g. through a captured variable?). Return it from the function "
             "instead.");
    found = found || w->level() == level;
  });
  return found;
}

// A functional tensor of `level` as its (up-to-date) value; any other tensor as it is.
Tensor unwrapped(const Tensor& t, int64_t level) {
  FunctionalTensorWrapper* w = functional_at_level(t, level);
  if (w == nullptr) return t;
  w->sync();
  return w->value();
}

void unwrap_args(Stack* stack, size_t n, int64_t level) {
  map_tensors(stack, n, [level](const Tensor& t) { return unwrapped(t, level); });
}

// --- mutations -------------------------------------------------------------------------------------

// The op that computes what a mutable op writes: same base name (without the in-place `_`), and the
// mutable op's arguments (less the out= ones) by name and type. Found once per op.
OperatorHandle functional_variant(const OperatorHandle& op) {
  static std::mutex mutex;
  static std::unordered_map<const FunctionSchema*, OperatorHandle> cache;  // schemas never move
  const FunctionSchema& schema = op.schema();
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = cache.find(&schema); it != cache.end()) return it->second;

  std::string name = schema.op.name;
  if (!name.empty() && name.back() == '_') name.pop_back();
  std::vector<const Argument*> inputs;
  for (const Argument& a : schema.arguments)
    if (!a.is_out()) inputs.push_back(&a);
  for (const OperatorName& candidate : Dispatcher::singleton().getAllOpNames()) {
    if (candidate.name != name || candidate == schema.op) continue;
    const std::optional<OperatorHandle> handle = Dispatcher::singleton().findSchema(candidate);
    if (!handle || handle->schema().is_mutable() || handle->schema().arguments.size() != inputs.size()) continue;
    bool same = true;
    for (size_t i = 0; i < inputs.size() && same; ++i) {
      const Argument& a = handle->schema().arguments[i];
      same = a.name == inputs[i]->name && a.type == inputs[i]->type;
    }
    if (same) return cache.emplace(&schema, *handle).first->second;
  }
  MT_CHECK_NOT_IMPLEMENTED(false, "functionalize: ", schema.op.str(),
                           " mutates its arguments and has no functional variant (", name,
                           " with the same arguments) to replace it with.");
  return op;
}

// Runs the mutable op on meta twins of its arguments (a functional tensor shows its eager geometry),
// so that what eager mode refuses (a result that broadcasts to a bigger shape than self, a dtype self
// cannot hold, ...) is refused here too.
void check_on_meta(const OperatorHandle& op, const IValue* args, size_t n) {
  if (!op.hasKernelForDispatchKey(DispatchKey::Meta) &&
      !op.hasKernelForDispatchKey(DispatchKey::CompositeExplicitAutograd))
    return;
  Stack meta;
  for (size_t i = 0; i < n; ++i) meta.push_back(map_tensors(args[i], meta_twin));
  op.redispatchBoxed(meta_kernel_keys, &meta);
}

void functionalize_mutation(const OperatorHandle& op, Stack* stack, int64_t level) {
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments.size();
  IValue* args = stack->data() + stack->size() - n;
  std::vector<size_t> written;
  for (size_t i = 0; i < n; ++i) {
    const Argument& a = schema.arguments[i];
    if (!a.alias || !a.alias->is_write) continue;
    MT_CHECK(args[i].isTensor() && functional_at_level(args[i].toTensorRef(), level) != nullptr,
             "mutating a non-functional tensor with a functional tensor is not allowed. Please ensure that all of "
             "your inputs are wrapped inside of a functionalize() call. (",
             schema.op.str(), ", argument '", a.name, "')");
    written.push_back(i);
  }
  std::vector<IValue> returns;
  for (const Argument& ret : schema.returns) returns.push_back(args[*schema.aliased_argument(ret)]);

  // detach_ changes autograd's record of self, which the autograd layer above has done; the data stays.
  if (schema.op.name != "detach_") {
    check_on_meta(op, args, n);
    const OperatorHandle functional = functional_variant(op);
    Stack call;
    for (const Argument& a : functional.schema().arguments) {
      size_t i = 0;
      while (schema.arguments[i].name != a.name) ++i;
      call.push_back(map_tensors(args[i], [level](const Tensor& t) { return unwrapped(t, level); }));
    }
    functional.callBoxed(call);
    // Every result is checked before any is committed, so that a refused op changes nothing.
    std::vector<Tensor> results;
    for (size_t k = 0; k < written.size(); ++k) {
      const FunctionalTensorWrapper* w = functional_at_level(args[written[k]].toTensorRef(), level);
      Tensor result = call[k].toTensor();
      if (result.dtype() != w->dtype()) result = result.to(w->dtype());
      if (result.sizes() != w->sizes()) {
        // Only an out= argument may be resized (eager mode resizes an empty one), and only a base.
        MT_CHECK(schema.arguments[written[k]].is_out(), "output with shape ", w->sizes(),
                 " doesn't match the broadcast shape ", result.sizes());
        MT_CHECK_NOT_IMPLEMENTED(!w->is_view(), "functionalize: ", schema.op.str(),
                                 " resized a view of another "
                                 "tensor (from ",
                                 w->sizes(), " to ", result.sizes(),
                                 "), which functionalize does "
                                 "not support");
      }
      results.push_back(std::move(result));
    }
    for (size_t k = 0; k < written.size(); ++k) {
      FunctionalTensorWrapper* w = functional_at_level(args[written[k]].toTensorRef(), level);
      if (results[k].sizes() == w->sizes()) {
        w->commit(std::move(results[k]));
      } else {
        w->replace_storage(std::move(results[k]));
      }
    }
  }
  stack->erase(stack->end() - n, stack->end());
  for (IValue& r : returns) stack->push_back(std::move(r));
}

// --- views -----------------------------------------------------------------------------------------

void functionalize_view(const OperatorHandle& op, Stack* stack, const FunctionalizeInterpreter& interpreter) {
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments.size();
  const int64_t level = interpreter.level();
  IValue* args = stack->data() + stack->size() - n;
  MT_CHECK_NOT_IMPLEMENTED(schema.returns[0].type.kind == TypeKind::Tensor && !schema.returns[0].type.is_list &&
                               schema.aliased_argument(schema.returns[0]) == 0,
                           "functionalize: the view op ", schema.op.str(),
                           " returns something other than one view "
                           "of its first argument, which functionalize does not support");
  const Tensor self = args[0].toTensor();
  FunctionalTensorWrapper* parent = functional_at_level(self, level);
  MT_CHECK_NOT_IMPLEMENTED(parent != nullptr, "functionalize: ", schema.op.str(),
                           " views a tensor that is not a "
                           "functional tensor of this functionalize() while other arguments are");
  ViewStep step{op, {}};
  step.args.push_back(IValue());
  for (size_t i = 1; i < n; ++i) step.args.push_back(args[i]);
  Tensor positions = replay_view(step, parent->positions(), /*backend_only=*/true);

  // contiguous is a view only when self already is contiguous: in eager mode (its positions are, not
  // the replayed ones, which contiguous made so) and as stored (its value is).
  parent->sync();
  if (schema.op.name == "contiguous") {
    if (parent->positions().is_contiguous() && parent->value().is_contiguous()) {
      stack->erase(stack->end() - n, stack->end());
      stack->push_back(IValue(self));
    } else if (parent->value().is_contiguous()) {
      // Eager mode copies; contiguous of the value would alias it.
      const Tensor copy = mt::clone(parent->value());
      stack->erase(stack->end() - n, stack->end());
      stack->push_back(IValue(copy));
      interpreter.wrap_results(stack, 1);
    } else {
      unwrap_args(stack, n, level);
      op.callBoxed(stack);
      interpreter.wrap_results(stack, 1);
    }
    return;
  }
  Tensor value =
      interpreter.reapply_views() ? replay_view(step, parent->value()) : mt::take(parent->storage()->base, positions);
  stack->erase(stack->end() - n, stack->end());
  stack->push_back(IValue(Tensor(
      make_intrusive<FunctionalTensorWrapper>(*parent, std::move(value), std::move(step), std::move(positions)))));
}

bool is_view_op(const FunctionSchema& schema) {
  return schema.returns.size() == 1 && schema.returns[0].alias && !schema.returns[0].alias->is_write;
}

// --- the fallback ----------------------------------------------------------------------------------

void functionalize_fallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments.size();
  IValue* args = stack->data() + stack->size() - n;
  Interpreter* top = current_interpreter();
  const int64_t level = top != nullptr && top->type() == TransformType::Functionalize ? top->level() : -1;
  // Functional tensors of an outer level: theirs is the next interpreter.
  if (!check_alive_and_find_level(schema, args, n, level)) return op.redispatchBoxed(ks & after_func_keyset, stack);
  const auto& interpreter = static_cast<const FunctionalizeInterpreter&>(*top);
  // unbind and split return several views and are CompositeExplicitAutograd (for autograd's sake) but
  // compositions of views all the same: they decompose like the CompositeImplicitAutograd ops.
  const bool composite_views = !schema.returns.empty() && schema.returns[0].type.is_list && schema.returns[0].alias &&
                               op.hasKernelForDispatchKey(DispatchKey::CompositeExplicitAutograd);
  if (composite_views || op.hasKernelForDispatchKey(DispatchKey::CompositeImplicitAutograd)) {
    op.redispatchBoxed(DispatchKeySet(), stack);  // the Undefined slot holds the math (or explicit) kernel
    return;
  }
  if (schema.is_mutable()) return functionalize_mutation(op, stack, level);
  if (is_view_op(schema)) return functionalize_view(op, stack, interpreter);
  unwrap_args(stack, n, level);
  op.callBoxed(stack);
  interpreter.wrap_results(stack, schema.returns.size());
}

}  // namespace

MT_LIBRARY_IMPL(_, Functionalize, m) { m.fallback(CppFunction::makeFromBoxedFunction<&functionalize_fallback>()); }

}  // namespace mt::functorch
