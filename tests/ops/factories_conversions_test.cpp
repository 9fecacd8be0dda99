// Factories as dispatcher operators (BackendSelect picks the backend from `device`; Meta, runtime
// backends and upper layers see them), and the conversions to / type_as / _to_copy. The values the
// factories produce are tested in tests/tensor/factories_test.cpp.
#include <vector>

#include "dispatch/Dispatcher.h"
#include "dispatch/Library.h"
#include "dispatch/LocalDispatchKeySet.h"
#include "reference.h"
#include "ops/api/_to_copy.h"
#include "ops/api/arange.h"
#include "ops/api/empty.h"
#include "ops/api/empty_like.h"
#include "ops/api/empty_strided_ops.h"
#include "ops/api/eye.h"
#include "ops/api/full.h"
#include "ops/api/full_like.h"
#include "ops/api/ones.h"
#include "ops/api/ones_like.h"
#include "ops/api/rand.h"
#include "ops/api/rand_like.h"
#include "ops/api/randint.h"
#include "ops/api/randn_like.h"
#include "ops/api/t.h"
#include "ops/api/zeros.h"
#include "ops/api/zeros_like.h"

namespace mt::testing {
namespace {

OperatorHandle op(const char* name, const char* overload = "") {
  return Dispatcher::singleton().findSchemaOrThrow(name, overload);
}

TEST(FactoryOps, EachFactoryIsAnOperatorWithBackendSelectAndBackendKernels) {
  for (const char* name : {"mt::empty", "mt::empty_strided", "mt::zeros", "mt::ones", "mt::full", "mt::arange",
                           "mt::linspace", "mt::eye", "mt::rand", "mt::randn", "mt::randint"}) {
    const OperatorHandle h = op(name);
    EXPECT_TRUE(h.hasKernelForDispatchKey(DispatchKey::BackendSelect)) << name;
    EXPECT_TRUE(h.hasKernelForDispatchKey(DispatchKey::CPU)) << name;
    EXPECT_TRUE(h.hasKernelForDispatchKey(DispatchKey::Meta)) << name;
  }
  for (const char* name : {"mt::empty_like", "mt::zeros_like", "mt::ones_like", "mt::full_like", "mt::rand_like",
                           "mt::randn_like"}) {
    EXPECT_TRUE(op(name).hasKernelForDispatchKey(DispatchKey::CompositeExplicitAutograd)) << name;
  }
}

TEST(FactoryOps, BackendSelectSendsTheCallToTheBackendOfTheDevice) {
  int calls = 0;
  Library backend(Library::IMPL, "mt", DispatchKey::PrivateUse1);
  backend.impl("zeros", [&calls](IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
    ++calls;
    EXPECT_EQ(device, Device(kPrivateUse1));
    return Tensor(TensorImpl::empty(size, dtype.value_or(kFloat32), Device(kCPU)));
  });
  const Tensor t = zeros({2, 3}, TensorOptions(kFloat64).device(Device(kPrivateUse1)));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(t.dtype(), kFloat64);
  EXPECT_EQ(t.sizes(), IntArrayRef({2, 3}));
  zeros({2}, TensorOptions(kFloat64));
  EXPECT_EQ(calls, 1) << "a cpu factory must not reach the PrivateUse1 kernel";
}

TEST(FactoryOps, MetaFactoriesMakeShapesAndDrawNoRandomNumbers) {
  Generator g(5), fresh(5);
  const Tensor r = rand({3, 4}, &g, TensorOptions(kFloat64).device(kMeta));
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.sizes(), IntArrayRef({3, 4}));
  EXPECT_EQ(r.dtype(), kFloat64);
  EXPECT_EQ(g.random(), fresh.random()) << "a meta rand must leave the generator where it was";
  EXPECT_EQ(arange(0, 10, 3, TensorOptions(kMeta)).sizes(), IntArrayRef({4}));
  EXPECT_EQ(eye(2, 5, TensorOptions(kMeta)).sizes(), IntArrayRef({2, 5}));
  EXPECT_EQ(full({2}, true, TensorOptions(kMeta)).dtype(), kBool);
  EXPECT_EQ(randint(3, 9, {7}, TensorOptions(kMeta)).dtype(), kInt64);
  const Tensor s = ops::empty_strided::call({2, 3}, {1, 2}, kFloat32, Device(kMeta));
  EXPECT_EQ(s.strides(), IntArrayRef({1, 2}));
}

TEST(FactoryOps, LayersAboveBackendSelectSeeFactoryCalls) {
  std::vector<std::string> seen;
  Library layer(Library::IMPL, "mt", DispatchKey::DispatchMode);
  layer.impl("ones", [&seen](DispatchKeySet ks, IntArrayRef size, std::optional<ScalarType> dtype,
                             std::optional<Device> device) {
    seen.push_back("ones");
    return ops::ones::redispatch(ks & after_DispatchMode_keyset, size, dtype, device);
  });
  Tensor t;
  {
    IncludeDispatchKeyGuard include{DispatchKeySet(DispatchKey::DispatchMode)};
    t = ones({2}, TensorOptions(kInt64));
  }
  EXPECT_EQ(seen, std::vector<std::string>{"ones"});
  EXPECT_EQ(values(t), (std::vector<double>{1, 1}));
  EXPECT_EQ(t.dtype(), kInt64);
}

TEST(FactoryOps, LikeFactoriesTakeSizeDtypeAndDeviceFromSelfUnlessGiven) {
  const Tensor x = arange(6, TensorOptions(kInt64)).view({2, 3}).t();
  const Tensor z = zeros_like(x);
  EXPECT_EQ(z.sizes(), IntArrayRef({3, 2}));
  EXPECT_EQ(z.strides(), IntArrayRef({1, 3})) << "laid out like self, as PyTorch's preserve_format";
  EXPECT_EQ(z.dtype(), kInt64);
  EXPECT_EQ(values(z), std::vector<double>(6, 0));
  EXPECT_EQ(values(full_like(x, 2.75)), std::vector<double>(6, 2)) << "an int64 fill truncates as PyTorch's";
  EXPECT_EQ(ones_like(x, TensorOptions(kFloat16)).dtype(), kFloat16);
  const Tensor m = empty_like(x, TensorOptions(kMeta));
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.sizes(), IntArrayRef({3, 2}));
  EXPECT_TRUE(randn_like(m, TensorOptions(kFloat64)).is_meta());
  EXPECT_EQ(rand_like(ones({4}, TensorOptions(kFloat64))).dtype(), kFloat64);
  expect_error<TypeError>([&] { rand_like(x); }, "\"check_uniform_bounds\" not implemented for 'mt.int64'");
}

