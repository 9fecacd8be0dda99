// The interpreter stack and the two fallbacks that drive it (see Interpreter.h).
#include "functorch/Interpreter.h"

#include <vector>

#include "dispatch/Library.h"
#include "functorch/TensorWrapper.h"

namespace mt::functorch {

namespace {

thread_local std::vector<std::unique_ptr<Interpreter>> interpreter_stack;

// Every functionality key from Back (exclusive) up to Front (inclusive), without the autocast keys
// (autocast is not a transform: it stays as the user set it).
constexpr DispatchKeySet functionalities_only(DispatchKeySet ks) {
  return DispatchKeySet(DispatchKeySet::RAW, ks.raw_repr() & ~DispatchKeySet::full_backend_mask);
}
constexpr DispatchKeySet dynamic_layer_keys =
    functionalities_only(DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::FuncTorchDynamicLayerFrontMode) -
                         DispatchKeySet(DispatchKeySet::FULL_AFTER, DispatchKey::FuncTorchDynamicLayerBackMode))
        .remove(DispatchKey::FuncTorchDynamicLayerBackMode)
        .add(DispatchKey::FuncTorchDynamicLayerFrontMode) -
    autocast_dispatch_keyset;

void set_front_back_included(bool included) {
  LocalDispatchKeySet tls = tls_local_dispatch_key_set();
  tls.included_ = included ? tls.included_ | front_back_keys : tls.included_ - front_back_keys;
  tls_set_local_dispatch_key_set(tls);
}

}  // namespace

// Records the TLS in the interpreter for its Back fallback, and restores both on exit. Restoring the
// interpreter's previous record keeps a re-entered interpreter's outer call intact.
class SaveTlsGuard {
 public:
  explicit SaveTlsGuard(Interpreter& interpreter)
      : interpreter_(interpreter), previous_(interpreter.saved_tls_), tls_(tls_local_dispatch_key_set()) {
    interpreter_.saved_tls_ = tls_;
  }
  ~SaveTlsGuard() {
    tls_set_local_dispatch_key_set(tls_);
    interpreter_.saved_tls_ = previous_;
  }
  SaveTlsGuard(const SaveTlsGuard&) = delete;
  SaveTlsGuard& operator=(const SaveTlsGuard&) = delete;

 private:
  Interpreter& interpreter_;
  LocalDispatchKeySet previous_;
  LocalDispatchKeySet tls_;
};

void Interpreter::enable_only(DispatchKeySet own_keys) {
  LocalDispatchKeySet tls = tls_local_dispatch_key_set();
  tls.excluded_ = (tls.excluded_ | dynamic_layer_keys) - own_keys;
  tls_set_local_dispatch_key_set(tls);
}

Interpreter* current_interpreter() {
  return interpreter_stack.empty() ? nullptr : interpreter_stack.back().get();
}

int64_t interpreter_stack_depth() { return static_cast<int64_t>(interpreter_stack.size()); }

InterpreterGuard::InterpreterGuard(std::unique_ptr<Interpreter> interpreter) : interpreter_(interpreter.get()) {
  MT_INTERNAL_ASSERT(interpreter->level() == interpreter_stack_depth() + 1, "a transform's level is its depth");
  if (interpreter_stack.empty()) set_front_back_included(true);
  interpreter_stack.push_back(std::move(interpreter));
}

InterpreterGuard::~InterpreterGuard() {
  MT_INTERNAL_ASSERT(!interpreter_stack.empty() && interpreter_stack.back().get() == interpreter_);
  interpreter_stack.pop_back();
  if (interpreter_stack.empty()) set_front_back_included(false);
}

namespace {

// Front: the innermost transform processes the op.
void dynamic_layer_front(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  Interpreter* top = current_interpreter();
  MT_INTERNAL_ASSERT(top != nullptr, "the Front key is included only while a transform is active");
  // A grad wrapper whose transform returned acts as its value.
  if (ks.has(DispatchKey::FuncTorchGradWrapper)) unwrap_dead_wrappers(stack, op.schema().arguments.size());
  SaveTlsGuard guard(*top);
  top->process(op, stack);
}

// Back: pop the transform that processed the op (for the duration of the call), restore the TLS it
// found, and let the next-outer transform, or the layers below, have the op.
void dynamic_layer_back(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  MT_INTERNAL_ASSERT(!interpreter_stack.empty(), "the Back key is included only while a transform is active");
  std::unique_ptr<Interpreter> top = std::move(interpreter_stack.back());
  interpreter_stack.pop_back();
  struct PushBack {
    std::unique_ptr<Interpreter>& top;
    ~PushBack() { interpreter_stack.push_back(std::move(top)); }
  } push_back{top};
  LocalDispatchKeySet tls = top->saved_tls();
  if (interpreter_stack.empty()) tls.included_ = tls.included_ - front_back_keys;
  ForceDispatchKeyGuard restore(tls);
  top->send_to_next(op, stack);
}

}  // namespace

MT_LIBRARY_IMPL(_, FuncTorchDynamicLayerFrontMode, m) {
  m.fallback(CppFunction::makeFromBoxedFunction<&dynamic_layer_front>());
}
MT_LIBRARY_IMPL(_, FuncTorchDynamicLayerBackMode, m) {
  m.fallback(CppFunction::makeFromBoxedFunction<&dynamic_layer_back>());
}

}  // namespace mt::functorch
