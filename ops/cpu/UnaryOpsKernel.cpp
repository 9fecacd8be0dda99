// CPU loops of the unary math ops. Contiguous runs use Eigen's array functions, which vectorise exp,
// log, log1p, sqrt, rsqrt, sin, cos, tanh and the logistic function; strided runs call <cmath>. (sqrt,
// rsqrt and log work around Eigen's inexact cases; see OpmathLoops.h.)
#include <cmath>
#include <limits>

#include "ops/UnaryOps.h"
#include "ops/cpu/OpmathLoops.h"

namespace mt {
namespace {

void neg_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "neg", [&]<typename T>() {
    unary_kernel_vec<T>(iter, [](auto x) { return -x; }, [](const auto& x) { return -x; });
  });
}

void abs_kernel(TensorIterator& iter) {
  dispatch_numeric_types(iter.common_dtype(), "abs", [&]<typename T>() {
    unary_kernel_vec<T>(iter, [](auto x) { return std::abs(x); }, [](const auto& x) { return x.abs(); });
  });
}

// -1, 0 or 1; NaN gives 0, as in PyTorch.
void sign_kernel(TensorIterator& iter) {
  if (iter.common_dtype() == kBool) {
    cpu_kernel(iter, [](bool x) -> bool { return x; });
    return;
  }
  dispatch_numeric_types(iter.common_dtype(), "sign", [&]<typename T>() {
    unary_kernel_vec<T>(
        iter,
        [](auto x) {
          using S = decltype(x);
          return static_cast<S>((S(0) < x) - (x < S(0)));
        },
        [](const auto& x) {
          using S = eigen_scalar_t<decltype(x)>;
          return (x > S(0)).template cast<S>() - (x < S(0)).template cast<S>();
        });
  });
}

void exp_kernel(TensorIterator& iter) {
  floating_unary_kernel(iter, "exp", [](auto x) { return std::exp(x); }, [](const auto& x) { return x.exp(); });
}
void log_kernel(TensorIterator& iter) {
  dispatch_floating_kernel(iter, "log", [&]<typename T>() {
    using M = opmath_t<T>;
    unary_kernel_vec_fixup<T>(
        iter, [](M x) { return std::log(x); }, [](const auto& x) { return x.log(); },
        [](M x) { return (x > M(0)) & (x < std::numeric_limits<M>::min()); });  // positive denormals
  });
}
void log1p_kernel(TensorIterator& iter) {
  floating_unary_kernel(iter, "log1p", [](auto x) { return std::log1p(x); }, [](const auto& x) { return x.log1p(); });
}
void sqrt_kernel(TensorIterator& iter) {
  dispatch_floating_kernel(iter, "sqrt", [&]<typename T>() {
    unary_kernel_vec_double_only<T>(iter, [](auto x) { return std::sqrt(x); }, [](const auto& x) { return x.sqrt(); });
  });
}
// 1 / sqrt(x) with both steps rounded, as PyTorch computes it.
void rsqrt_kernel(TensorIterator& iter) {
  dispatch_floating_kernel(iter, "rsqrt", [&]<typename T>() {
    unary_kernel_vec_double_only<T>(
        iter, [](auto x) { return decltype(x)(1) / std::sqrt(x); }, [](const auto& x) { return x.rsqrt(); });
  });
}
void sin_kernel(TensorIterator& iter) {
  floating_unary_kernel(iter, "sin", [](auto x) { return std::sin(x); }, [](const auto& x) { return x.sin(); });
}
void cos_kernel(TensorIterator& iter) {
  floating_unary_kernel(iter, "cos", [](auto x) { return std::cos(x); }, [](const auto& x) { return x.cos(); });
}
void tanh_kernel(TensorIterator& iter) {
  floating_unary_kernel(iter, "tanh", [](auto x) { return std::tanh(x); }, [](const auto& x) { return x.tanh(); });
}
void sigmoid_kernel(TensorIterator& iter) {
  floating_unary_kernel(
      iter, "sigmoid",
      [](auto x) {
        using S = decltype(x);
        return S(1) / (S(1) + std::exp(-x));
      },
      [](const auto& x) { return x.logistic(); });
}

}  // namespace

MT_REGISTER_STUB(neg_stub, kCPU, neg_kernel);
MT_REGISTER_STUB(abs_stub, kCPU, abs_kernel);
MT_REGISTER_STUB(sign_stub, kCPU, sign_kernel);
MT_REGISTER_STUB(exp_stub, kCPU, exp_kernel);
MT_REGISTER_STUB(log_stub, kCPU, log_kernel);
MT_REGISTER_STUB(log1p_stub, kCPU, log1p_kernel);
MT_REGISTER_STUB(sqrt_stub, kCPU, sqrt_kernel);
MT_REGISTER_STUB(rsqrt_stub, kCPU, rsqrt_kernel);
MT_REGISTER_STUB(sin_stub, kCPU, sin_kernel);
MT_REGISTER_STUB(cos_stub, kCPU, cos_kernel);
MT_REGISTER_STUB(tanh_stub, kCPU, tanh_kernel);
MT_REGISTER_STUB(sigmoid_stub, kCPU, sigmoid_kernel);

}  // namespace mt
