// The thread-local mode stacks and the two fallbacks that hand calls to their top modes.
#include "dispatch/modes/DispatchMode.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "dispatch/Library.h"
#include "dispatch/LocalDispatchKeySet.h"

namespace mt {

namespace {

thread_local std::vector<std::shared_ptr<DispatchMode>> default_modes, pre_dispatch_modes;
// A guard destroyed out of order on this thread, which the next guard or mode dispatch here raises.
thread_local std::string misuse;

void raise_misuse() {
  if (misuse.empty()) return;
  const std::string message = std::exchange(misuse, {});
  throw RuntimeError(message);
}

std::vector<std::shared_ptr<DispatchMode>>& modes_at(DispatchModePosition position) {
  return position == DispatchModePosition::Default ? default_modes : pre_dispatch_modes;
}

DispatchKey key_of(DispatchModePosition position) {
  return position == DispatchModePosition::Default ? DispatchKey::DispatchMode : DispatchKey::PreDispatch;
}

void set_key_included(DispatchModePosition position, bool included) {
  LocalDispatchKeySet tls = tls_local_dispatch_key_set();
  const DispatchKeySet key(key_of(position));
  tls.included_ = included ? tls.included_ | key : tls.included_ - key;
  tls_set_local_dispatch_key_set(tls);
}

void push(DispatchModePosition position, std::shared_ptr<DispatchMode> mode) {
  auto& modes = modes_at(position);
  if (modes.empty()) set_key_included(position, true);
  modes.push_back(std::move(mode));
}

std::shared_ptr<DispatchMode> pop(DispatchModePosition position) {
  auto& modes = modes_at(position);
  std::shared_ptr<DispatchMode> top = std::move(modes.back());
  modes.pop_back();
  if (modes.empty()) set_key_included(position, false);
  return top;
}

// Pops the top mode while its handler runs and pushes it back afterwards, also when the handler throws.
class StashTopMode {
 public:
  explicit StashTopMode(DispatchModePosition position) : position_(position), mode_(pop(position)) {}
  ~StashTopMode() { push(position_, std::move(mode_)); }
  StashTopMode(const StashTopMode&) = delete;
  StashTopMode& operator=(const StashTopMode&) = delete;
  DispatchMode& mode() const { return *mode_; }

 private:
  DispatchModePosition position_;
  std::shared_ptr<DispatchMode> mode_;
};

template <DispatchModePosition P>
void mode_fallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  raise_misuse();
  // A transform's Back fallback may restore a TLS saved while this position still had a mode (whose
  // handler is running now): with none left, the call goes on below.
  // A fake tensor carries the DispatchMode key itself: with no mode left to take it, it has no data for
  // the kernels below.
  if (modes_at(P).empty()) {
    const size_t n = op.schema().arguments.size();
    for (const IValue* v = stack->data() + stack->size() - n; v != stack->data() + stack->size(); ++v) {
      MT_CHECK(!(v->isTensor() && v->toTensorRef().unsafeGetTensorImpl()->is_fake()), "A fake tensor (made under "
               "FakeTensorMode) reached ", op.schema().op.str(), " outside the mode: it has no data to compute with.");
    }
    return op.redispatchBoxed(ks & DispatchKeySet(DispatchKeySet::FULL_AFTER, key_of(P)), stack);
  }
  StashTopMode stash(P);
  stash.mode().dispatch(op, ks, *stack);
}

}  // namespace

DispatchModeGuard::DispatchModeGuard(std::shared_ptr<DispatchMode> mode, DispatchModePosition position)
    : mode_(mode.get()), position_(position), thread_(std::this_thread::get_id()) {
  raise_misuse();
  MT_CHECK_VALUE(mode != nullptr, "DispatchModeGuard: expected a mode, got nullptr");
  push(position, std::move(mode));
}

DispatchModeGuard::~DispatchModeGuard() noexcept {
  auto& modes = modes_at(position_);
  if (thread_ == std::this_thread::get_id() && !modes.empty() && modes.back().get() == mode_) {
    pop(position_);
    return;
  }
  if (thread_ != std::this_thread::get_id()) {
    // The mode is on the other thread's stack, which this one must not touch.
    misuse =
        "DispatchModeGuard: a guard was destroyed on another thread than the one that made it; its mode "
        "stays pushed on the thread that made it. Destroy each guard on its own thread, as a scoped local.";
    return;
  }
  const auto mine = std::find_if(modes.rbegin(), modes.rend(), [&](const auto& m) { return m.get() == mode_; });
  if (mine != modes.rend()) {
    modes.erase(std::next(mine).base());
    if (modes.empty()) set_key_included(position_, false);
  }
  misuse =
      "DispatchModeGuard: a guard was destroyed while a mode pushed after it was still active. Guards must be "
      "destroyed in the reverse order of their creation, as scoped locals are (not held on the heap or in a "
      "std::optional); its mode was taken off the stack and the modes pushed after it stay active.";
}

size_t dispatch_mode_stack_size(DispatchModePosition position) { return modes_at(position).size(); }

MT_LIBRARY_IMPL(_, DispatchMode, m) {
  m.fallback(CppFunction::makeFromBoxedFunction<&mode_fallback<DispatchModePosition::Default>>());
}
MT_LIBRARY_IMPL(_, PreDispatch, m) {
  m.fallback(CppFunction::makeFromBoxedFunction<&mode_fallback<DispatchModePosition::PreDispatch>>());
}

}  // namespace mt
