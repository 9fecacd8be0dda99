// The CPU pointwise kernels against a long-double reference: special values (inf, NaN, -0, denormals,
// the edges of exp's range), integer wrap-around and bool arithmetic, exactly where IEEE or PyTorch
// define the result and within a stated ulp bound for the transcendental functions, on the vectorised
// (contiguous), strided and in-place paths. tests/CMakeLists.txt builds this file against the library's
// own kernels and once per x86-64 level the machine runs, with that level's copy of the kernels.
#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ops/BinaryOps.h"
#include "ops/Factories.h"
#include "ops/api/abs.h"
#include "ops/api/add.h"
#include "ops/api/amax.h"
#include "ops/api/amin.h"
#include "ops/api/atan2.h"
#include "ops/api/copysign.h"
#include "ops/api/cos.h"
#include "ops/api/div.h"
#include "ops/api/empty.h"
#include "ops/api/exp.h"
#include "ops/api/fmod.h"
#include "ops/api/full.h"
#include "ops/api/gelu.h"
#include "ops/api/hypot.h"
#include "ops/api/log.h"
#include "ops/api/log1p.h"
#include "ops/api/log_softmax.h"
#include "ops/api/logsumexp.h"
#include "ops/api/max.h"
#include "ops/api/maximum.h"
#include "ops/api/min.h"
#include "ops/api/mul.h"
#include "ops/api/neg.h"
#include "ops/api/ones.h"
#include "ops/api/pow.h"
#include "ops/api/relu.h"
#include "ops/api/rsqrt.h"
#include "ops/api/sigmoid.h"
#include "ops/api/silu.h"
#include "ops/api/sin.h"
#include "ops/api/softmax.h"
#include "ops/api/sqrt.h"
#include "ops/api/std.h"
#include "ops/api/sub.h"
#include "ops/api/sum.h"
#include "ops/api/tanh.h"
#include "ops/api/zeros.h"
#include "ops/TensorOperators.h"
#include "tensor/DtypeDispatch.h"

