#pragma once
// What the CUDA tests share: skipping where no GPU can run them (with the reason), and comparing a
// result computed on the GPU with the same computation on the CPU, within a tolerance per dtype.
#include <gtest/gtest.h>

#include <microtorch/framework.h>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#ifdef MT_WITH_CUDA
#include "tensor/cuda/CUDAContext.h"
#include "ops/api/std.h"
#endif

namespace mt_test {

inline const mt::TensorOptions kOnCuda = mt::TensorOptions().device(mt::kCUDA);

// The integer dtypes beside int64, each with its own kernels' instantiations and wrapping rules.
inline const std::vector<mt::ScalarType> kNarrowIntegerTypes = {mt::kUInt8, mt::kInt8, mt::kInt16, mt::kInt32};

// `types` followed by kNarrowIntegerTypes.
inline std::vector<mt::ScalarType> with_narrow_integers(std::vector<mt::ScalarType> types) {
  types.insert(types.end(), kNarrowIntegerTypes.begin(), kNarrowIntegerTypes.end());
  return types;
}

// "" when a GPU can run CUDA tests, else why not.
inline std::string why_no_gpu() {
#ifdef MT_WITH_CUDA
  try {
    mt::cuda::check_cuda_available();
    return "";
  } catch (const mt::Error& e) {
    return std::string("no CUDA device: ") + e.what();
  }
#else
  return "microtorch was built without CUDA";
#endif
}

// The message of the mt::Error `f` raises, or "" when it raises none.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const mt::Error& e) {
    return e.what();
  }
  return "";
}

#define MT_SKIP_WITHOUT_GPU() \
  if (const std::string why = ::mt_test::why_no_gpu(); !why.empty()) GTEST_SKIP() << why

// Relative and absolute tolerance between a GPU and a CPU result of one dtype: the GPU sums in another
// order and uses other math libraries, so results agree to a few units in the last place.
inline double tolerance_for(mt::ScalarType dtype) {
  switch (dtype) {
    case mt::kFloat64:
      return 1e-10;
    case mt::kFloat32:
      return 1e-5;
    case mt::kFloat16:
      return 2e-3;
    case mt::kBFloat16:
      return 1.6e-2;
    default:
      return 0;  // bool and integers agree exactly
  }
}

// `on_cuda` is a CUDA tensor with the dtype and shape of the CPU tensor `on_cpu`, and the same values
// within tolerance_for(dtype) (relative, and absolute for values near zero; NaN where the CPU has NaN).
inline void expect_close_to_cpu(const mt::Tensor& on_cuda, const mt::Tensor& on_cpu, double tol = -1) {
  ASSERT_TRUE(on_cuda.is_cuda()) << "expected a CUDA tensor, got one on " << on_cuda.device();
  ASSERT_TRUE(on_cpu.is_cpu());
  ASSERT_EQ(on_cuda.dtype(), on_cpu.dtype());
  ASSERT_EQ(on_cuda.sizes(), on_cpu.sizes());
  if (tol < 0) tol = tolerance_for(on_cpu.dtype());
  const mt::Tensor got = on_cuda.to(mt::kCPU).to(mt::kFloat64).contiguous();
  const mt::Tensor want = on_cpu.to(mt::kFloat64).contiguous();
  const double* g = got.data_ptr<double>();
  const double* w = want.data_ptr<double>();
  for (int64_t i = 0; i < want.numel(); ++i) {
    if (std::isnan(w[i])) {
      EXPECT_TRUE(std::isnan(g[i])) << "element " << i << ": expected NaN, got " << g[i];
    } else if (std::isinf(w[i])) {
      EXPECT_EQ(g[i], w[i]) << "element " << i;
    } else {
      EXPECT_NEAR(g[i], w[i], tol * std::max(1.0, std::abs(w[i]))) << "element " << i << " of " << want.numel();
    }
  }
}

}  // namespace mt_test
