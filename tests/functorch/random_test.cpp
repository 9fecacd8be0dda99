// vmap's randomness flag on random ops with batched inputs: Error refuses them, Different draws per
// entry, Same shares one draw.
#include <gtest/gtest.h>

#include <string>

#include "vmap_test_helpers.h"

namespace {

using mt::Tensor;
using Inputs = std::vector<Tensor>;

auto with_randomness(mt::Randomness r) {
  mt::VmapOptions options;
  options.randomness = r;
  return options;
}

bool rows_equal(const Tensor& t) { return mt::all(mt::eq(t, t.select(0, 0).unsqueeze(0))).item<bool>(); }

TEST(VmapRandomness, ErrorIsTheDefaultAndNamesTheFlags) {
  try {
    mt::vmap([](const Inputs& a) { return mt::randn_like(a[0]); })({mt::zeros({4, 3})});
    FAIL() << "expected an error";
  } catch (const mt::RuntimeError& e) {
    EXPECT_EQ(std::string(e.what()),
              "vmap: called random operation while in randomness error mode. Please either use the 'same' or "
              "'different' randomness flags on vmap or perform the randomness operation out of vmap");
  }
  EXPECT_THROW(mt::vmap([](const Inputs& a) { return mt::dropout(a[0], 0.5, true); })({mt::ones({4, 3})}),
               mt::RuntimeError);
}

TEST(VmapRandomness, DifferentDrawsIndependentlyPerEntry) {
  const auto options = with_randomness(mt::Randomness::Different);
  const Tensor r = mt::vmap([](const Inputs& a) { return mt::rand_like(a[0]); }, 0, options)({mt::zeros({4, 50})});
  EXPECT_EQ(r.sizes().vec(), (std::vector<int64_t>{4, 50}));
  EXPECT_FALSE(rows_equal(r));
  const Tensor m = mt::vmap([](const Inputs& a) { return mt::dropout(a[0], 0.5, true); }, 1, options)(
      {mt::ones({50, 4})});
  EXPECT_FALSE(rows_equal(m));  // m[b] is entry b's sample
}

TEST(VmapRandomness, SameSharesOneDrawAcrossTheBatch) {
  const auto options = with_randomness(mt::Randomness::Same);
  const Tensor r = mt::vmap([](const Inputs& a) { return mt::add(a[0], mt::randn_like(a[0])); }, 1, options)(
      {mt::zeros({50, 4})});
  EXPECT_EQ(r.sizes().vec(), (std::vector<int64_t>{4, 50}));
  EXPECT_TRUE(rows_equal(r));
  const Tensor m = mt::vmap([](const Inputs& a) { return mt::dropout(a[0], 0.5, true); }, 1, options)(
      {mt::ones({50, 4})});
  EXPECT_TRUE(rows_equal(m));
  EXPECT_FALSE(rows_equal(m.t()));  // but it varies within a sample
}

}  // namespace