namespace {

using namespace mt;

using Ref = std::function<long double(long double)>;

// g++ 12.2 built for AVX-512 turns a 32-byte copy of {1, 1, 1, 0} into a broadcast of 1.0 unless the build
// works around it (cmake/WideConstantCheck.cmake); this file is compiled as every test program is.
__attribute__((noinline)) std::vector<double> wide_constant() { return {1, 1, 1, 0}; }
__attribute__((noinline)) std::vector<int64_t> wider_constant() { return {7, 7, 7, 7, 7, 7, 7, 0}; }

template <typename T>
constexpr ScalarType dtype_of() {
  return scalar_type_of<T>;
}

template <typename T>
double as_double(T x) {
  return static_cast<double>(static_cast<opmath_t<T>>(x));
}

// Inputs every unary op meets: signed zeros, infinities, NaN, denormals, the largest values, the edges
// of exp's range in both precisions, perfect squares, and a seeded sweep over many magnitudes.
template <typename T>
std::vector<T> unary_inputs() {
  using M = opmath_t<T>;
  using L = std::numeric_limits<T>;
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> v = {0.0, -0.0, 1, -1, 0.5, -0.5, 2, 3, 10, -10, 20, -20, 49, 1e-3, -1e-3, 1e-8, 1e-30,
                           1e-40, -1e-40, 86.9, 87.2, -87.2, 87.5, -87.5, 88.2, 88.5, 88.7, -88.5, -88.7, -100,
                           -103, -104, 100, 708.2, -708.2, 709.5, -709.5, -740, -745, 800, -800, 1e10, -1e10, 1e30,
                           inf, -inf, std::numeric_limits<double>::quiet_NaN()};
  for (T special : {L::denorm_min(), L::min(), static_cast<T>(M(L::min()) / M(3)), L::max(), L::lowest()}) {
    v.push_back(as_double(special));
  }
  for (int i = 1; i <= 40; ++i) v.push_back(double(i) * i);
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> uniform(-20, 20), exponent(-45, 12);
  for (int i = 0; i < 600; ++i) v.push_back(uniform(gen));
  for (int i = 0; i < 600; ++i) v.push_back((i % 2 ? 1 : -1) * std::pow(10.0, exponent(gen)));
  std::vector<T> out;
  for (double x : v) out.push_back(static_cast<T>(static_cast<M>(x)));
  return out;
}

template <typename T>
Tensor make_tensor(const std::vector<T>& v) {
  Tensor t = empty({static_cast<int64_t>(v.size())}, TensorOptions(dtype_of<T>()));
  std::memcpy(t.data_ptr(), v.data(), v.size() * sizeof(T));
  return t;
}

// The same values every other element of a buffer twice as long: the kernels' strided loop.
template <typename T>
Tensor make_strided(const std::vector<T>& v) {
  const int64_t n = static_cast<int64_t>(v.size());
  Tensor wide = zeros({2 * n}, TensorOptions(dtype_of<T>()));
  Tensor s = wide.as_strided({n}, {2});
  s.copy_(make_tensor(v));
  return s;
}

template <typename T>
std::vector<T> read(const Tensor& t) {
  const Tensor c = t.contiguous();
  std::vector<T> out(c.numel());
  std::memcpy(out.data(), c.data_ptr(), out.size() * sizeof(T));
  return out;
}

// The spacing of T's values at |x| (denormal spacing below the smallest normal).
template <typename T>
long double ulp_at(long double x) {
  using M = opmath_t<T>;
  constexpr int digits = std::is_same_v<T, Half> ? 11 : std::is_same_v<T, BFloat16> ? 8 : std::numeric_limits<M>::digits;
  constexpr int min_exp = std::is_same_v<T, Half> ? -14 : std::numeric_limits<M>::min_exponent - 1;
  const int e = x == 0 ? min_exp : std::max(std::ilogb(x), min_exp);
  return std::ldexp(1.0L, e - digits + 1);
}

// Whether `got` is within `max_ulp` of the exact value (rounded to T's range: a finite exact value past
// T's largest is an infinity). NaN must give NaN, infinities and zeros must match with their signs.
template <typename T>
::testing::AssertionResult within_ulp(T got_t, long double exact, double max_ulp, long double x) {
  const long double got = as_double(got_t);
  const long double top = as_double(std::numeric_limits<T>::max());
  const long double rounded = std::fabs(exact) > top + ulp_at<T>(top) / 2 ? std::copysign(INFINITY, exact) : exact;
  auto fail = [&] {
    return ::testing::AssertionFailure() << "at x = " << static_cast<double>(x) << ": got " << static_cast<double>(got)
                                         << ", exact " << static_cast<double>(exact) << " (bound " << max_ulp << " ulp)";
  };
  if (std::isnan(rounded)) return std::isnan(got) ? ::testing::AssertionSuccess() : fail();
  if (std::isnan(got) || std::isinf(got) || std::isinf(rounded)) {
    return got == rounded ? ::testing::AssertionSuccess() : fail();
  }
  if (rounded == 0 && got == 0 && std::signbit(got) != std::signbit(rounded)) return fail();
  return std::fabs(got - rounded) <= max_ulp * ulp_at<T>(rounded) ? ::testing::AssertionSuccess() : fail();
}

struct UnaryOp {
  const char* name;
  std::function<Tensor(const Tensor&)> fn;
  std::function<void(Tensor&)> fn_;
  Ref ref;
  double ulp_float, ulp_double;  // bounds for float32 and float64; 16-bit types get 1 ulp of their own
};

const std::vector<UnaryOp>& unary_ops() {
  static const std::vector<UnaryOp> ops = {
      {"neg", [](const Tensor& t) { return mt::neg(t); }, [](Tensor& t) { t.neg_(); },
       [](long double x) { return -x; }, 0, 0},
      {"abs", [](const Tensor& t) { return mt::abs(t); }, [](Tensor& t) { t.abs_(); },
       [](long double x) { return std::fabs(x); }, 0, 0},
      {"sqrt", [](const Tensor& t) { return mt::sqrt(t); }, [](Tensor& t) { t.sqrt_(); },
       [](long double x) { return std::sqrt(x); }, 0.5, 0.5},
      {"rsqrt", [](const Tensor& t) { return mt::rsqrt(t); }, [](Tensor& t) { t.rsqrt_(); },
       [](long double x) { return 1 / std::sqrt(x); }, 1, 1},
      {"pow(x, 0.5)", [](const Tensor& t) { return mt::pow(t, 0.5); }, [](Tensor& t) { t.pow_(0.5); },
       [](long double x) { return std::sqrt(x); }, 0.5, 0.5},
      {"pow(x, -0.5)", [](const Tensor& t) { return mt::pow(t, -0.5); }, [](Tensor& t) { t.pow_(-0.5); },
       [](long double x) { return 1 / std::sqrt(x); }, 1, 1},
      {"pow(x, -1)", [](const Tensor& t) { return mt::pow(t, -1); }, [](Tensor& t) { t.pow_(-1); },
       [](long double x) { return 1 / x; }, 0.5, 0.5},
      {"pow(x, 2)", [](const Tensor& t) { return mt::pow(t, 2); }, [](Tensor& t) { t.pow_(2); },
       [](long double x) { return x * x; }, 0.5, 0.5},
      {"pow(x, 1.5)", [](const Tensor& t) { return mt::pow(t, 1.5); }, [](Tensor& t) { t.pow_(1.5); },
       [](long double x) { return std::pow(x, 1.5L); }, 1, 1},
      {"exp", [](const Tensor& t) { return mt::exp(t); }, [](Tensor& t) { t.exp_(); },
       [](long double x) { return std::exp(x); }, 2, 2},
      {"log", [](const Tensor& t) { return mt::log(t); }, [](Tensor& t) { t.log_(); },
       [](long double x) { return std::log(x); }, 2, 2},
      {"log1p", [](const Tensor& t) { return mt::log1p(t); }, [](Tensor& t) { t.log1p_(); },
       [](long double x) { return std::log1p(x); }, 3, 2},
      {"sin", [](const Tensor& t) { return mt::sin(t); }, [](Tensor& t) { t.sin_(); },
       [](long double x) { return std::sin(x); }, 2, 2},
      {"cos", [](const Tensor& t) { return mt::cos(t); }, [](Tensor& t) { t.cos_(); },
       [](long double x) { return std::cos(x); }, 2, 2},
      {"tanh", [](const Tensor& t) { return mt::tanh(t); }, [](Tensor& t) { t.tanh_(); },
       [](long double x) { return std::tanh(x); }, 6, 2},
      {"sigmoid", [](const Tensor& t) { return mt::sigmoid(t); }, [](Tensor& t) { t.sigmoid_(); },
       [](long double x) { return 1 / (1 + std::exp(-x)); }, 6, 3},
      {"relu", [](const Tensor& t) { return mt::relu(t); }, [](Tensor& t) { t.relu_(); },
       [](long double x) { return std::isnan(x) ? x : x < 0 ? 0.0L : x; }, 0, 0},
  };
  return ops;
}

template <typename T>
double ulp_bound(const UnaryOp& op) {
  if constexpr (std::is_same_v<T, float>) return op.ulp_float;
  else if constexpr (std::is_same_v<T, double>) return op.ulp_double;
  else return op.ulp_float == 0 ? 0 : 1;  // computed in float, rounded once
}

template <typename T>
void check_unary(const UnaryOp& op) {
  SCOPED_TRACE(::testing::Message() << op.name << " on " << dtype_of<T>() << " (" << MT_ISA_LEVEL << ")");
  const std::vector<T> in = unary_inputs<T>();
  // rsqrt rounds twice (1 / sqrt(x), as PyTorch): its reference is the scalar computation in T's opmath.
  const std::string name = op.name;
  const bool two_roundings = name == "rsqrt" || name == "pow(x, -0.5)", squared = name == "pow(x, 2)";
  auto exact = [&](T x) -> long double {
    using M = opmath_t<T>;
    const M xm = static_cast<M>(x);
    if (two_roundings) return M(1) / std::sqrt(xm);
    if (squared) return static_cast<long double>(xm * xm);
    return op.ref(static_cast<long double>(xm));
  };
  const double bound = ulp_bound<T>(op);
  const std::vector<T> contiguous = read<T>(op.fn(make_tensor(in)));
  const std::vector<T> strided = read<T>(op.fn(make_strided(in)));
  Tensor in_place = make_tensor(in);
  op.fn_(in_place);
  const std::vector<T> in_place_values = read<T>(in_place);
  int failures = 0;
  for (size_t i = 0; i < in.size() && failures < 10; ++i) {
    const long double e = exact(in[i]);
    for (const std::vector<T>* got : {&contiguous, &strided, &in_place_values}) {
      auto r = within_ulp<T>((*got)[i], e, bound, as_double(in[i]));
      if (!r) ++failures;
      EXPECT_TRUE(r) << (got == &contiguous ? "contiguous" : got == &strided ? "strided" : "in place");
    }
  }
}

TEST(SpecialValues, WideConstantsSurviveTheCompiler) {
  EXPECT_EQ(wide_constant(), (std::vector<double>{1, 1, 1, 0}));
  EXPECT_EQ(wide_constant()[3], 0.0);
  EXPECT_EQ(wider_constant()[7], 0);
}

TEST(SpecialValues, UnaryOpsOnEveryPathAndFloatingDtype) {
  for (const UnaryOp& op : unary_ops()) {
    check_unary<float>(op);
    check_unary<double>(op);
    check_unary<Half>(op);
    check_unary<BFloat16>(op);
  }
}

TEST(SpecialValues, SiluAndGeluKeepTheirSpecialValues) {
  for (ScalarType dt : {kFloat32, kFloat64}) {
    SCOPED_TRACE(::testing::Message() << dt << " (" << MT_ISA_LEVEL << ")");
    const double inf = std::numeric_limits<double>::infinity();
    // Repeated so that the vectorised body and the scalar tail both see each value.
    std::vector<double> v;
    for (int k = 0; k < 5; ++k) {
      for (double x : {0.0, -0.0, 1.0, -1.0, 20.0, -20.0, -88.5, -100.0, -750.0, inf, -inf}) v.push_back(x);
    }
    const Tensor x = mt::tensor(v, TensorOptions(dt));
    const Tensor silu = mt::silu(x).to(kFloat64), gelu = mt::gelu(x).to(kFloat64);
    for (size_t i = 0; i < v.size(); ++i) {
      // PyTorch's x / (1 + exp(-x)) in the dtype: -0 where exp(-x) overflows, NaN at -inf.
      const double s = dt == kFloat32 ? static_cast<double>(static_cast<float>(v[i]) / (1 + std::exp(-static_cast<float>(v[i]))))
                                      : v[i] / (1 + std::exp(-v[i]));
      const double got = silu.data_ptr<double>()[i];
      if (std::isnan(s)) {
        EXPECT_TRUE(std::isnan(got)) << "silu(" << v[i] << ")";
      } else if (std::isinf(s)) {
        EXPECT_EQ(got, s) << "silu(" << v[i] << ")";
      } else {
        EXPECT_NEAR(got, s, 6 * std::fabs(s) * (dt == kFloat32 ? 1.2e-7 : 2.3e-16)) << "silu(" << v[i] << ")";
      }
      if (s == 0) {
        EXPECT_EQ(std::signbit(got), std::signbit(s)) << "silu(" << v[i] << ")";
      }
    }
    const double* g = gelu.data_ptr<double>();
    EXPECT_EQ(g[9], inf);
    EXPECT_TRUE(std::isnan(g[10]));  // -inf * Phi(-inf) = -inf * 0, as PyTorch's formula gives
    EXPECT_EQ(g[0], 0.0);
    EXPECT_TRUE(std::signbit(g[1]));  // gelu(-0) = -0
  }
}

// The special values of the binary arithmetic and math ops, for every pair: exactly IEEE's result (x + y in
// the opmath type, rounded once) or the C library's, on the vectorised and strided paths.
template <typename T>
void check_binary_pairs() {
  using M = opmath_t<T>;
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> specials = {0.0, -0.0, 1, -1, 3, -0.1, 1e-40, 1e-310, 65504, 1e38, inf, -inf,
                                  std::numeric_limits<double>::quiet_NaN(),
                                  as_double(std::numeric_limits<T>::max()), as_double(std::numeric_limits<T>::min())};
  std::vector<T> a, b;
  for (double x : specials) {
    for (double y : specials) {
      a.push_back(static_cast<T>(static_cast<M>(x)));
      b.push_back(static_cast<T>(static_cast<M>(y)));
    }
  }
  struct Case {
    const char* name;
    std::function<Tensor(const Tensor&, const Tensor&)> fn;
    std::function<M(M, M)> ref;
  };
  const Case cases[] = {
      {"add", [](const Tensor& x, const Tensor& y) { return mt::add(x, y); }, [](M x, M y) { return x + y; }},
      {"sub", [](const Tensor& x, const Tensor& y) { return mt::sub(x, y); }, [](M x, M y) { return x - y; }},
      {"add alpha", [](const Tensor& x, const Tensor& y) { return mt::add(x, y, 0.1); },
       [](M x, M y) { return x + static_cast<M>(0.1) * y; }},
      {"mul", [](const Tensor& x, const Tensor& y) { return mt::mul(x, y); }, [](M x, M y) { return x * y; }},
      {"div", [](const Tensor& x, const Tensor& y) { return mt::div(x, y); }, [](M x, M y) { return x / y; }},
      {"maximum", [](const Tensor& x, const Tensor& y) { return mt::maximum(x, y); },
       [](M x, M y) { return std::isnan(x) || std::isnan(y) ? std::numeric_limits<M>::quiet_NaN() : std::max(x, y); }},
      // The C library's functions, which a vectorised loop must not replace with approximations.
      {"atan2", [](const Tensor& x, const Tensor& y) { return mt::atan2(x, y); }, [](M x, M y) { return std::atan2(x, y); }},
      {"hypot", [](const Tensor& x, const Tensor& y) { return mt::hypot(x, y); }, [](M x, M y) { return std::hypot(x, y); }},
      {"copysign", [](const Tensor& x, const Tensor& y) { return mt::copysign(x, y); },
       [](M x, M y) { return std::copysign(x, y); }},
      {"fmod", [](const Tensor& x, const Tensor& y) { return mt::fmod(x, y); }, [](M x, M y) { return std::fmod(x, y); }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << c.name << " on " << dtype_of<T>() << " (" << MT_ISA_LEVEL << ")");
    const std::vector<T> contiguous = read<T>(c.fn(make_tensor(a), make_tensor(b)));
    const std::vector<T> strided = read<T>(c.fn(make_strided(a), make_strided(b)));
    int failures = 0;
    for (size_t i = 0; i < a.size() && failures < 10; ++i) {
      const T expected = static_cast<T>(c.ref(static_cast<M>(a[i]), static_cast<M>(b[i])));
      for (const std::vector<T>* got : {&contiguous, &strided}) {
        const double g = as_double((*got)[i]), e = as_double(expected);
        const bool same = (std::isnan(g) && std::isnan(e)) ||
                          (g == e && (std::string(c.name) == "maximum" || std::signbit(g) == std::signbit(e)));
        if (!same) ++failures;
        EXPECT_TRUE(same) << as_double(a[i]) << ", " << as_double(b[i]) << ": got " << g << ", expected " << e
                          << (got == &contiguous ? " (contiguous)" : " (strided)");
      }
    }
  }
}

TEST(SpecialValues, BinaryArithmeticIsExactForEveryPair) {
  check_binary_pairs<float>();
  check_binary_pairs<double>();
  check_binary_pairs<Half>();
  check_binary_pairs<BFloat16>();
}

// 130 elements: the vectorised body (32 int8 lanes in an AVX2 register) and its tail.
template <typename T>
void check_integer_wrapping() {
  constexpr T kMax = std::numeric_limits<T>::max(), kMin = std::numeric_limits<T>::min();
  constexpr int64_t n = 130;
  const TensorOptions options(dtype_of<T>());
  const std::vector<T> maxes(n, kMax), ones(n, 1), mins(n, kMin);
  const Tensor ta = make_tensor(maxes), tb = make_tensor(ones);
  const auto all_equal = [](const Tensor& t, T expected) {
    for (T v : read<T>(t)) EXPECT_EQ(v, expected) << t.dtype();
  };
  all_equal(mt::add(ta, tb), kMin);
  all_equal(mt::add(make_strided(maxes), make_strided(ones)), kMin);
  all_equal(mt::mul(ta, mt::full({n}, 2, options)), static_cast<T>(-2));  // 2 * MAX wraps to -2
  all_equal(mt::sub(make_tensor(mins), tb), kMax);
  all_equal(mt::neg(make_strided(ones)), static_cast<T>(-1));
  if constexpr (std::is_signed_v<T>) {
    all_equal(mt::sub(mt::neg(ta), mt::full({n}, 2, options)), kMax);
    all_equal(mt::neg(make_strided(mins)), kMin);
    all_equal(mt::abs(make_strided(mins)), kMin);
    all_equal(mt::abs(make_tensor(mins)), kMin);
    all_equal(mt::div(make_tensor(mins), mt::full({n}, -1, options), "floor"), kMin);
    all_equal(mt::div(make_tensor(mins), mt::full({n}, -1, options), "trunc"), kMin);
  }
}

TEST(SpecialValues, IntegerArithmeticWrapsAround) {
  check_integer_wrapping<int64_t>();
  check_integer_wrapping<int32_t>();
  check_integer_wrapping<int16_t>();
  check_integer_wrapping<int8_t>();
  check_integer_wrapping<uint8_t>();
}

// A vectorised shift could take the hardware's meaning past the width (x86 masks or saturates the
// amount); PyTorch's gives 0, or the sign for a right shift. 130 elements of every amount from below 0
// to past the width, contiguous and strided, against the scalar definition computed in int64.
template <typename T>
void check_bitwise_ops() {
  constexpr int bits = sizeof(T) * 8, lowest_amount = std::is_signed_v<T> ? -2 : 0;
  constexpr int64_t n = 130;
  std::vector<T> a, s;
  for (int64_t i = 0; i < n; ++i) {
    a.push_back(static_cast<T>(i % 3 == 0 ? std::numeric_limits<T>::min() + i : std::numeric_limits<T>::max() - i));
    s.push_back(static_cast<T>(lowest_amount + i % (bits + 3 - lowest_amount)));
  }
  const auto left = [](int64_t x, int64_t k) -> T {
    return k < 0 || k >= bits ? T(0) : static_cast<T>(static_cast<uint64_t>(x) << k);
  };
  const auto right = [](int64_t x, int64_t k) -> T {
    const int64_t max_shift = bits - (std::is_signed_v<T> ? 1 : 0);
    return static_cast<T>(k < 0 || k >= max_shift ? (x < 0 ? -1 : 0) : x >> k);
  };
  for (bool strided : {false, true}) {
    const Tensor ta = strided ? make_strided(a) : make_tensor(a), ts = strided ? make_strided(s) : make_tensor(s);
    const std::vector<T> shl = read<T>(ta << ts), shr = read<T>(ta >> ts), x = read<T>(ta ^ ts), inv = read<T>(~ta);
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(shl[i], left(a[i], s[i])) << +a[i] << " << " << +s[i];
      EXPECT_EQ(shr[i], right(a[i], s[i])) << +a[i] << " >> " << +s[i];
      EXPECT_EQ(x[i], static_cast<T>(a[i] ^ s[i]));
      EXPECT_EQ(inv[i], static_cast<T>(~a[i]));
    }
  }
}

