// The rows of the factories. A `_like` factory's input is an int32 or float64 tensor, so that its dtype
// (the result's default) is not the default float.
#include "opinfo/OpInfo.h"
#include "ops/api/arange.h"
#include "ops/api/empty.h"
#include "ops/api/empty_like.h"
#include "ops/api/empty_strided_ops.h"
#include "ops/api/eye.h"
#include "ops/api/full.h"
#include "ops/api/full_like.h"
#include "ops/api/linspace.h"
#include "ops/api/ones.h"
#include "ops/api/ones_like.h"
#include "ops/api/rand.h"
#include "ops/api/rand_like.h"
#include "ops/api/randint.h"
#include "ops/api/randn.h"
#include "ops/api/randn_like.h"
#include "ops/api/zeros.h"
#include "ops/api/zeros_like.h"

namespace mt_test {

namespace {

using Index = std::vector<int64_t>;
using mt::kBFloat16;
using mt::kBool;
using mt::kFloat16;
using mt::kFloat32;
using mt::kFloat64;
using mt::kInt32;
using mt::kInt64;
using mt::kUInt8;
using Options = mt::TensorOptions;

const std::vector<mt::ScalarType> kEvery = {kBool, kUInt8, kInt32, kInt64, kFloat32, kFloat64, kFloat16, kBFloat16};
const std::vector<mt::ScalarType> kFloats = {kFloat32, kFloat64, kFloat16, kBFloat16};
const std::vector<mt::ScalarType> kNumbers = {kInt32, kInt64, kFloat32, kFloat64, kFloat16, kBFloat16};

const Tensor& int32_input() {
  static const Tensor x = mt::ones({2, 3}, Options(kInt32));
  return x;
}
const Tensor& float64_input() {
  static const Tensor x = mt::ones({2, 3}, Options(kFloat64));
  return x;
}

}  // namespace

const std::vector<FactoryOpInfo>& factory_ops() {
  static const std::vector<FactoryOpInfo> rows{
      {.name = "empty", .op = [](const Options& o) { return mt::empty({2, 3}, o); }, .sizes = {2, 3}, .dtypes = kEvery},
      {.name = "empty_strided",
       .op = [](const Options& o) { return mt::ops::empty_strided::call({2, 3}, {1, 2}, o.dtype_opt(), o.device_opt()); },
       .sizes = {2, 3},
       .dtypes = kEvery},
      {.name = "new_empty_strided",
       .op = [](const Options& o) { return float64_input().new_empty_strided({3, 2}, {1, 3}, o.dtype_opt(), o.device_opt()); },
       .sizes = {3, 2},
       .default_dtype = kFloat64,
       .dtypes = kEvery},
      {.name = "zeros", .op = [](const Options& o) { return mt::zeros({2, 3}, o); }, .sizes = {2, 3}, .dtypes = kEvery,
       .value = [](const Index&) { return 0.0; }},
      {.name = "ones", .op = [](const Options& o) { return mt::ones({4}, o); }, .sizes = {4}, .dtypes = kEvery,
       .value = [](const Index&) { return 1.0; }},
      {.name = "full", .sample = "float", .op = [](const Options& o) { return mt::full({2, 2}, 3.5, o); },
       .sizes = {2, 2}, .dtypes = kFloats, .value = [](const Index&) { return 3.5; }},
      {.name = "full", .sample = "int", .op = [](const Options& o) { return mt::full({3}, 7, o); }, .sizes = {3},
       .default_dtype = kInt64, .dtypes = kNumbers, .value = [](const Index&) { return 7.0; }},
      {.name = "arange", .op = [](const Options& o) { return mt::arange(5, o); }, .sizes = {5}, .default_dtype = kInt64,
       .dtypes = kNumbers, .value = [](const Index& i) { return static_cast<double>(i[0]); }},
      {.name = "arange.start_step", .sample = "halves",
       .op = [](const Options& o) { return mt::arange(1, 2.75, 0.5, o); }, .sizes = {4}, .dtypes = kFloats,
       .value = [](const Index& i) { return 1 + 0.5 * static_cast<double>(i[0]); }},
      {.name = "linspace", .op = [](const Options& o) { return mt::linspace(-1, 1, 5, o); }, .sizes = {5},
       .dtypes = kFloats, .value = [](const Index& i) { return -1 + 0.5 * static_cast<double>(i[0]); }},
      {.name = "eye", .op = [](const Options& o) { return mt::eye(3, o); }, .sizes = {3, 3}, .dtypes = kEvery,
       .value = [](const Index& i) { return i[0] == i[1] ? 1.0 : 0.0; }},
      {.name = "eye.m", .op = [](const Options& o) { return mt::eye(2, 4, o); }, .sizes = {2, 4}, .dtypes = kEvery,
       .value = [](const Index& i) { return i[0] == i[1] ? 1.0 : 0.0; }},
      {.name = "rand", .op = [](const Options& o) { return mt::rand({200}, o); }, .sizes = {200}, .dtypes = kFloats,
       .random = true, .lo = 0, .hi = 1},
      {.name = "randn", .op = [](const Options& o) { return mt::randn({200}, o); }, .sizes = {200}, .dtypes = kFloats,
       .random = true},
      {.name = "randint", .op = [](const Options& o) { return mt::randint(10, {200}, o); }, .sizes = {200},
       .default_dtype = kInt64, .dtypes = kNumbers, .random = true, .lo = 0, .hi = 10},
      {.name = "randint.low", .op = [](const Options& o) { return mt::randint(-3, 3, {200}, o); }, .sizes = {200},
       .default_dtype = kInt64, .dtypes = {kInt32, kInt64, kFloat32, kFloat64}, .random = true, .lo = -3, .hi = 3},
      {.name = "empty_like", .op = [](const Options& o) { return mt::empty_like(int32_input(), o); }, .sizes = {2, 3},
       .default_dtype = kInt32, .dtypes = kEvery},
      {.name = "zeros_like", .op = [](const Options& o) { return mt::zeros_like(int32_input(), o); }, .sizes = {2, 3},
       .default_dtype = kInt32, .dtypes = kEvery, .value = [](const Index&) { return 0.0; }},
      {.name = "ones_like", .op = [](const Options& o) { return mt::ones_like(float64_input(), o); }, .sizes = {2, 3},
       .default_dtype = kFloat64, .dtypes = kEvery, .value = [](const Index&) { return 1.0; }},
      {.name = "full_like", .op = [](const Options& o) { return mt::full_like(int32_input(), 4, o); }, .sizes = {2, 3},
       .default_dtype = kInt32, .dtypes = kNumbers, .value = [](const Index&) { return 4.0; }},
      {.name = "rand_like", .op = [](const Options& o) { return mt::rand_like(float64_input(), o); }, .sizes = {2, 3},
       .default_dtype = kFloat64, .dtypes = kFloats, .random = true, .lo = 0, .hi = 1},
      {.name = "randn_like", .op = [](const Options& o) { return mt::randn_like(float64_input(), o); }, .sizes = {2, 3},
       .default_dtype = kFloat64, .dtypes = kFloats, .random = true},
  };
  return rows;
}

}  // namespace mt_test
