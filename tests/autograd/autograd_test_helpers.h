#pragma once
// Helpers shared by the autograd tests (not a test file itself: only *_test.cpp are compiled). Error
// helpers (message_of, starts_with) come from the dispatcher tests' helpers.
#include <microtorch/framework.h>

#include <vector>

#include "dispatch/dispatch_test_helpers.h"

namespace mt_test {

// A tensor's values in logical order, as doubles.
inline std::vector<double> values(const mt::Tensor& t) {
  const mt::Tensor c = t.to(mt::kFloat64).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

}  // namespace mt_test
