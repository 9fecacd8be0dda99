// vmap's randomness flag on random ops with batched inputs and on random factories: Error refuses them,
// Different draws per entry, Same shares one draw.
#include <gtest/gtest.h>

#include <string>

#include "vmap_test_helpers.h"
#include "ops/api/add.h"
#include "ops/api/all.h"
#include "ops/api/dropout.h"
#include "ops/api/eq.h"
#include "ops/api/ones.h"
#include "ops/api/rand_like.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/randn_like.h"
#include "ops/api/std.h"
#include "ops/api/zeros.h"

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

TEST(VmapRandomness, SameSharesOneDrawAcrossChunksToo) {
  auto options = with_randomness(mt::Randomness::Same);
  options.chunk_size = 2;
  const auto noisy = [](const Inputs& a) { return mt::add(a[0], mt::randn_like(a[0])); };
  mt::manual_seed(7);
  const Tensor chunked = mt::vmap(noisy, 0, options)({mt::zeros({5, 3})});
  EXPECT_TRUE(rows_equal(chunked));
  // The same numbers as without chunks, and the generator ends where one vmap leaves it.
  const Tensor after_chunked = mt::randn({2});
  mt::manual_seed(7);
  const Tensor whole = mt::vmap(noisy, 0, with_randomness(mt::Randomness::Same))({mt::zeros({5, 3})});
  EXPECT_TRUE(mt::all(mt::eq(chunked, whole)).item<bool>());
  EXPECT_TRUE(mt::all(mt::eq(mt::randn({2}), after_chunked)).item<bool>());
  options.randomness = mt::Randomness::Different;
  EXPECT_FALSE(rows_equal(mt::vmap(noisy, 0, options)({mt::zeros({5, 3})})));
}

TEST(VmapRandomness, RandomFactoriesWithoutTensorArgumentsFollowTheFlag) {
  const Tensor x = mt::zeros({4, 3});
  const auto add_noise = [](const Inputs& a) { return mt::add(a[0], mt::randn({3})); };
  EXPECT_THROW(mt::vmap(add_noise)({x}), mt::RuntimeError);
  const Tensor different = mt::vmap(add_noise, 0, with_randomness(mt::Randomness::Different))({x});
  EXPECT_EQ(different.sizes().vec(), (std::vector<int64_t>{4, 3}));
  EXPECT_FALSE(rows_equal(different));
  EXPECT_TRUE(rows_equal(mt::vmap(add_noise, 0, with_randomness(mt::Randomness::Same))({x})));
  // A draw that never meets a batched tensor is still one per entry, and keeps its dtype.
  const Tensor labels = mt::vmap([](const Inputs&) { return mt::randint(0, 1000, {5}); }, 0,
                                 with_randomness(mt::Randomness::Different))({x});
  EXPECT_EQ(labels.sizes().vec(), (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(labels.dtype(), mt::kInt64);
  EXPECT_FALSE(rows_equal(labels));
  // Factories that are not random are not batched.
  const Tensor z = mt::vmap([](const Inputs& a) { return mt::add(a[0], mt::ones({3})); })({x});
  EXPECT_TRUE(mt::all(mt::eq(z, 1.0)).item<bool>());
}

}  // namespace
