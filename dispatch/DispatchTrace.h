#pragma once
// MT_SHOW_DISPATCH_TRACE=1 prints every call and redispatch with its operator and key set, indented
// by nesting depth. The environment is read once; when tracing is off the call path pays one branch.
#include <atomic>
#include <ostream>
#include <string_view>

#include "dispatch/DispatchKeySet.h"

namespace mt {

class OperatorHandle;

namespace detail {
extern std::atomic<bool> show_dispatch_trace;
inline bool dispatch_trace_on() { return show_dispatch_trace.load(std::memory_order_relaxed); }

// Prints one trace line and indents everything called until it is destroyed.
class DispatchTraceScope {
 public:
  DispatchTraceScope(std::string_view what, const OperatorHandle& op, DispatchKeySet ks);
  ~DispatchTraceScope();
  DispatchTraceScope(const DispatchTraceScope&) = delete;
  DispatchTraceScope& operator=(const DispatchTraceScope&) = delete;
};
}  // namespace detail

// Where trace lines go (stderr by default); tests point it at a string stream.
void set_dispatch_trace_stream(std::ostream* os);
// Turns tracing on or off at run time, whatever the environment said (for tests and examples).
void set_dispatch_trace_enabled(bool enabled);
bool dispatch_trace_enabled();

}  // namespace mt
