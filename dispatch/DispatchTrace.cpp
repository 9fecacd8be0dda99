#include "dispatch/DispatchTrace.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

#include "dispatch/Dispatcher.h"

namespace mt {

namespace {
bool trace_from_env() {
  const char* v = std::getenv("MT_SHOW_DISPATCH_TRACE");
  return v != nullptr && std::strcmp(v, "") != 0 && std::strcmp(v, "0") != 0;
}
std::ostream* trace_stream = &std::cerr;
thread_local int trace_depth = 0;
}  // namespace

namespace detail {
std::atomic<bool> show_dispatch_trace{trace_from_env()};

DispatchTraceScope::DispatchTraceScope(std::string_view what, const OperatorHandle& op, DispatchKeySet ks) {
  // Highest priority first, the order the call walks them.
  std::vector<DispatchKey> keys;
  ks.for_each_key([&](DispatchKey k) { keys.push_back(k); });
  std::ostream& os = *trace_stream;
  os << std::string(2 * trace_depth, ' ') << "[" << what << "] " << op.operator_name().str() << " [";
  for (size_t i = keys.size(); i-- > 0;) os << keys[i] << (i ? ", " : "");
  os << "]\n";
  ++trace_depth;
}

DispatchTraceScope::~DispatchTraceScope() { --trace_depth; }
}  // namespace detail

void set_dispatch_trace_stream(std::ostream* os) { trace_stream = os ? os : &std::cerr; }
void set_dispatch_trace_enabled(bool enabled) { detail::show_dispatch_trace.store(enabled); }
bool dispatch_trace_enabled() { return detail::dispatch_trace_on(); }

}  // namespace mt