TEST(FactoryOps, NewEmptyStridedTakesDtypeAndDeviceFromSelfAndTheLayoutFromItsArguments) {
  const Tensor x = ones({5}, TensorOptions(kFloat64));
  const Tensor e = x.new_empty_strided({2, 3}, {1, 2});
  EXPECT_EQ(e.sizes(), IntArrayRef({2, 3}));
  EXPECT_EQ(e.strides(), IntArrayRef({1, 2}));
  EXPECT_EQ(e.dtype(), kFloat64);
  EXPECT_TRUE(x.to(kMeta).new_empty_strided({4}, {2}).is_meta());
}

TEST(Conversions, ToReturnsSelfWhenNothingChangesUnlessCopyIsAsked) {
  const Tensor x = ones({2, 2});
  EXPECT_TRUE(x.to(kFloat32).is_same(x));
  EXPECT_TRUE(x.to(Device(kCPU)).is_same(x));
  EXPECT_TRUE(x.to(TensorOptions(kFloat32).device(kCPU)).is_same(x));
  EXPECT_TRUE(x.to(x).is_same(x));
  const Tensor c = x.to(kFloat32, false, /*copy=*/true);
  EXPECT_FALSE(c.is_same(x));
  EXPECT_NE(c.data_ptr(), x.data_ptr());
  EXPECT_EQ(values(c), values(x));
}

TEST(Conversions, ToDtypeConvertsValuesAsPyTorchCasts) {
  const Tensor f = tensor({-1.75, -0.5, 0.0, 2.5, 3.0});
  EXPECT_EQ(values(f.to(kInt64)), (std::vector<double>{-1, 0, 0, 2, 3})) << "float to int truncates toward zero";
  EXPECT_EQ(values(f.to(kBool)), (std::vector<double>{1, 1, 0, 1, 1}));
  EXPECT_EQ(values(f.to(kFloat16)), (std::vector<double>{-1.75, -0.5, 0.0, 2.5, 3.0}));
  EXPECT_EQ(values(tensor({1.0f + 1.0f / 1024})).at(0), 1.0 + 1.0 / 1024);
  EXPECT_EQ(values(tensor({1.0f + 1.0f / 1024}).to(kBFloat16)).at(0), 1.0) << "bfloat16 keeps 8 bits";
  const Tensor b = tensor({true, false});
  EXPECT_EQ(values(b.to(kFloat64)), (std::vector<double>{1, 0}));
  EXPECT_EQ(_to_copy(f, kFloat64).dtype(), kFloat64);
}

TEST(Conversions, DenseInputsKeepTheirStridesOthersComeOutContiguous) {
  const Tensor x = arange(6, TensorOptions(kFloat32)).view({2, 3});
  const Tensor t = x.t().to(kFloat64);
  EXPECT_EQ(t.strides(), IntArrayRef({1, 3}));
  EXPECT_EQ(values(t), values(x.t()));
  const Tensor every_other = strided_view(arange(8, TensorOptions(kFloat32)), {4}, {2});
  const Tensor c = every_other.to(kInt64);
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_EQ(values(c), (std::vector<double>{0, 2, 4, 6}));
}

TEST(Conversions, ToMetaKeepsGeometryAndCopyingOutOfMetaIsAnError) {
  const Tensor x = ones({2, 3}).t();
  const Tensor m = x.to(kMeta);
  EXPECT_TRUE(m.is_meta());
  EXPECT_EQ(m.sizes(), IntArrayRef({3, 2}));
  EXPECT_EQ(m.strides(), IntArrayRef({1, 3}));
  EXPECT_EQ(x.to(Device(kMeta), kFloat16).dtype(), kFloat16);
  EXPECT_TRUE(m.to(kFloat64).is_meta());
  expect_error<NotImplementedError>([&] { m.to(kCPU); }, "Cannot copy out of meta tensor; no data!");
}

TEST(Conversions, TypeAsAndToOtherFollowTheOtherTensor) {
  const Tensor x = tensor({1.5, 2.5});
  const Tensor i = tensor({int64_t(1)});
  EXPECT_EQ(x.type_as(i).dtype(), kInt64);
  EXPECT_EQ(values(x.type_as(i)), (std::vector<double>{1, 2}));
  EXPECT_TRUE(x.type_as(x).is_same(x));
  const Tensor meta_half = empty({1}, TensorOptions(kFloat16).device(kMeta));
  const Tensor y = x.to(meta_half);
  EXPECT_TRUE(y.is_meta());
  EXPECT_EQ(y.dtype(), kFloat16);
}

}  // namespace
}  // namespace mt::testing
