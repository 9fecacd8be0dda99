#pragma once
// LoggingMode: a dispatch mode that records one line per operator call that reaches it, with the
// arguments' shapes and dtypes, the results', and the key set the call arrived with, e.g.
//   mt::mm(f32[64, 2], f32[2, 64]) -> f32[64, 64]  DispatchKeySet(CPU, DispatchMode)
// Lines are kept (lines()) and, when given a stream, also written to it as they come.
#include <iosfwd>
#include <string>
#include <vector>

#include "dispatch/modes/DispatchMode.h"

namespace mt {

class LoggingMode : public DispatchMode {
 public:
  explicit LoggingMode(std::ostream* out = nullptr) : out_(out) {}
  void dispatch(const OperatorHandle& op, DispatchKeySet ks, Stack& stack) override;
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::ostream* out_;
  std::vector<std::string> lines_;
};

}  // namespace mt
