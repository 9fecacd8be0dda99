// TensorImpl and the Tensor handle: shape bookkeeping, the one-allocation layout, storage shared by
// views, the version counter, inference tensors, key sets, item/data_ptr and size checks.
#include <gtest/gtest.h>

#include <microtorch/framework.h>
#include <cstdint>

#include "ops/api/arange.h"
#include "ops/api/sum.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/std.h"
#include "ops/api/t.h"
#include "ops/api/view.h"
#include "ops/api/zeros.h"
#include "tensor/CPUAllocator.h"

namespace {

using mt::DispatchKey;

struct InferenceModeForTest {
  InferenceModeForTest() { mt::detail::set_inference_mode_enabled(true); }
  ~InferenceModeForTest() { mt::detail::set_inference_mode_enabled(false); }
};

// A second TensorImpl over `base`'s storage with its own shape: what a view op will make.
mt::Tensor make_view(const mt::Tensor& base, mt::IntArrayRef sizes, mt::IntArrayRef strides, int64_t offset) {
  auto impl = mt::make_intrusive<mt::TensorImpl>(base.unsafeGetTensorImpl()->storage(), base.dtype());
  impl->set_sizes_and_strides(sizes, strides, offset);
  return mt::Tensor(std::move(impl));
}

TEST(TensorImpl, ContiguousSizesStridesAndNumel) {
  mt::Tensor t = mt::empty({2, 3, 4});
  EXPECT_EQ(t.sizes(), mt::IntArrayRef({2, 3, 4}));
  EXPECT_EQ(t.strides(), mt::IntArrayRef({12, 4, 1}));
  EXPECT_EQ(t.dim(), 3);
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.size(-1), 4);
  EXPECT_EQ(t.stride(0), 12);
  EXPECT_EQ(t.storage_offset(), 0);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.element_size(), 4u);
  EXPECT_EQ(t.nbytes(), 96u);
  EXPECT_EQ(t.dtype(), mt::kFloat32);
  EXPECT_EQ(t.device(), mt::Device(mt::kCPU));
}

TEST(TensorImpl, ZeroDimTensorHasOneElement) {
  mt::Tensor t = mt::empty({});
  EXPECT_EQ(t.dim(), 0);
  EXPECT_EQ(t.numel(), 1);
  EXPECT_THROW(t.size(1), mt::IndexError);
}

TEST(TensorImpl, DimOutOfRangeIsAnIndexError) {
  mt::Tensor t = mt::empty({2, 3});
  try {
    t.size(2);
    FAIL() << "expected mt::IndexError";
  } catch (const mt::IndexError& e) {
    EXPECT_STREQ(e.what(), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  }
  EXPECT_EQ(mt::maybe_wrap_dim(-1, 2), 1);
}

TEST(TensorImpl, CpuTensorIsOneAllocation) {
  mt::Tensor t = mt::empty({10}, mt::kFloat64);
  const char* impl = reinterpret_cast<const char*>(t.unsafeGetTensorImpl());
  const char* storage = reinterpret_cast<const char*>(t.unsafeGetTensorImpl()->storage().get());
  const char* data = static_cast<const char*>(t.data_ptr());
  // TensorImpl, then StorageImpl, then the data, all in one block.
  EXPECT_GT(storage, impl);
  EXPECT_GT(data, storage);
  EXPECT_LT(data - impl, 1024);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % mt::kCPUAlignment, 0u);
  EXPECT_EQ(t.unsafeGetTensorImpl()->storage()->nbytes(), 80u);
}

