// CUDA device management and the CUDA allocator as a user meets them: without a GPU allocating a
// CUDA tensor says why CUDA is not available (without CUDA support, the allocator says so); with a
// GPU, tensors come from the caching allocator and CUDAGuard switches devices. Every test that needs
// a GPU skips without one.
#include <string>

#include "cuda/cuda_test_helpers.h"
#include "tensor/Allocator.h"

#ifdef MT_WITH_CUDA
#include "tensor/cuda/CachingAllocator.h"
#include "ops/api/empty.h"
#include "ops/api/t.h"
#endif

namespace {

using mt_test::error_of;
using mt_test::kOnCuda;

#ifdef MT_WITH_CUDA

std::string no_gpu_reason() { return error_of([] { mt::cuda::check_cuda_available(); }); }

TEST(CudaDevice, WithoutAGpuAllocatingACudaTensorSaysWhyCudaIsNotAvailable) {
  if (mt::cuda::is_available()) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_EQ(mt::cuda::device_count(), 0);  // and does not throw
  const std::string reason = no_gpu_reason();
  EXPECT_EQ(reason.rfind("CUDA is not available: cudaGetDeviceCount", 0), 0u) << reason;
  const std::string err = error_of([] { (void)mt::empty({2}, kOnCuda); });
  EXPECT_EQ(err, reason);
  EXPECT_THROW(mt::cuda::current_device(), mt::Error);
  EXPECT_THROW(mt::cuda::CUDAGuard(0), mt::Error);
  // The allocator's bookkeeping works without a device.
  mt::cuda::empty_cache();
  EXPECT_EQ(mt::cuda::memory_stats(0).allocated_bytes, 0u);
}

TEST(CudaDevice, TensorsComeFromTheCachingAllocator) {
  MT_SKIP_WITHOUT_GPU();
  const int dev = mt::cuda::current_device();
  mt::cuda::empty_cache();
  const mt::cuda::MemoryStats before = mt::cuda::memory_stats(dev);
  void* first = nullptr;
  {
    mt::Tensor t = mt::empty({256}, kOnCuda);  // 1 KiB
    EXPECT_TRUE(t.device().is_cuda());
    EXPECT_EQ(t.device().index(), dev);
    first = t.data_ptr();
    EXPECT_EQ(mt::cuda::memory_stats(dev).allocated_bytes, before.allocated_bytes + 1024);
  }
  EXPECT_EQ(mt::cuda::memory_stats(dev).allocated_bytes, before.allocated_bytes);
  // A small request takes a whole 2 MiB segment from the device, which stays cached once the block is freed.
  EXPECT_EQ(mt::cuda::memory_stats(dev).reserved_bytes,
            before.reserved_bytes + mt::cuda::CachingAllocatorCore::kSmallSegment);
  mt::Tensor again = mt::empty({200}, kOnCuda);  // same 1 KiB bucket
  EXPECT_EQ(again.data_ptr(), first);
  EXPECT_EQ(mt::cuda::memory_stats(dev).num_cache_hits, before.num_cache_hits + 1);
}

TEST(CudaDevice, HugeAllocationRaisesOutOfMemoryWithTheRequestedSize) {
  MT_SKIP_WITHOUT_GPU();
  const std::string err = error_of([] { (void)mt::empty({int64_t{1} << 48}, kOnCuda); });  // 1 PiB of float
  EXPECT_EQ(err.rfind("CUDA out of memory. Tried to allocate 1.00 PiB", 0), 0u) << err;
  EXPECT_NO_THROW((void)mt::empty({16}, kOnCuda));  // the failure left the device usable
}

TEST(CudaDevice, CUDAGuardSetsAndRestoresTheCurrentDevice) {
  MT_SKIP_WITHOUT_GPU();
  const int original = mt::cuda::current_device();
  const int other = mt::cuda::device_count() > 1 ? 1 - (original == 1) : original;
  {
    mt::cuda::CUDAGuard guard(other);
    EXPECT_EQ(mt::cuda::current_device(), other);
    EXPECT_EQ(guard.original_device(), original);
  }
  EXPECT_EQ(mt::cuda::current_device(), original);
  const std::string err = error_of([] { mt::cuda::set_device(mt::cuda::device_count()); });
  EXPECT_NE(err.find("set_device: invalid device index"), std::string::npos) << err;
}

#else  // a build without CUDA support

// Without the backend there is no CUDA kernel for `empty` (tests/tensor/factories_test.cpp checks that
// error) and no CUDA allocator: asking for it says why.
TEST(CudaDevice, WithoutCudaSupportTheCudaAllocatorSaysSo) {
  const std::string err = error_of([] { (void)mt::get_allocator(mt::kCUDA); });
  EXPECT_NE(err.find("microtorch was built without CUDA support"), std::string::npos) << err;
  EXPECT_THROW((void)mt::empty({2}, kOnCuda), mt::NotImplementedError);
}

#endif

}  // namespace
