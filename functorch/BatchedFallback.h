#pragma once
// The slow path of vmap: an op without a batching rule runs once per batch entry and the results are
// stacked. It warns once per op, so a missing rule is visible without flooding the output.
#include <functional>
#include <string>

namespace mt::functorch {

// Receives the fallback's performance warnings; the default handler prints them to std::cerr.
// Returns the previous handler. An empty handler restores the default.
using VmapWarningHandler = std::function<void(const std::string& message)>;
VmapWarningHandler set_vmap_fallback_warning_handler(VmapWarningHandler handler);

}  // namespace mt::functorch