// A large block freed goes to the CPU allocator's cache and serves the next tensor of its size (not under
// AddressSanitizer, which must see a use after free).
TEST(TensorImpl, LargeCpuBlocksAreCachedAndReused) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer build: large blocks are freed at once";
#else
  mt::cpu_empty_cache();
  const int64_t n = static_cast<int64_t>(mt::kCPULargeBlock / sizeof(float)) + 1000;
  const void* first;
  {
    const mt::Tensor t = mt::full({n}, 2.0f);
    first = t.data_ptr();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % mt::kCPUAlignment, 0u);
    EXPECT_EQ(mt::cpu_cached_bytes(), 0u);
  }
  EXPECT_GE(mt::cpu_cached_bytes(), n * sizeof(float));
  {
    const mt::Tensor same_size = mt::zeros({n});
    EXPECT_EQ(same_size.data_ptr(), first);
    EXPECT_EQ(mt::cpu_cached_bytes(), 0u);
    EXPECT_EQ(same_size.sum().item<double>(), 0.0);  // what the block held before is overwritten
    const mt::Tensor twice = mt::zeros({2 * n});
    EXPECT_NE(twice.data_ptr(), first);
  }
  EXPECT_GE(mt::cpu_empty_cache(), 3 * n * sizeof(float));
  EXPECT_EQ(mt::cpu_cached_bytes(), 0u);
  // Below the threshold a tensor is still one allocation with its metadata.
  const mt::Tensor small = mt::empty({static_cast<int64_t>(mt::kCPULargeBlock / sizeof(float)) - 1});
  EXPECT_LT(static_cast<const char*>(small.data_ptr()) - reinterpret_cast<const char*>(small.unsafeGetTensorImpl()),
            1024);
#endif
}

TEST(TensorImpl, MetaTensorHasShapeButNoData) {
  mt::Tensor t = mt::empty({2, 3}, mt::Device("meta"));
  EXPECT_TRUE(t.is_meta());
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.data_ptr(), nullptr);
}

TEST(TensorImpl, ViewsShareStorageAndSeeWrites) {
  mt::Tensor base = mt::arange(6);
  mt::Tensor transposed = make_view(base, {3, 2}, {1, 3}, 0);
  EXPECT_EQ(transposed.unsafeGetTensorImpl()->storage(), base.unsafeGetTensorImpl()->storage());
  EXPECT_FALSE(transposed.is_contiguous());
  EXPECT_EQ(transposed.numel(), 6);
  base.data_ptr<int64_t>()[3] = 42;
  // transposed[0][1] is base[1][0], element 3.
  const int64_t* p = transposed.data_ptr<int64_t>();
  EXPECT_EQ(p[0 * transposed.stride(0) + 1 * transposed.stride(1)], 42);

  mt::Tensor tail = make_view(base, {2}, {1}, 4);
  EXPECT_EQ(tail.storage_offset(), 4);
  EXPECT_TRUE(tail.is_contiguous());
  EXPECT_EQ(tail.data_ptr<int64_t>(), base.data_ptr<int64_t>() + 4);
}

TEST(TensorImpl, SizeOneDimsDoNotBreakContiguity) {
  mt::Tensor base = mt::zeros({6});
  EXPECT_TRUE(make_view(base, {1, 6}, {100, 1}, 0).is_contiguous());
  EXPECT_TRUE(make_view(base, {0, 6}, {7, 3}, 0).is_contiguous());  // no elements: trivially contiguous
  EXPECT_FALSE(make_view(base, {2, 3}, {1, 2}, 0).is_contiguous());
}

TEST(TensorImpl, StorageOutlivesTheTensorThatMadeIt) {
  mt::Tensor view;
  {
    mt::Tensor base = mt::full({4}, 7.);
    view = make_view(base, {2}, {2}, 0);
  }
  EXPECT_EQ(view.data_ptr<float>()[2], 7.f);
}

TEST(TensorImpl, VersionCounterIsSharedWithViews) {
  mt::Tensor base = mt::zeros({4});
  mt::Tensor view = make_view(base, {2}, {1}, 2);
  EXPECT_EQ(base._version(), 0u);
  base.unsafeGetTensorImpl()->bump_version();
  EXPECT_EQ(view._version(), 1u);
  view.unsafeGetTensorImpl()->bump_version();
  EXPECT_EQ(base._version(), 2u);
  EXPECT_EQ(mt::zeros({4})._version(), 0u);  // a new tensor has its own counter
}