TEST(SpecialValues, ShiftsPastTheWidthFollowPyTorch) {
  check_bitwise_ops<int64_t>();
  check_bitwise_ops<int32_t>();
  check_bitwise_ops<int16_t>();
  check_bitwise_ops<int8_t>();
  check_bitwise_ops<uint8_t>();
}

TEST(SpecialValues, BoolArithmeticIsLogicalOnEveryPath) {
  std::vector<uint8_t> x, y;
  for (int i = 0; i < 70; ++i) {
    x.push_back(i % 2);
    y.push_back((i / 2) % 2);
  }
  auto as_bool = [](const std::vector<uint8_t>& v) {
    Tensor t = empty({static_cast<int64_t>(v.size())}, TensorOptions(kBool));
    std::memcpy(t.data_ptr(), v.data(), v.size());
    return t;
  };
  const Tensor a = as_bool(x), b = as_bool(y);
  const Tensor sum = mt::add(a, b), product = mt::mul(a, b), scaled = mt::add(a, b, true);
  const Tensor strided_sum = mt::add(a.as_strided({35}, {2}), b.as_strided({35}, {2}));
  for (int i = 0; i < 70; ++i) {
    EXPECT_EQ(read<uint8_t>(sum)[i], x[i] | y[i]) << i;
    EXPECT_EQ(read<uint8_t>(scaled)[i], x[i] | y[i]) << i;
    EXPECT_EQ(read<uint8_t>(product)[i], x[i] & y[i]) << i;
    if (i < 35) {
      EXPECT_EQ(read<uint8_t>(strided_sum)[i], x[2 * i] | y[2 * i]) << i;
    }
  }
}

