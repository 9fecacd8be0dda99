#include "dispatch/KernelFunction.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace mt {

std::string CppSignature::name() const {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(type_.name(), nullptr, nullptr, &status),
                                                   &std::free);
  return status == 0 && demangled ? std::string(demangled.get()) : std::string(type_.name());
}

namespace detail {
void fallthrough_kernel(OperatorKernel*, const OperatorHandle&, DispatchKeySet ks, Stack*) {
  MT_CHECK(false, "fallthrough_kernel was executed for key set ", ks,
           " but it should have been skipped by the dispatcher. This happens when redispatch() is given a key "
           "set whose highest key has a fallthrough kernel: mask that key out before redispatching.");
  __builtin_unreachable();
}
}  // namespace detail

}  // namespace mt