TEST(TensorImpl, KeySetOfCpuFloatTensor) {
  const mt::DispatchKeySet ks = mt::zeros({2}).key_set();
  EXPECT_TRUE(ks.has(DispatchKey::CPU));
  EXPECT_TRUE(ks.has(DispatchKey::AutogradCPU));
  EXPECT_TRUE(ks.has(DispatchKey::ADInplaceOrView));
  EXPECT_TRUE(ks.has(DispatchKey::AutocastCPU));
  EXPECT_FALSE(ks.has(DispatchKey::AutocastCUDA));
  EXPECT_FALSE(ks.has(DispatchKey::Meta));
  EXPECT_EQ(ks, mt::compute_tensor_key_set(mt::Device("cpu"), mt::kFloat32, false));
}

TEST(TensorImpl, KeySetsOfIntegerAndMetaTensors) {
  const mt::DispatchKeySet ints = mt::zeros({2}, mt::kInt64).key_set();
  EXPECT_TRUE(ints.has(DispatchKey::CPU));
  EXPECT_TRUE(ints.has(DispatchKey::AutogradCPU));
  EXPECT_FALSE(ints.has(DispatchKey::AutocastCPU));  // autocast only casts floating tensors

  const mt::DispatchKeySet meta = mt::zeros({2}, mt::Device("meta")).key_set();
  EXPECT_TRUE(meta.has(DispatchKey::Meta));
  EXPECT_TRUE(meta.has(DispatchKey::AutogradMeta));
  EXPECT_FALSE(meta.has(DispatchKey::CPU));
  EXPECT_FALSE(meta.has(DispatchKey::AutocastCPU));
}

TEST(TensorImpl, InferenceTensorsHaveNoAutogradKeysOrVersionCounter) {
  mt::Tensor normal = mt::zeros({2});
  mt::Tensor inference;
  {
    InferenceModeForTest guard;
    inference = mt::zeros({2});
  }
  EXPECT_FALSE(normal.is_inference());
  EXPECT_TRUE(inference.is_inference());
  EXPECT_TRUE(inference.key_set().has(DispatchKey::CPU));
  EXPECT_FALSE(inference.key_set().has(DispatchKey::AutogradCPU));
  EXPECT_FALSE(inference.key_set().has(DispatchKey::ADInplaceOrView));
  try {
    inference._version();
    FAIL() << "expected mt::RuntimeError";
  } catch (const mt::RuntimeError& e) {
    EXPECT_STREQ(e.what(), "Inference tensors do not track version counter.");
  }
  EXPECT_FALSE(mt::zeros({2}).is_inference());  // the flag was restored
}

TEST(TensorImpl, WrappedNumberFlag) {
  mt::Tensor t = mt::tensor(2.5);
  EXPECT_FALSE(t.unsafeGetTensorImpl()->is_wrapped_number());
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  EXPECT_TRUE(t.unsafeGetTensorImpl()->is_wrapped_number());
}

TEST(Tensor, CopyIsOneRefcountIncrement) {
  mt::Tensor a = mt::zeros({3});
  EXPECT_EQ(a.use_count(), 1u);
  {
    mt::Tensor b = a;
    EXPECT_EQ(a.use_count(), 2u);
    EXPECT_TRUE(b.is_same(a));
    EXPECT_EQ(b.data_ptr(), a.data_ptr());
  }
  EXPECT_EQ(a.use_count(), 1u);
  mt::Tensor c = std::move(a);
  EXPECT_EQ(c.use_count(), 1u);
  EXPECT_FALSE(a.defined());  // NOLINT(bugprone-use-after-move): moved-from is undefined
}

TEST(Tensor, UndefinedTensorMethodsRaise) {
  mt::Tensor t;
  EXPECT_FALSE(t.defined());
  EXPECT_EQ(t.use_count(), 0u);
  try {
    t.dim();
    FAIL() << "expected mt::RuntimeError";
  } catch (const mt::RuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("Tensor is undefined"), std::string::npos) << e.what();
  }
}

