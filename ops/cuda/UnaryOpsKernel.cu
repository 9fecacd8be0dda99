// CUDA loops of the unary math ops: one functor per op, computing in opmath_t<T> (float for the 16-bit
// types), as the CPU loops do. CUDA's sqrt and division are correctly rounded, so rsqrt is 1 / sqrt(x)
// rounded twice, as on the CPU, rather than the approximate rsqrt instruction.
#include <cmath>
#include <type_traits>

#include "ops/ScalarMath.h"
#include "ops/UnaryOps.h"
#include "ops/cuda/Loops.cuh"

namespace mt {
namespace {

template <typename M>
struct NegOp {
  __device__ M operator()(M x) const { return wrapping_neg(x); }
};
template <typename M>
struct AbsOp {
  __device__ M operator()(M x) const {
    if constexpr (std::is_floating_point_v<M>)
      return std::fabs(x);
    else if constexpr (std::is_unsigned_v<M>)
      return x;
    else
      return x < M(0) ? wrapping_neg(x) : x;
  }
};
// -1, 0 or 1; NaN gives 0, as in PyTorch.
template <typename M>
struct SignOp {
  __device__ M operator()(M x) const {
    if constexpr (std::is_unsigned_v<M>)
      return static_cast<M>(x != 0);
    else
      return static_cast<M>((M(0) < x) - (x < M(0)));
  }
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

template <typename M>
struct Expm1Op {
  __device__ M operator()(M x) const { return std::expm1(x); }
};
template <typename M>
struct Exp2Op {
  __device__ M operator()(M x) const { return std::exp2(x); }
};
template <typename M>
struct Log2Op {
  __device__ M operator()(M x) const { return std::log2(x); }
};
template <typename M>
struct Log10Op {
  __device__ M operator()(M x) const { return std::log10(x); }
};
template <typename M>
struct SinhOp {
  __device__ M operator()(M x) const { return std::sinh(x); }
};
template <typename M>
struct CoshOp {
  __device__ M operator()(M x) const { return std::cosh(x); }
};
template <typename M>
struct TanOp {
  __device__ M operator()(M x) const { return std::tan(x); }
};
template <typename M>
struct SincOp {
  __device__ M operator()(M x) const { return sinc(x); }
};
template <typename M>
struct AsinOp {
  __device__ M operator()(M x) const { return std::asin(x); }
};
template <typename M>
struct AcosOp {
  __device__ M operator()(M x) const { return std::acos(x); }
};
template <typename M>
struct AtanOp {
  __device__ M operator()(M x) const { return std::atan(x); }
};
template <typename M>
struct AsinhOp {
  __device__ M operator()(M x) const { return std::asinh(x); }
};
template <typename M>
struct AcoshOp {
  __device__ M operator()(M x) const { return std::acosh(x); }
};
template <typename M>
struct AtanhOp {
  __device__ M operator()(M x) const { return std::atanh(x); }
};
template <typename M>
struct ErfOp {
  __device__ M operator()(M x) const { return std::erf(x); }
};
template <typename M>
struct ErfcOp {
  __device__ M operator()(M x) const { return std::erfc(x); }
};
template <typename M>
struct ErfinvOp {
  __device__ M operator()(M x) const { return inverse_erf(x); }
};
template <typename M>
struct ReciprocalOp {
  __device__ M operator()(M x) const { return M(1) / x; }
};

// Rounding: integers are their own floor, ceil, trunc and round; nearest is half to even, as PyTorch.
enum class Rounding { Floor, Ceil, Trunc, Nearest };
template <typename M, Rounding R>
struct RoundingOp {
  __device__ M operator()(M x) const {
    if constexpr (!std::is_floating_point_v<M>) return x;
    else if constexpr (R == Rounding::Floor) return std::floor(x);
    else if constexpr (R == Rounding::Ceil) return std::ceil(x);
    else if constexpr (R == Rounding::Trunc) return std::trunc(x);
    else return std::nearbyint(x);
  }
};
template <typename M>
struct FracOp {
  __device__ M operator()(M x) const { return x - std::trunc(x); }
};
template <typename M>
struct RoundDecimalsOp {
  M scale;
  bool negative;
  __device__ M operator()(M x) const { return negative ? std::nearbyint(x / scale) * scale : std::nearbyint(x * scale) / scale; }
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
template <Rounding R>
void rounding_kernel(TensorIterator& iter, const char* name) {
  dispatch_numeric_types(iter.common_dtype(), name,
                         [&]<typename T>() { cuda::gpu_kernel_same_type<T>(iter, RoundingOp<opmath_t<T>, R>{}); });
}
void floor_kernel(TensorIterator& iter) { rounding_kernel<Rounding::Floor>(iter, "floor"); }
void ceil_kernel(TensorIterator& iter) { rounding_kernel<Rounding::Ceil>(iter, "ceil"); }
void trunc_kernel(TensorIterator& iter) { rounding_kernel<Rounding::Trunc>(iter, "trunc"); }
void round_kernel(TensorIterator& iter) { rounding_kernel<Rounding::Nearest>(iter, "round"); }
void frac_kernel(TensorIterator& iter) { floating_kernel<FracOp>(iter, "frac"); }
void round_decimals_kernel(TensorIterator& iter, int64_t decimals) {
  dispatch_floating_types(iter.common_dtype(), "round", [&]<typename T>() {
    using M = opmath_t<T>;
    const M scale = static_cast<M>(std::pow(10.0, static_cast<double>(decimals < 0 ? -decimals : decimals)));
    cuda::gpu_kernel_same_type<T>(iter, RoundDecimalsOp<M>{scale, decimals < 0});
  });
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
void expm1_kernel(TensorIterator& iter) { floating_kernel<Expm1Op>(iter, "expm1"); }
void exp2_kernel(TensorIterator& iter) { floating_kernel<Exp2Op>(iter, "exp2"); }
void log2_kernel(TensorIterator& iter) { floating_kernel<Log2Op>(iter, "log2"); }
void log10_kernel(TensorIterator& iter) { floating_kernel<Log10Op>(iter, "log10"); }
void sinh_kernel(TensorIterator& iter) { floating_kernel<SinhOp>(iter, "sinh"); }
void cosh_kernel(TensorIterator& iter) { floating_kernel<CoshOp>(iter, "cosh"); }
void tan_kernel(TensorIterator& iter) { floating_kernel<TanOp>(iter, "tan"); }
void sinc_kernel(TensorIterator& iter) { floating_kernel<SincOp>(iter, "sinc"); }
void asin_kernel(TensorIterator& iter) { floating_kernel<AsinOp>(iter, "asin"); }
void acos_kernel(TensorIterator& iter) { floating_kernel<AcosOp>(iter, "acos"); }
void atan_kernel(TensorIterator& iter) { floating_kernel<AtanOp>(iter, "atan"); }
void asinh_kernel(TensorIterator& iter) { floating_kernel<AsinhOp>(iter, "asinh"); }
void acosh_kernel(TensorIterator& iter) { floating_kernel<AcoshOp>(iter, "acosh"); }
void atanh_kernel(TensorIterator& iter) { floating_kernel<AtanhOp>(iter, "atanh"); }
void erf_kernel(TensorIterator& iter) { floating_kernel<ErfOp>(iter, "erf"); }
void erfc_kernel(TensorIterator& iter) { floating_kernel<ErfcOp>(iter, "erfc"); }
void erfinv_kernel(TensorIterator& iter) { floating_kernel<ErfinvOp>(iter, "erfinv"); }
void reciprocal_kernel(TensorIterator& iter) { floating_kernel<ReciprocalOp>(iter, "reciprocal"); }

}  // namespace

MT_REGISTER_STUB(neg_stub, kCUDA, neg_kernel);
MT_REGISTER_STUB(abs_stub, kCUDA, abs_kernel);
MT_REGISTER_STUB(sign_stub, kCUDA, sign_kernel);
MT_REGISTER_STUB(floor_stub, kCUDA, floor_kernel);
MT_REGISTER_STUB(ceil_stub, kCUDA, ceil_kernel);
MT_REGISTER_STUB(trunc_stub, kCUDA, trunc_kernel);
MT_REGISTER_STUB(round_stub, kCUDA, round_kernel);
MT_REGISTER_STUB(frac_stub, kCUDA, frac_kernel);
MT_REGISTER_STUB(round_decimals_stub, kCUDA, round_decimals_kernel);
MT_REGISTER_STUB(exp_stub, kCUDA, exp_kernel);
MT_REGISTER_STUB(log_stub, kCUDA, log_kernel);
MT_REGISTER_STUB(log1p_stub, kCUDA, log1p_kernel);
MT_REGISTER_STUB(sqrt_stub, kCUDA, sqrt_kernel);
MT_REGISTER_STUB(rsqrt_stub, kCUDA, rsqrt_kernel);
MT_REGISTER_STUB(sin_stub, kCUDA, sin_kernel);
MT_REGISTER_STUB(cos_stub, kCUDA, cos_kernel);
MT_REGISTER_STUB(tanh_stub, kCUDA, tanh_kernel);
MT_REGISTER_STUB(sigmoid_stub, kCUDA, sigmoid_kernel);
MT_REGISTER_STUB(expm1_stub, kCUDA, expm1_kernel);
MT_REGISTER_STUB(exp2_stub, kCUDA, exp2_kernel);
MT_REGISTER_STUB(log2_stub, kCUDA, log2_kernel);
MT_REGISTER_STUB(log10_stub, kCUDA, log10_kernel);
MT_REGISTER_STUB(sinh_stub, kCUDA, sinh_kernel);
MT_REGISTER_STUB(cosh_stub, kCUDA, cosh_kernel);
MT_REGISTER_STUB(tan_stub, kCUDA, tan_kernel);
MT_REGISTER_STUB(sinc_stub, kCUDA, sinc_kernel);
MT_REGISTER_STUB(asin_stub, kCUDA, asin_kernel);
MT_REGISTER_STUB(acos_stub, kCUDA, acos_kernel);
MT_REGISTER_STUB(atan_stub, kCUDA, atan_kernel);
MT_REGISTER_STUB(asinh_stub, kCUDA, asinh_kernel);
MT_REGISTER_STUB(acosh_stub, kCUDA, acosh_kernel);
MT_REGISTER_STUB(atanh_stub, kCUDA, atanh_kernel);
MT_REGISTER_STUB(erf_stub, kCUDA, erf_kernel);
MT_REGISTER_STUB(erfc_stub, kCUDA, erfc_kernel);
MT_REGISTER_STUB(erfinv_stub, kCUDA, erfinv_kernel);
MT_REGISTER_STUB(reciprocal_stub, kCUDA, reciprocal_kernel);

}  // namespace mt
