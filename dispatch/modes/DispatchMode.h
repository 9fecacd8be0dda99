#pragma once
// Dispatch modes: C++'s TorchDispatchMode. A mode is an object whose dispatch() sees every operator
// call that reaches its position, with the call's key set and boxed arguments, and decides what
// happens: count it, log it, rewrite it, or run it elsewhere. Modes are pushed on a thread-local stack
// with DispatchModeGuard; while a mode's handler runs, that mode is popped, so calling an operator in
// the handler (op.callBoxed(stack), or any mt:: function) reaches the next mode, or the layers below.
//
// Two positions:
//   - Default, at the DispatchMode key, below autograd and every transform: it sees the ops that
//     actually execute (decompositions, backward ops, physical batched shapes under vmap).
//   - PreDispatch, at the PreDispatch key, above everything: it sees the calls as the user made them.
//
//   struct Tracer : mt::DispatchMode {
//     void dispatch(const mt::OperatorHandle& op, mt::DispatchKeySet, mt::Stack& stack) override {
//       std::cout << op.operator_name().str() << "\n";
//       op.callBoxed(stack);
//     }
//   };
//   mt::DispatchModeGuard guard(std::make_shared<Tracer>());
#include <cstddef>
#include <memory>
#include <thread>

#include "dispatch/Dispatcher.h"

namespace mt {

class DispatchMode {
 public:
  virtual ~DispatchMode() = default;
  // Runs `op` on the arguments at the top of `stack` and leaves its results there, as a boxed kernel.
  virtual void dispatch(const OperatorHandle& op, DispatchKeySet ks, Stack& stack) = 0;
};

enum class DispatchModePosition { Default, PreDispatch };

// Pushes `mode` for the guard's lifetime. The first mode at a position puts that position's key into
// the TLS included set and the last one takes it out, so without modes they cost nothing.
//
// Guards nest: each must be destroyed on the thread that made it, after every guard made after it,
// as scoped locals are. A guard destroyed out of that order (held on the heap or in a std::optional)
// cannot raise from its destructor: it takes its own mode off the stack, leaving the later ones active,
// and the misuse is raised as a RuntimeError by the next DispatchModeGuard made on the thread or the
// next op that reaches a mode there, whichever comes first.
class DispatchModeGuard {
 public:
  explicit DispatchModeGuard(std::shared_ptr<DispatchMode> mode,
                             DispatchModePosition position = DispatchModePosition::Default);
  ~DispatchModeGuard() noexcept;
  DispatchModeGuard(const DispatchModeGuard&) = delete;
  DispatchModeGuard& operator=(const DispatchModeGuard&) = delete;

 private:
  DispatchMode* mode_;
  DispatchModePosition position_;
  std::thread::id thread_;
};

// How many modes are pushed at `position` on this thread (a running handler's own mode not counted).
size_t dispatch_mode_stack_size(DispatchModePosition position = DispatchModePosition::Default);

}  // namespace mt
