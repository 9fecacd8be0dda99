#pragma once
// The fixture of the batching rule tests: each case runs vmap against the loop of the unbatched op, and a
// case whose vmap fell back to the loop fails, so each proves that its rule (or decomposition) ran.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "functorch/BatchedFallback.h"
#include "vmap_test_helpers.h"
#include "ops/api/randn.h"

namespace mt_test {

class BatchingRules : public ::testing::Test {
 protected:
  void SetUp() override {
    previous_ = mt::functorch::set_vmap_fallback_warning_handler([this](const std::string& m) { fallbacks_.push_back(m); });
  }
  void TearDown() override {
    mt::functorch::set_vmap_fallback_warning_handler(previous_);
    EXPECT_TRUE(fallbacks_.empty()) << fallbacks_.front();
  }
  // One input [B at in_dim, rest...] for every in_dim in {0, 1, -1}, each against the loop.
  void check_unary(const Fn& f, std::vector<int64_t> sample = {3, 5}, int64_t batch = 4) {
    for (int64_t in_dim : {int64_t{0}, int64_t{1}, int64_t{-1}}) {
      if (in_dim > static_cast<int64_t>(sample.size())) continue;
      std::vector<int64_t> sizes = sample;
      const int64_t pos = in_dim < 0 ? static_cast<int64_t>(sizes.size()) + 1 + in_dim : in_dim;
      sizes.insert(sizes.begin() + pos, batch);
      SCOPED_TRACE("in_dim " + std::to_string(in_dim));
      mt_test::expect_vmap_matches_loop(f, {mt::randn(sizes)}, Dims{in_dim});
    }
  }
  void check(const Fn& f, const std::vector<mt::Tensor>& inputs, const Dims& in_dims, int64_t out_dim = 0) {
    mt_test::expect_vmap_matches_loop(f, inputs, in_dims, out_dim);
  }

 private:
  std::vector<std::string> fallbacks_;
  mt::functorch::VmapWarningHandler previous_;
};

}  // namespace mt_test
