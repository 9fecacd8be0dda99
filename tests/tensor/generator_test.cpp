// Generator: seeding, the raw engine stream, the transforms to uniform/normal/integers, and thread
// safety. Reference numbers come from the C++ standard (mt19937) and from PyTorch 1.13.
#include <gtest/gtest.h>

#include <microtorch/framework.h>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <thread>
#include <vector>

#include "ops/api/all.h"

namespace {

TEST(Generator, EngineIsTheStandardMt19937) {
  // [rand.predef]: the 10000th output of a default-seeded (5489) mt19937 is 4123659995.
  mt::Generator g(5489);
  uint32_t x = 0;
  for (int i = 0; i < 10000; ++i) x = g.random();
  EXPECT_EQ(x, 4123659995u);
}

TEST(Generator, DefaultSeedIsPyTorchs) {
  EXPECT_EQ(mt::Generator().current_seed(), 67280421310721u);
  EXPECT_EQ(mt::Generator::kDefaultSeed, 67280421310721u);
}

TEST(Generator, SameSeedSameNumbersDifferentSeedDifferentNumbers) {
  mt::Generator a(123), b(123), c(124);
  std::vector<uint32_t> xa, xb, xc;
  for (int i = 0; i < 100; ++i) {
    xa.push_back(a.random());
    xb.push_back(b.random());
    xc.push_back(c.random());
  }
  EXPECT_EQ(xa, xb);
  EXPECT_NE(xa, xc);
}

TEST(Generator, ManualSeedRestartsTheStream) {
  mt::Generator g;
  g.manual_seed(7);
  EXPECT_EQ(g.current_seed(), 7u);
  const uint32_t first = g.random();
  g.random();
  g.manual_seed(7);
  EXPECT_EQ(g.random(), first);
}

TEST(Generator, SeedsUseTheLow32Bits) {
  // As PyTorch's: manual_seed(2**32 + 1) draws what manual_seed(1) draws.
  mt::Generator a((uint64_t(1) << 32) + 1), b(1);
  EXPECT_EQ(a.random(), b.random());
  EXPECT_EQ(a.current_seed(), (uint64_t(1) << 32) + 1);
}

TEST(Generator, SeedPicksAndReportsANewSeed) {
  mt::Generator g(1);
  const uint64_t s = g.seed();
  EXPECT_EQ(g.current_seed(), s);
  mt::Generator same(s);
  EXPECT_EQ(g.random(), same.random());
}

TEST(Generator, Random64IsTwoDrawsHighHalfFirst) {
  mt::Generator a(99), b(99);
  const uint64_t hi = b.random();
  const uint64_t lo = b.random();
  EXPECT_EQ(a.random64(), (hi << 32) | lo);
}

TEST(Generator, UniformUsesTheLowBitsOfOneDraw) {
  mt::Generator a(5), b(5);
  EXPECT_EQ(a.uniform(24), static_cast<double>(b.random() & 0xFFFFFF) / 16777216.0);
  const uint64_t r = b.random64();
  EXPECT_EQ(a.uniform(53), static_cast<double>(r & ((uint64_t(1) << 53) - 1)) / 9007199254740992.0);
  EXPECT_THROW(a.uniform(0), mt::ValueError);
  EXPECT_THROW(a.uniform(54), mt::ValueError);
}

TEST(Generator, UniformIsInTheHalfOpenUnitInterval) {
  mt::Generator g(11);
  for (int i = 0; i < 100000; ++i) {
    const double u = g.uniform(24);
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    ASSERT_EQ(u * 16777216.0, std::floor(u * 16777216.0));  // a multiple of 2^-24
  }
}

TEST(Generator, NormalIsBoxMullerOverTwoUniformsAndKeepsTheSecondValue) {
  mt::Generator g(3), ref(3);
  const double u1 = ref.uniform(53), u2 = ref.uniform(53);
  const double r = std::sqrt(-2.0 * std::log(1.0 - u2));
  const double theta = 2.0 * std::numbers::pi * u1;
  EXPECT_DOUBLE_EQ(g.normal(), r * std::cos(theta));
  EXPECT_DOUBLE_EQ(g.normal(), r * std::sin(theta));
  // The pair used exactly two 53-bit draws (four 32-bit ones).
  EXPECT_EQ(g.random(), ref.random());
}

TEST(Generator, ManualSeedDropsTheKeptNormal) {
  mt::Generator g(8);
  const double first = g.normal();
  g.manual_seed(8);
  EXPECT_EQ(g.normal(), first);
}

TEST(Generator, RandomFromToIsModuloOverTheRange) {
  mt::Generator a(21), b(21);
  EXPECT_EQ(a.random_from_to(-5, 100), -5 + static_cast<int64_t>(b.random() % 105));
  // Ranges of 2^32 or more take a 64-bit draw.
  const int64_t big = int64_t(1) << 40;
  EXPECT_EQ(a.random_from_to(0, big), static_cast<int64_t>(b.random64() % big));
  EXPECT_LT(a.random_from_to(INT64_MIN, INT64_MAX), INT64_MAX);  // the widest range does not overflow
  try {
    a.random_from_to(5, 5);
    FAIL() << "expected mt::ValueError";
  } catch (const mt::ValueError& e) {
    EXPECT_STREQ(e.what(), "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
  }
}

TEST(Generator, LockedDrawsContinueTheSameStream) {
  mt::Generator a(13), b(13);
  {
    mt::Generator::Locked locked(a);
    EXPECT_EQ(locked.uniform(24), b.uniform(24));
    EXPECT_EQ(locked.normal(), b.normal());
    EXPECT_EQ(locked.random_from_to(0, 10), b.random_from_to(0, 10));
  }
  EXPECT_EQ(a.normal(), b.normal());  // the kept second normal of the pair
  EXPECT_EQ(a.random(), b.random());
}

TEST(Generator, ConcurrentDrawsNeitherLoseNorRepeatNumbers) {
  // Four threads share one generator: together they draw exactly the first 40000 numbers of the stream.
  constexpr int kThreads = 4, kDraws = 10000;
  mt::Generator shared(77), ref(77);
  std::vector<std::vector<uint32_t>> drawn(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kDraws; ++i) drawn[t].push_back(shared.random());
    });
  }
  for (auto& th : threads) th.join();
  std::vector<uint32_t> all, expected;
  for (auto& d : drawn) all.insert(all.end(), d.begin(), d.end());
  for (int i = 0; i < kThreads * kDraws; ++i) expected.push_back(ref.random());
  std::sort(all.begin(), all.end());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(all, expected);
}

TEST(Generator, ManualSeedSeedsTheDefaultGenerator) {
  mt::manual_seed(1234);
  EXPECT_EQ(mt::default_generator().current_seed(), 1234u);
  const uint32_t x = mt::default_generator().random();
  EXPECT_EQ(x, mt::Generator(1234).random());
}

}  // namespace