// Masked attention puts -inf in a row: its softmax weight is exactly 0, its log_softmax -inf.
TEST(SpecialValues, SoftmaxOfMinusInfinityIsExactlyZero) {
  const double inf = std::numeric_limits<double>::infinity();
  for (ScalarType dt : {kFloat32, kFloat64}) {
    SCOPED_TRACE(::testing::Message() << dt << " (" << MT_ISA_LEVEL << ")");
    std::vector<double> row;
    for (int i = 0; i < 37; ++i) row.push_back(i % 3 == 0 ? -inf : i % 3 == 1 ? 0.0 : -100.0);
    const Tensor x = mt::tensor(row, TensorOptions(dt)).reshape({1, 37});
    const Tensor s = mt::softmax(x, 1).to(kFloat64), ls = mt::log_softmax(x, 1).to(kFloat64);
    const Tensor col = mt::softmax(x.reshape({37, 1}).expand({37, 3}).contiguous(), 0).to(kFloat64);
    long double total = 0;
    for (int i = 0; i < 37; ++i) total += i % 3 == 1 ? 1 : i % 3 == 2 ? std::exp(-100.0L) : 0;
    for (int i = 0; i < 37; ++i) {
      const long double expected = (i % 3 == 1 ? 1 : i % 3 == 2 ? std::exp(-100.0L) : 0) / total;
      // Relative, plus the spacing of the denormals exp(-100) / 12 lands among in float32.
      const double tol = (dt == kFloat32 ? 4e-7 : 1e-15) * static_cast<double>(expected) + (dt == kFloat32 ? 1.5e-45 : 0);
      EXPECT_NEAR(s.data_ptr<double>()[i], static_cast<double>(expected), tol) << i;
      EXPECT_NEAR(col.data_ptr<double>()[i * 3 + 2], static_cast<double>(expected), tol) << i;
      if (i % 3 == 0) {
        EXPECT_EQ(s.data_ptr<double>()[i], 0.0) << i;
        EXPECT_EQ(col.data_ptr<double>()[i * 3], 0.0) << i;
        EXPECT_EQ(ls.data_ptr<double>()[i], -inf) << i;
      }
    }
  }
}

