#pragma once
// The functorch interpreter stack. Every active transform (vmap now; grad, jvp and functionalize
// later) is an Interpreter on a thread-local stack; its level is its 1-based depth. The
// FuncTorchDynamicLayerFrontMode fallback hands each op to the innermost interpreter (`process`),
// which enables only its own keys between Front and Back; the FuncTorchDynamicLayerBackMode fallback
// pops that interpreter and calls the op again from the top (`send_to_next`), so the next-outer
// transform sees it. Transforms therefore nest in whatever order the user wrote, not in key order.
#include <cstdint>
#include <memory>

#include "dispatch/Dispatcher.h"
#include "dispatch/LocalDispatchKeySet.h"

namespace mt::functorch {

enum class TransformType { Vmap, Grad, Jvp, Functionalize };

class Interpreter {
 public:
  Interpreter(TransformType type, int64_t level) : type_(type), level_(level) {}
  virtual ~Interpreter() = default;
  Interpreter(const Interpreter&) = delete;
  Interpreter& operator=(const Interpreter&) = delete;

  TransformType type() const { return type_; }
  int64_t level() const { return level_; }

  // Runs `op` under this transform: enable only this transform's keys, then call the op.
  virtual void process(const OperatorHandle& op, Stack* stack) = 0;
  // Passes `op` on to the next-outer transform (or the layers below); this interpreter is already
  // popped and the TLS restored to what it was when Front handed it the op.
  virtual void send_to_next(const OperatorHandle& op, Stack* stack) = 0;

  // The TLS as it was when the Front fallback handed this interpreter its current op.
  const LocalDispatchKeySet& saved_tls() const { return saved_tls_; }

 protected:
  // Sets the TLS so that, of the keys between Front and Back, only `own_keys` are live (Back stays
  // live to catch the ops this transform calls). The Front fallback restores the TLS afterwards.
  static void enable_only(DispatchKeySet own_keys);

 private:
  friend class SaveTlsGuard;
  TransformType type_;
  int64_t level_;
  LocalDispatchKeySet saved_tls_{};
};

// The innermost interpreter, or nullptr when no transform is active.
Interpreter* current_interpreter();
// The number of active transforms (the level the next one will get, minus one).
int64_t interpreter_stack_depth();

// Pushes a transform for the guard's lifetime. The first push puts the Front and Back keys into the
// TLS included set and the last pop takes them out, so with no transform active they cost nothing.
class InterpreterGuard {
 public:
  explicit InterpreterGuard(std::unique_ptr<Interpreter> interpreter);
  ~InterpreterGuard();
  InterpreterGuard(const InterpreterGuard&) = delete;
  InterpreterGuard& operator=(const InterpreterGuard&) = delete;
  Interpreter& interpreter() const { return *interpreter_; }

 private:
  Interpreter* interpreter_;
};

// The Front and Back keys: the TLS-only keys that route ops through the stack.
constexpr DispatchKeySet front_back_keys =
    DispatchKeySet({DispatchKey::FuncTorchDynamicLayerFrontMode, DispatchKey::FuncTorchDynamicLayerBackMode});

}  // namespace mt::functorch
