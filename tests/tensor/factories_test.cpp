// Factories: every factory's values (worked out by hand), dtype inference, devices, the random
// factories against PyTorch 1.13's numbers for the same seed, and the errors for bad arguments.
#include <gtest/gtest.h>

#include <microtorch/framework.h>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "ops/api/arange.h"
#include "ops/api/empty.h"
#include "ops/api/empty_like.h"
#include "ops/api/eye.h"
#include "ops/api/full.h"
#include "ops/api/full_like.h"
#include "ops/api/linspace.h"
#include "ops/api/mean.h"
#include "ops/api/ones.h"
#include "ops/api/ones_like.h"
#include "ops/api/rand.h"
#include "ops/api/rand_like.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/randn_like.h"
#include "ops/api/std.h"
#include "ops/api/sum.h"
#include "ops/api/t.h"
#include "ops/api/zeros.h"
#include "ops/api/zeros_like.h"

namespace {

template <typename T>
std::vector<T> values(const mt::Tensor& t) {
  EXPECT_TRUE(t.is_contiguous());
  const T* p = t.data_ptr<T>();
  return std::vector<T>(p, p + t.numel());
}

template <typename E, typename F>
void expect_error(F&& f, const std::string& message) {
  try {
    f();
    ADD_FAILURE() << "expected an error: " << message;
  } catch (const E& e) {
    EXPECT_EQ(e.what(), message);
  }
}

// For the dispatcher's errors, which go on to list the operator's kernels.
template <typename E, typename F>
void expect_error_starting_with(F&& f, const std::string& prefix) {
  try {
    f();
    ADD_FAILURE() << "expected an error: " << prefix;
  } catch (const E& e) {
    EXPECT_EQ(std::string(e.what()).substr(0, prefix.size()), prefix) << e.what();
  }
}

std::vector<double> as_doubles(const mt::Tensor& t) {
  std::vector<double> out;
  for (float v : values<float>(t)) out.push_back(v);
  return out;
}

TEST(Factories, EmptyHasTheShapeAndDtype) {
  mt::Tensor t = mt::empty({2, 3}, mt::kInt64);
  EXPECT_EQ(t.sizes(), mt::IntArrayRef({2, 3}));
  EXPECT_EQ(t.dtype(), mt::kInt64);
  EXPECT_EQ(mt::empty({4}).dtype(), mt::kFloat32);
}

TEST(Factories, ZerosOnesFull) {
  EXPECT_EQ(values<float>(mt::zeros({2, 2})), std::vector<float>(4, 0.f));
  EXPECT_EQ(values<double>(mt::ones({3}, mt::kFloat64)), std::vector<double>(3, 1.0));
  EXPECT_EQ(values<int64_t>(mt::ones({2}, mt::kInt64)), std::vector<int64_t>({1, 1}));
  EXPECT_EQ(values<bool>(mt::zeros({2}, mt::kBool)), std::vector<bool>({false, false}));
  EXPECT_EQ(values<float>(mt::full({3}, 2.5)), std::vector<float>(3, 2.5f));
  EXPECT_EQ(values<mt::Half>(mt::ones({1}, mt::kFloat16))[0], mt::Half(1.0f));
  EXPECT_EQ(values<mt::BFloat16>(mt::full({1}, -3, mt::kBFloat16))[0], mt::BFloat16(-3.0f));
  EXPECT_EQ(mt::zeros({}).dim(), 0);
  EXPECT_EQ(mt::zeros({}).item<float>(), 0.f);
}

TEST(Factories, FullInfersItsDtypeFromTheFillValue) {
  EXPECT_EQ(mt::full({2}, 1).dtype(), mt::kInt64);
  EXPECT_EQ(mt::full({2}, true).dtype(), mt::kBool);
  EXPECT_EQ(mt::full({2}, 1.5).dtype(), mt::kFloat32);
  EXPECT_EQ(mt::full({2}, 1.5f).dtype(), mt::kFloat32);
  EXPECT_EQ(mt::full({2}, 1, mt::kFloat64).dtype(), mt::kFloat64);
  EXPECT_EQ(values<int64_t>(mt::full({2}, 1.9, mt::kInt64)), std::vector<int64_t>({1, 1}));
  // A float that no int64 holds is refused, not cast (which is undefined behaviour).
  expect_error<mt::RuntimeError>([] { mt::full({1}, NAN, mt::kInt64); },
                                 "value cannot be converted to type int64_t without overflow: nan");
  expect_error<mt::RuntimeError>([] { mt::full({1}, 1e19, mt::kInt64); },
                                 "value cannot be converted to type int64_t without overflow: 1e+19");
  EXPECT_EQ(values<int64_t>(mt::full({1}, -0x1p63, mt::kInt64)), std::vector<int64_t>({INT64_MIN}));
  expect_error<mt::RuntimeError>([] { (void)mt::full({}, NAN).item<int64_t>(); },
                                 "value cannot be converted to type int64_t without overflow: nan");
}

TEST(Factories, ArangeIntegersGiveInt64) {
  mt::Tensor t = mt::arange(5);
  EXPECT_EQ(t.dtype(), mt::kInt64);
  EXPECT_EQ(values<int64_t>(t), std::vector<int64_t>({0, 1, 2, 3, 4}));
  EXPECT_EQ(values<int64_t>(mt::arange(2, 11, 3)), std::vector<int64_t>({2, 5, 8}));
  EXPECT_EQ(values<int64_t>(mt::arange(10, 0, -3)), std::vector<int64_t>({10, 7, 4, 1}));
  EXPECT_EQ(mt::arange(3, 3).numel(), 0);
  // Integer bounds count exactly beyond 2^53, where doubles cannot tell them apart.
  const int64_t big = (int64_t{1} << 53) + 1;
  EXPECT_EQ(values<int64_t>(mt::arange(big, big + 3)), std::vector<int64_t>({big, big + 1, big + 2}));
  EXPECT_EQ(values<int64_t>(mt::arange(big + 2, big - 1, -2)), std::vector<int64_t>({big + 2, big}));
  EXPECT_EQ(values<int64_t>(mt::arange(INT64_MIN, INT64_MAX, INT64_MAX)),
            std::vector<int64_t>({INT64_MIN, -1, INT64_MAX - 1}));
}

TEST(Factories, ArangeWithAFloatGivesTheDefaultFloat) {
  mt::Tensor t = mt::arange(0, 1, 0.25);
  EXPECT_EQ(t.dtype(), mt::kFloat32);
  EXPECT_EQ(values<float>(t), std::vector<float>({0.f, 0.25f, 0.5f, 0.75f}));
  EXPECT_EQ(values<float>(mt::arange(0.5, 3)), std::vector<float>({0.5f, 1.5f, 2.5f}));
  EXPECT_EQ(mt::arange(2.0).dtype(), mt::kFloat32);
  // ceil((1 - 0) / 0.1) = 10 elements, each start + i * step.
  mt::Tensor tenths = mt::arange(0, 1, 0.1, mt::kFloat64);
  ASSERT_EQ(tenths.numel(), 10);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(tenths.data_ptr<double>()[i], 0.1 * i);
  EXPECT_EQ(values<double>(mt::arange(3, mt::kFloat64)), std::vector<double>({0., 1., 2.}));
}

TEST(Factories, ArangeErrors) {
  expect_error<mt::ValueError>([] { mt::arange(0, 5, 0); }, "step must be nonzero");
  expect_error<mt::ValueError>([] { mt::arange(0, 5, -1); },
                               "upper bound and larger bound inconsistent with step sign");
  expect_error<mt::ValueError>([] { mt::arange(5, 0, 1.5); },
                               "upper bound and larger bound inconsistent with step sign");
  expect_error<mt::ValueError>([] { mt::arange(0, INFINITY); }, "unsupported range: 0 -> inf");
  // An int64 arange steps in integers: a step of 0.5 is 0.
  expect_error<mt::ValueError>([] { mt::arange(0, 5, 0.5, mt::kInt64); }, "step must be nonzero");
  expect_error<mt::TypeError>([] { mt::arange(0, 2, 1, mt::kBool); }, "\"arange_cpu\" not implemented for 'mt.bool'");
  expect_error<mt::RuntimeError>([] { mt::arange(0, 1e30, 1, mt::kInt64); },
                                 "value cannot be converted to type int64_t without overflow: 1e+30");
}

TEST(Factories, LinspaceIncludesBothEnds) {
  mt::Tensor t = mt::linspace(0, 1, 5);
  EXPECT_EQ(t.dtype(), mt::kFloat32);
  EXPECT_EQ(values<float>(t), std::vector<float>({0.f, 0.25f, 0.5f, 0.75f, 1.f}));
  EXPECT_EQ(values<double>(mt::linspace(-1, 1, 3, mt::kFloat64)), std::vector<double>({-1., 0., 1.}));
  EXPECT_EQ(values<float>(mt::linspace(2, 2, 1)), std::vector<float>({2.f}));
  EXPECT_EQ(values<float>(mt::linspace(3, 7, 1)), std::vector<float>({3.f}));  // one step is `start`
  EXPECT_EQ(values<float>(mt::linspace(3, 7, 2)), std::vector<float>({3.f, 7.f}));
  EXPECT_EQ(mt::linspace(0, 1, 0).numel(), 0);
  // The last value is `end` exactly, however the steps round.
  EXPECT_EQ(mt::linspace(0, 0.3, 7, mt::kFloat64).data_ptr<double>()[6], 0.3);
  // Integer dtypes truncate: 0, 3.33, 6.67, 10.
  EXPECT_EQ(values<int64_t>(mt::linspace(0, 10, 4, mt::kInt64)), std::vector<int64_t>({0, 3, 6, 10}));
  expect_error<mt::ValueError>([] { mt::linspace(0, 1, -1); }, "number of steps must be non-negative, got -1");
  expect_error<mt::TypeError>([] { mt::linspace(0, 1, 3, mt::kBool); }, "\"linspace_cpu\" not implemented for 'mt.bool'");
}

TEST(Factories, Eye) {
  EXPECT_EQ(values<float>(mt::eye(3)), std::vector<float>({1, 0, 0, 0, 1, 0, 0, 0, 1}));
  mt::Tensor rect = mt::eye(2, 3, mt::kInt64);
  EXPECT_EQ(rect.sizes(), mt::IntArrayRef({2, 3}));
  EXPECT_EQ(values<int64_t>(rect), std::vector<int64_t>({1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(values<bool>(mt::eye(2, 1, mt::kBool)), std::vector<bool>({true, false}));
  EXPECT_EQ(mt::eye(0).numel(), 0);
  EXPECT_EQ(mt::eye(3, 0).sizes(), mt::IntArrayRef({3, 0}));
  expect_error<mt::ValueError>([] { mt::eye(-1); }, "n must be greater or equal to 0, got -1");
  expect_error<mt::ValueError>([] { mt::eye(2, -3); }, "m must be greater or equal to 0, got -3");
}

TEST(Factories, TensorFromNestedListsInfersShapeAndDtype) {
  mt::Tensor m = mt::tensor({{1., 2.}, {3., 4.}});
  EXPECT_EQ(m.dtype(), mt::kFloat32);
  EXPECT_EQ(m.sizes(), mt::IntArrayRef({2, 2}));
  EXPECT_EQ(values<float>(m), std::vector<float>({1, 2, 3, 4}));

  mt::Tensor ints = mt::tensor({1, 2, 3});
  EXPECT_EQ(ints.dtype(), mt::kInt64);
  EXPECT_EQ(values<int64_t>(ints), std::vector<int64_t>({1, 2, 3}));

  mt::Tensor bools = mt::tensor({{true}, {false}});
  EXPECT_EQ(bools.dtype(), mt::kBool);
  EXPECT_EQ(bools.sizes(), mt::IntArrayRef({2, 1}));

  mt::Tensor cube = mt::tensor({{{1, 2}, {3, 4}, {5, 6}}});
  EXPECT_EQ(cube.sizes(), mt::IntArrayRef({1, 3, 2}));
  EXPECT_EQ(values<int64_t>(cube), std::vector<int64_t>({1, 2, 3, 4, 5, 6}));

  mt::Tensor four = mt::tensor({{{{1.5f}, {2.5f}}}, {{{3.5f}, {4.5f}}}});
  EXPECT_EQ(four.sizes(), mt::IntArrayRef({2, 1, 2, 1}));
  EXPECT_EQ(four.dtype(), mt::kFloat32);  // float literals count as Python floats too
  EXPECT_EQ(values<float>(four), std::vector<float>({1.5f, 2.5f, 3.5f, 4.5f}));
}

TEST(Factories, TensorOptionsOverrideTheInferredDtype) {
  EXPECT_EQ(values<double>(mt::tensor({1, 2}, mt::kFloat64)), std::vector<double>({1., 2.}));
  EXPECT_EQ(values<int64_t>(mt::tensor({1.7, -1.7}, mt::kInt64)), std::vector<int64_t>({1, -1}));
  EXPECT_EQ(values<bool>(mt::tensor({2, 0}, mt::kBool)), std::vector<bool>({true, false}));
  EXPECT_EQ(values<mt::Half>(mt::tensor({0.5}, mt::kFloat16))[0], mt::Half(0.5f));
  EXPECT_EQ(mt::tensor({1., 2.}, mt::Device("meta")).is_meta(), true);
}

TEST(Factories, TensorFromAScalarIsZeroDim) {
  mt::Tensor t = mt::tensor(3.5);
  EXPECT_EQ(t.dim(), 0);
  EXPECT_EQ(t.dtype(), mt::kFloat32);
  EXPECT_EQ(t.item<float>(), 3.5f);
  EXPECT_EQ(mt::tensor(4).dtype(), mt::kInt64);
  EXPECT_EQ(mt::tensor(true).dtype(), mt::kBool);
  EXPECT_EQ(mt::tensor(2, mt::kFloat64).item<double>(), 2.0);
}

TEST(Factories, TensorFromVectors) {
  mt::Tensor v = mt::tensor(std::vector<double>{1, 2, 3});
  EXPECT_EQ(v.sizes(), mt::IntArrayRef({3}));
  EXPECT_EQ(v.dtype(), mt::kFloat32);
  mt::Tensor shaped = mt::tensor(std::vector<int>{1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_EQ(shaped.sizes(), mt::IntArrayRef({2, 3}));
  EXPECT_EQ(shaped.dtype(), mt::kInt64);
  EXPECT_EQ(values<int64_t>(shaped), std::vector<int64_t>({1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(mt::tensor(std::vector<bool>{true, false}).dtype(), mt::kBool);
  EXPECT_EQ(mt::tensor(std::vector<float>{}).sizes(), mt::IntArrayRef({0}));
  expect_error<mt::ValueError>(
      [] {
        mt::tensor(std::vector<double>{1, 2, 3}, {2, 2});
      },
      "tensor: shape [2, 2] holds 4 elements but the data has 3");
}

TEST(Factories, RaggedNestedListsAreValueErrors) {
  expect_error<mt::ValueError>([] { mt::tensor({{1., 2.}, {3.}}); }, "expected sequence of length 2 at dim 1 (got 1)");
  expect_error<mt::ValueError>(
      [] {
        mt::tensor({{{1}, {2}}, {{3}, {4}, {5}}});
      },
      "expected sequence of length 2 at dim 1 (got 3)");
  expect_error<mt::ValueError>([] { mt::tensor({{{1, 2}}, {{3}}}); }, "expected sequence of length 2 at dim 2 (got 1)");
}

TEST(Factories, LikeFactoriesCopyShapeDtypeAndDevice) {
  mt::Tensor src = mt::empty({2, 3}, mt::kFloat64);
  mt::Tensor z = mt::zeros_like(src);
  EXPECT_EQ(z.sizes(), src.sizes());
  EXPECT_EQ(z.dtype(), mt::kFloat64);
  EXPECT_EQ(values<double>(z), std::vector<double>(6, 0.));
  EXPECT_EQ(values<double>(mt::ones_like(src)), std::vector<double>(6, 1.));
  EXPECT_EQ(values<double>(mt::full_like(src, 7)), std::vector<double>(6, 7.));  // self's dtype, not the value's
  EXPECT_EQ(mt::empty_like(src).sizes(), src.sizes());
  EXPECT_EQ(mt::zeros_like(src, mt::kInt64).dtype(), mt::kInt64);
  EXPECT_TRUE(mt::zeros_like(src, mt::Device("meta")).is_meta());
  EXPECT_EQ(mt::zeros_like(src, mt::Device("meta")).dtype(), mt::kFloat64);
  EXPECT_TRUE(mt::empty_like(mt::empty({2}, mt::Device("meta"))).is_meta());
  EXPECT_EQ(mt::rand_like(src).dtype(), mt::kFloat64);
  EXPECT_EQ(mt::randn_like(src).sizes(), src.sizes());
  EXPECT_THROW(mt::rand_like(mt::zeros({2}, mt::kInt64)), mt::TypeError);
}

TEST(Factories, FromBlobViewsCallerMemory) {
  double data[6] = {1, 2, 3, 4, 5, 6};
  {
    mt::Tensor t = mt::from_blob(data, {2, 3}, mt::kFloat64);
    EXPECT_EQ(t.data_ptr<double>(), data);
    EXPECT_EQ(t.sizes(), mt::IntArrayRef({2, 3}));
    t.data_ptr<double>()[4] = 50;
  }
  EXPECT_EQ(data[4], 50);  // written through, and not freed when the tensor went away
  expect_error<mt::ValueError>([&] { mt::from_blob(data, {2}, mt::Device("meta")); },
                               "from_blob: expected a cpu device, got 'meta'");
}

TEST(Factories, MetaFactoriesMakeShapesWithoutData) {
  for (const mt::Tensor& t : {mt::zeros({2, 3}, mt::Device("meta")), mt::ones({2, 3}, mt::Device("meta")),
                              mt::full({2, 3}, 5, mt::Device("meta")), mt::rand({2, 3}, mt::Device("meta")),
                              mt::randn({2, 3}, mt::Device("meta")), mt::randint(3, {2, 3}, mt::Device("meta"))}) {
    EXPECT_TRUE(t.is_meta());
    EXPECT_EQ(t.sizes(), mt::IntArrayRef({2, 3}));
    EXPECT_EQ(t.data_ptr(), nullptr);
  }
  EXPECT_EQ(mt::arange(10, mt::Device("meta")).sizes(), mt::IntArrayRef({10}));
  EXPECT_EQ(mt::eye(2, mt::Device("meta")).sizes(), mt::IntArrayRef({2, 2}));
  EXPECT_EQ(mt::full({2}, 5, mt::Device("meta")).dtype(), mt::kInt64);
}

#ifndef MT_WITH_CUDA
TEST(Factories, CudaWithoutTheBackendHasNoKernelToRun) {
  expect_error_starting_with<mt::NotImplementedError>([] { mt::zeros({2}, mt::Device("cuda")); },
                                                      "Could not run 'mt::zeros' with arguments from the 'CUDA' backend.");
}
#endif

// A backend that registered only an allocator has no factory kernels: factories are operators, and a
// backend provides at least `empty` (tests/dispatch/private_use1_backend_test.cpp builds one).
TEST(Factories, ABackendWithoutFactoryKernelsCannotMakeTensors) {
  expect_error_starting_with<mt::NotImplementedError>([] { mt::ones({2}, mt::Device("privateuseone")); },
                                                      "Could not run 'mt::ones' with arguments from the 'PrivateUse1' backend.");
}

// Below the operators, TensorImpl::empty takes the backend's memory from its registered allocator.
class HostMemoryAllocator final : public mt::Allocator {
 public:
  mt::DataPtr allocate(size_t nbytes) override {
    void* p = std::malloc(nbytes + 1);
    return mt::DataPtr(p, p, &std::free, mt::Device(mt::kPrivateUse1, 0));
  }
};

TEST(Factories, TensorImplEmptyUsesTheBackendsAllocatorAndRaisesWithoutOne) {
  expect_error<mt::RuntimeError>(
      [] { mt::TensorImpl::empty({2}, mt::kFloat32, mt::Device("privateuseone")); },
      "No allocator is registered for device type 'privateuseone'; a backend registers one with mt::set_allocator");
  HostMemoryAllocator allocator;
  mt::set_allocator(mt::kPrivateUse1, &allocator);
  mt::Tensor t(mt::TensorImpl::empty({2}, mt::kFloat32, mt::Device("privateuseone")));
  EXPECT_EQ(t.device(), mt::Device(mt::kPrivateUse1, 0));
  // Printing reads the values through the allocator's copy_to_host (here a plain memcpy).
  t.data_ptr<float>()[0] = 1.5f;
  t.data_ptr<float>()[1] = -2.0f;
  std::ostringstream ss;
  ss << t;
  EXPECT_EQ(ss.str(), "tensor([ 1.5000, -2.0000], device='privateuseone:0')");
  EXPECT_EQ(t.select(0, 1).item<float>(), -2.0f);
  mt::set_allocator(mt::kPrivateUse1, nullptr);
}

TEST(RandomFactories, RandMatchesPyTorchForTheSameSeed) {
  // torch.manual_seed(0); torch.rand(5)
  mt::manual_seed(0);
  const std::vector<double> expected = {0.49625658988952637, 0.7682217955589294, 0.08847743272781372,
                                        0.13203048706054688, 0.30742281675338745};
  EXPECT_EQ(as_doubles(mt::rand({5})), expected);
  // torch.manual_seed(42); torch.rand(2, 2)
  mt::manual_seed(42);
  mt::Tensor t = mt::rand({2, 2});
  EXPECT_EQ(t.sizes(), mt::IntArrayRef({2, 2}));
  EXPECT_EQ(as_doubles(t),
            std::vector<double>({0.8822692632675171, 0.9150039553642273, 0.38286375999450684, 0.9593056440353394}));
}

TEST(RandomFactories, RandOfEachFloatDtypeMatchesPyTorch) {
  mt::manual_seed(0);
  EXPECT_EQ(values<double>(mt::rand({3}, mt::kFloat64)),
            std::vector<double>({0.9700530018065531, 0.707819864399788, 0.45938294312745087}));
  mt::manual_seed(0);
  std::vector<float> halves;
  for (mt::Half h : values<mt::Half>(mt::rand({3}, mt::kFloat16))) halves.push_back(static_cast<float>(h));
  EXPECT_EQ(halves, std::vector<float>({0.333984375f, 0.27294921875f, 0.80712890625f}));
  mt::manual_seed(0);
  std::vector<float> bf;
  for (mt::BFloat16 h : values<mt::BFloat16>(mt::rand({3}, mt::kBFloat16))) bf.push_back(static_cast<float>(h));
  EXPECT_EQ(bf, std::vector<float>({0.671875f, 0.18359375f, 0.45703125f}));
}

TEST(RandomFactories, RandintMatchesPyTorch) {
  mt::manual_seed(0);
  mt::Tensor t = mt::randint(10, {8});
  EXPECT_EQ(t.dtype(), mt::kInt64);
  EXPECT_EQ(values<int64_t>(t), std::vector<int64_t>({4, 9, 3, 0, 3, 9, 7, 3}));
  mt::manual_seed(0);
  EXPECT_EQ(values<int64_t>(mt::randint(-5, 100, {8})), std::vector<int64_t>({69, 19, 93, 25, 38, 4, 92, 68}));
  mt::manual_seed(0);
  EXPECT_EQ(values<int64_t>(mt::randint(0, int64_t(1) << 40, {3})),
            std::vector<int64_t>({741280623151, 506137267392, 291447657211}));
}

TEST(RandomFactories, RandnMatchesPyTorchForSmallSizes) {
  // PyTorch uses the same Box-Muller below 16 elements (its vectorised path above differs).
  mt::manual_seed(0);
  const std::vector<double> expected = {1.5409961082440433, -0.2934289057609464, -2.1787893820745574,
                                        0.5684312772806678, -1.084522342424021};
  const std::vector<double> got = values<double>(mt::randn({5}, mt::kFloat64));
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-12) << i;
  mt::manual_seed(0);
  EXPECT_EQ(as_doubles(mt::randn({3})),
            std::vector<double>({1.5409960746765137, -0.293428897857666, -2.1787893772125244}));
}

TEST(RandomFactories, ExplicitGeneratorLeavesTheDefaultAlone) {
  // g = torch.Generator(); g.manual_seed(7); torch.rand(3, generator=g)
  mt::manual_seed(0);
  mt::Generator gen(7);
  EXPECT_EQ(as_doubles(mt::rand({3}, &gen)),
            std::vector<double>({0.5349225401878357, 0.19880318641662598, 0.6592116951942444}));
  EXPECT_EQ(mt::rand({1}).item<double>(), 0.49625658988952637);  // the default stream is untouched
  mt::Generator a(9), b(9);
  EXPECT_EQ(values<double>(mt::randn({4}, &a, mt::kFloat64)), values<double>(mt::randn({4}, &b, mt::kFloat64)));
  EXPECT_EQ(values<int64_t>(mt::randint(5, {4}, &a)), values<int64_t>(mt::randint(0, 5, {4}, &b)));
  EXPECT_EQ(mt::rand({2}, &a, mt::kFloat64).dtype(), mt::kFloat64);
}

TEST(RandomFactories, SameSeedSameTensorsDifferentSeedDifferentTensors) {
  mt::manual_seed(5);
  const auto r1 = as_doubles(mt::rand({100}));
  const auto n1 = as_doubles(mt::randn({100}));
  const auto i1 = values<int64_t>(mt::randint(1000, {100}));
  mt::manual_seed(5);
  EXPECT_EQ(as_doubles(mt::rand({100})), r1);
  EXPECT_EQ(as_doubles(mt::randn({100})), n1);
  EXPECT_EQ(values<int64_t>(mt::randint(1000, {100})), i1);
  mt::manual_seed(6);
  EXPECT_NE(as_doubles(mt::rand({100})), r1);
  EXPECT_NE(as_doubles(mt::randn({100})), n1);
  EXPECT_NE(values<int64_t>(mt::randint(1000, {100})), i1);
}

TEST(RandomFactories, RandIsUniformInTheUnitInterval) {
  mt::manual_seed(1);
  const std::vector<double> u = values<double>(mt::rand({100000}, mt::kFloat64));
  double sum = 0;
  for (double x : u) {
    ASSERT_GE(x, 0.0);
    ASSERT_LT(x, 1.0);
    sum += x;
  }
  EXPECT_NEAR(sum / u.size(), 0.5, 0.005);  // standard error 0.0009
}

TEST(RandomFactories, RandnHasMeanZeroAndStdOne) {
  mt::manual_seed(2);
  const std::vector<double> z = values<double>(mt::randn({100000}, mt::kFloat64));
  double sum = 0, sq = 0;
  for (double x : z) sum += x;
  const double mean = sum / z.size();
  for (double x : z) sq += (x - mean) * (x - mean);
  EXPECT_NEAR(mean, 0.0, 0.015);                     // standard error 0.003
  EXPECT_NEAR(std::sqrt(sq / z.size()), 1.0, 0.01);  // standard error 0.0022
}

TEST(RandomFactories, RandintCoversTheRangeAndNothingElse) {
  mt::manual_seed(3);
  std::vector<int> counts(7, 0);
  for (int64_t v : values<int64_t>(mt::randint(-3, 4, {7000}))) {
    ASSERT_GE(v, -3);
    ASSERT_LT(v, 4);
    ++counts[v + 3];
  }
  for (int c : counts) EXPECT_NEAR(c, 1000, 150);
  EXPECT_EQ(mt::randint(3, {2}, mt::kFloat64).dtype(), mt::kFloat64);
}

TEST(RandomFactories, BadArguments) {
  expect_error<mt::TypeError>(
      [] { mt::rand({2}, mt::kInt64); },
      "\"check_uniform_bounds\" not implemented for 'mt.int64': rand needs a floating-point dtype");
  expect_error<mt::TypeError>(
      [] { mt::randn({2}, mt::kBool); },
      "\"normal_kernel_cpu\" not implemented for 'mt.bool': randn needs a floating-point dtype");
  expect_error<mt::ValueError>([] { mt::randint(5, 5, {2}); },
                               "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
  expect_error<mt::ValueError>([] { mt::randint(0, {2}); },
                               "random_ expects 'from' to be less than 'to', but got from=0 >= to=0");
  expect_error<mt::ValueError>([] { mt::rand({-2}); }, "Trying to create tensor with negative dimension -2: [-2]");
}

}  // namespace
