#pragma once
// OpCounter: a dispatch mode that counts the calls of each operator that reach it, then runs them.
//
//   auto counter = std::make_shared<mt::OpCounter>();
//   { mt::DispatchModeGuard guard(counter); train_step(); }
//   counter->count("mt::mm");   // calls of mt::mm during the step
#include <cstdint>
#include <map>
#include <string>

#include "dispatch/modes/DispatchMode.h"

namespace mt {

class OpCounter : public DispatchMode {
 public:
  void dispatch(const OperatorHandle& op, DispatchKeySet ks, Stack& stack) override;

  // Calls of the operator named e.g. "mt::add.Tensor" (0 when none).
  int64_t count(const std::string& name) const;
  int64_t total() const;
  // Every operator seen, by name, with its count.
  const std::map<std::string, int64_t>& counts() const { return counts_; }
  void reset() { counts_.clear(); }

 private:
  std::map<std::string, int64_t> counts_;
};

}  // namespace mt