TEST(Tensor, ItemConvertsLikeStaticCast) {
  EXPECT_EQ(mt::tensor(3.75).item<double>(), 3.75);
  EXPECT_EQ(mt::tensor(3.75).item<int64_t>(), 3);
  EXPECT_EQ(mt::tensor(-3.75).item<int64_t>(), -3);
  EXPECT_EQ(mt::tensor(7).item<double>(), 7.0);
  EXPECT_EQ(mt::tensor(true).item<int64_t>(), 1);
  EXPECT_TRUE(mt::tensor(0.5).item<bool>());
  EXPECT_EQ(mt::tensor({2.5}, mt::kFloat16).item<float>(), 2.5f);
  EXPECT_EQ(mt::tensor({{4}}).item<int64_t>(), 4);  // any one-element tensor
  const mt::Scalar s = mt::tensor(7).item();
  EXPECT_TRUE(s.isIntegral(false));
  EXPECT_TRUE(mt::tensor(1.5).item().isFloatingPoint());
  EXPECT_TRUE(mt::tensor(false).item().isBoolean());
}

TEST(Tensor, ItemNeedsExactlyOneElementOnTheCpu) {
  try {
    mt::zeros({2}).item<float>();
    FAIL() << "expected mt::ValueError";
  } catch (const mt::ValueError& e) {
    EXPECT_STREQ(e.what(), "a Tensor with 2 elements cannot be converted to Scalar");
  }
  EXPECT_THROW(mt::zeros({0}).item<float>(), mt::ValueError);
  try {
    mt::zeros({}, mt::Device("meta")).item<float>();
    FAIL() << "expected mt::RuntimeError";
  } catch (const mt::RuntimeError& e) {
    EXPECT_STREQ(e.what(), "Tensor.item() cannot be called on meta tensors");
  }
}

TEST(Tensor, DataPtrWithTheWrongTypeIsATypeError) {
  mt::Tensor t = mt::zeros({2});
  EXPECT_NE(t.data_ptr<float>(), nullptr);
  EXPECT_NE(t.data_ptr<const float>(), nullptr);
  try {
    t.data_ptr<double>();
    FAIL() << "expected mt::TypeError";
  } catch (const mt::TypeError& e) {
    EXPECT_STREQ(e.what(), "expected scalar type mt.float64 but found mt.float32");
  }
  EXPECT_THROW(mt::zeros({2}, mt::kInt64).data_ptr<bool>(), mt::TypeError);
}

TEST(Tensor, NegativeSizesAreValueErrors) {
  try {
    mt::empty({2, -1});
    FAIL() << "expected mt::ValueError";
  } catch (const mt::ValueError& e) {
    EXPECT_STREQ(e.what(), "Trying to create tensor with negative dimension -1: [2, -1]");
  }
}

TEST(Tensor, OverflowingSizesAreValueErrors) {
  const int64_t big = int64_t(1) << 40;
  try {
    mt::empty({big, big});
    FAIL() << "expected mt::ValueError";
  } catch (const mt::ValueError& e) {
    EXPECT_STREQ(e.what(), "numel: integer multiplication overflow for sizes [1099511627776, 1099511627776]");
  }
  // numel fits in int64 but the bytes do not.
  try {
    mt::empty({int64_t(1) << 61}, mt::kFloat64);
    FAIL() << "expected mt::ValueError";
  } catch (const mt::ValueError& e) {
    EXPECT_STREQ(e.what(), "Storage size calculation overflowed with sizes=[2305843009213693952] and dtype mt.float64");
  }
}

TEST(Tensor, OptionsAndToString) {
  mt::Tensor t = mt::zeros({2, 3}, mt::kFloat64);
  EXPECT_EQ(t.options().dtype(), mt::kFloat64);
  EXPECT_EQ(t.options().device(), mt::Device(mt::kCPU));
  EXPECT_EQ(t.toString(), "Tensor(dtype=mt.float64, device=cpu, sizes=[2, 3])");
  EXPECT_EQ(mt::Tensor().toString(), "UndefinedTensor");
}

}  // namespace

TEST(TensorImpl, SizeOfZeroDimTensorIsAnIndexError) {
  const mt::Tensor t = mt::tensor(3.5);
  EXPECT_EQ(t.dim(), 0);
  try {
    (void)t.size(0);
    FAIL() << "expected mt::IndexError";
  } catch (const mt::IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("dimension specified as 0 but tensor has no dimensions"), std::string::npos);
  }
  EXPECT_THROW((void)t.stride(-1), mt::IndexError);
}