// Every result is representable after a conversion: round to nearest even, infinities past the top,
// denormals kept, NaN kept.
TEST(SpecialValues, ConversionsRoundToNearestEven) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> in = {1 + 1.0 / 2048, 1 + 3.0 / 2048, 65504, 65519, 65520, 1e-7, 6e-8, -0.0, inf,
                                  -inf, std::numeric_limits<double>::quiet_NaN(), 1 + 1.0 / 256, 3e38};
  const std::vector<double> half = {1, 1 + 4.0 / 2048, 65504, 65504, inf, 1.1920928955078125e-07, 5.9604644775390625e-08,
                                    -0.0, inf, -inf, NAN, 1 + 1.0 / 256, inf};
  const std::vector<double> bf16 = {1, 1, 65536, 65536, 65536, 1.0011717677116394e-07, 6.0070306062698364e-08,
                                    -0.0, inf, -inf, NAN, 1, 3.0040552704739099e38};
  std::vector<double> repeated_in, repeated_half, repeated_bf16;
  for (int k = 0; k < 4; ++k) {
    repeated_in.insert(repeated_in.end(), in.begin(), in.end());
    repeated_half.insert(repeated_half.end(), half.begin(), half.end());
    repeated_bf16.insert(repeated_bf16.end(), bf16.begin(), bf16.end());
  }
  const Tensor x = mt::tensor(repeated_in, TensorOptions(kFloat32));
  const Tensor h = x.to(kFloat16).to(kFloat64), b = x.to(kBFloat16).to(kFloat64);
  for (size_t i = 0; i < repeated_in.size(); ++i) {
    const double hv = h.data_ptr<double>()[i], bv = b.data_ptr<double>()[i];
    if (std::isnan(repeated_half[i])) {
      EXPECT_TRUE(std::isnan(hv) && std::isnan(bv)) << i;
      continue;
    }
    EXPECT_EQ(hv, repeated_half[i]) << "float16 of " << repeated_in[i];
    EXPECT_EQ(std::signbit(hv), std::signbit(repeated_half[i])) << i;
    EXPECT_EQ(bv, repeated_bf16[i]) << "bfloat16 of " << repeated_in[i];
  }
}

