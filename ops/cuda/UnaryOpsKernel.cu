// CUDA loops of the unary math ops: one functor per op, computing in opmath_t<T> (float for the 16-bit
// types), as the CPU loops do. CUDA's sqrt and division are correctly rounded, so rsqrt is 1 / sqrt(x)
// rounded twice, as on the CPU, rather than the approximate rsqrt instruction.
#include <cmath>

#include "ops/UnaryOps.h"
#include "ops/cuda/Loops.cuh"

namespace mt {
namespace {

template <typename M>
struct NegOp {
  __device__ M operator()(M x) const { return -x; }
};
template <typename M>
struct AbsOp {
  __device__ M operator()(M x) const {
    if constexpr (std::is_floating_point_v<M>)
      return std::fabs(x);
    else
      return x < M(0) ? -x : x;
  }
};
// -1, 0 or 1; NaN gives 0, as in PyTorch.
template <typename M>
struct SignOp {
  __device__ M operator()(M x) const { return static_cast<M>((M(0) < x) - (x < M(0))); }
};
template <typename M>
struct ExpOp {
  __device__ M operator()(M x) const { return std::exp(x); }
};
template <typename M>
struct LogOp {
  __device__ M operator()(M x) const { return std::log(x); }
};
template <typename M>
struct Log1pOp {
  __device__ M operator()(M x) const { return std::log1p(x); }
};
template <typename M>
struct SqrtOp {
  __device__ M operator()(M x) const { return std::sqrt(x); }
};
template <typename M>
struct RsqrtOp {
  __device__ M operator()(M x) const { return M(1) / std::sqrt(x); }
};
template <typename M>
struct SinOp {
  __device__ M operator()(M x) const { return std::sin(x); }
};
template <typename M>
struct CosOp {
  __device__ M operator()(M x) const { return std::cos(x); }
};
template <typename M>
struct TanhOp {
  __device__ M operator()(M x) const { return std::tanh(x); }
};
template <typename M>
struct SigmoidOp {
  __device__ M operator()(M x) const { return M(1) / (M(1) + std::exp(-x)); }
};

template <template <typename> class Op>
void numeric_kernel(TensorIterator& iter, const char* name) {
  dispatch_numeric_types(iter.common_dtype(), name,
                         [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, Op<opmath_t<T>>{}); });
}
// Integer and bool inputs arrive converted to the default float.
template <template <typename> class Op>
void floating_kernel(TensorIterator& iter, const char* name) {
  dispatch_floating_types(iter.common_dtype(), name,
                          [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, Op<opmath_t<T>>{}); });
}

struct BoolIdentityOp {
  __device__ bool operator()(bool x) const { return x; }
};

void neg_kernel(TensorIterator& iter) { numeric_kernel<NegOp>(iter, "neg"); }
void abs_kernel(TensorIterator& iter) { numeric_kernel<AbsOp>(iter, "abs"); }
void sign_kernel(TensorIterator& iter) {
  if (iter.common_dtype() == kBool) return cuda::gpu_kernel<bool, bool>(iter, BoolIdentityOp{});
  numeric_kernel<SignOp>(iter, "sign");
}
void exp_kernel(TensorIterator& iter) { floating_kernel<ExpOp>(iter, "exp"); }
void log_kernel(TensorIterator& iter) { floating_kernel<LogOp>(iter, "log"); }
void log1p_kernel(TensorIterator& iter) { floating_kernel<Log1pOp>(iter, "log1p"); }
void sqrt_kernel(TensorIterator& iter) { floating_kernel<SqrtOp>(iter, "sqrt"); }
void rsqrt_kernel(TensorIterator& iter) { floating_kernel<RsqrtOp>(iter, "rsqrt"); }
void sin_kernel(TensorIterator& iter) { floating_kernel<SinOp>(iter, "sin"); }
void cos_kernel(TensorIterator& iter) { floating_kernel<CosOp>(iter, "cos"); }
void tanh_kernel(TensorIterator& iter) { floating_kernel<TanhOp>(iter, "tanh"); }
void sigmoid_kernel(TensorIterator& iter) { floating_kernel<SigmoidOp>(iter, "sigmoid"); }

}  // namespace

MT_REGISTER_STUB(neg_stub, kCUDA, neg_kernel);
MT_REGISTER_STUB(abs_stub, kCUDA, abs_kernel);
MT_REGISTER_STUB(sign_stub, kCUDA, sign_kernel);
MT_REGISTER_STUB(exp_stub, kCUDA, exp_kernel);
MT_REGISTER_STUB(log_stub, kCUDA, log_kernel);
MT_REGISTER_STUB(log1p_stub, kCUDA, log1p_kernel);
MT_REGISTER_STUB(sqrt_stub, kCUDA, sqrt_kernel);
MT_REGISTER_STUB(rsqrt_stub, kCUDA, rsqrt_kernel);
MT_REGISTER_STUB(sin_stub, kCUDA, sin_kernel);
MT_REGISTER_STUB(cos_stub, kCUDA, cos_kernel);
MT_REGISTER_STUB(tanh_stub, kCUDA, tanh_kernel);
MT_REGISTER_STUB(sigmoid_stub, kCUDA, sigmoid_kernel);

}  // namespace mt
