#pragma once
// Helpers shared by the autograd tests (not a test file itself: only *_test.cpp are compiled).
#include <gtest/gtest.h>
#include <microtorch/microtorch.h>

#include <string>
#include <vector>

namespace mt_test {

// A tensor's values in logical order, as doubles.
inline std::vector<double> values(const mt::Tensor& t) {
  const mt::Tensor c = t.to(mt::kFloat64).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

template <typename E, typename F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an error";
  return "";
}

inline bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace mt_test