// Reductions: NaN wins max/min and makes sums NaN, inf - inf is NaN, -inf is logsumexp's identity.
TEST(SpecialValues, ReductionsPropagateNaNAndInfinity) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  for (ScalarType dt : {kFloat32, kFloat64, kFloat16, kBFloat16}) {
    SCOPED_TRACE(::testing::Message() << dt << " (" << MT_ISA_LEVEL << ")");
    std::vector<double> v(100, 1.0);
    const Tensor ones = mt::tensor(v, TensorOptions(dt));
    EXPECT_EQ(mt::sum(ones).item<double>(), 100);
    v[57] = nan;
    const Tensor with_nan = mt::tensor(v, TensorOptions(dt));
    EXPECT_TRUE(std::isnan(mt::sum(with_nan).item<double>()));
    EXPECT_TRUE(std::isnan(mt::amax(with_nan, {0}).item<double>()));
    EXPECT_TRUE(std::isnan(mt::amin(with_nan, {0}).item<double>()));
    v[57] = inf;
    v[3] = -inf;
    EXPECT_TRUE(std::isnan(mt::sum(mt::tensor(v, TensorOptions(dt))).item<double>()));
    std::vector<double> minus_inf(100, -inf);
    minus_inf[40] = 0;
    EXPECT_EQ(mt::logsumexp(mt::tensor(minus_inf, TensorOptions(dt)), {0}).item<double>(), 0.0);
    EXPECT_EQ(mt::logsumexp(mt::full({100}, -inf, TensorOptions(dt)), {0}).item<double>(), -inf);
  }
}

// The kernels that ran are this program's: the level's copy registered over the library's.
TEST(SpecialValues, RunsThisProgramsKernels) {
  Dl_info kernel{}, program{};
  ASSERT_NE(dladdr(reinterpret_cast<void*>(add_stub.kernel(kCPU)), &kernel), 0);
  ASSERT_NE(dladdr(reinterpret_cast<void*>(&ulp_at<float>), &program), 0);
  if (std::string(MT_ISA_LEVEL) == "library") EXPECT_NE(kernel.dli_fbase, program.dli_fbase);
  else EXPECT_EQ(kernel.dli_fbase, program.dli_fbase) << "the " << MT_ISA_LEVEL << " kernels did not register";
}

}  // namespace
