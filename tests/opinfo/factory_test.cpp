// The suites every factory row of the OpInfo table runs: the default dtype and the values, every dtype the
// options may ask for, random values in their range and repeated after the same seed, Meta and CUDA
// devices. Each factory's errors and argument forms are tests/ops/factories_conversions_test.cpp's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cuda/cuda_test_helpers.h"
#include "opinfo/Compare.h"
#include "opinfo/OpInfo.h"
#include "ops/views_test_util.h"

namespace mt_test {
namespace {

using mt::ScalarType;

// r holds the row's values, each rounded into r's dtype, or random ones in the row's range.
void expect_values(const FactoryOpInfo& row, const Tensor& r) {
  SCOPED_TRACE(row.name + "(" + row.sample + ") in " + std::string(mt::scalar_type_name(r.dtype())));
  ASSERT_EQ(r.sizes().vec(), row.sizes);
  if (!row.value && !row.random) return;  // uninitialised memory: not even a valid bool to read
  const std::vector<double> v = values(r);
  if (row.value) {
    const std::vector<double> expected = mt::testing::reference(row.sizes, row.value);
    const std::vector<double> rounded = values(mt::tensor(expected).to(r.dtype()));
    for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i], rounded[i]) << "at " << i << ", expected " << expected[i];
  }
  if (row.random) {
    for (double x : v) {
      EXPECT_TRUE(std::isfinite(x));
      if (row.lo < row.hi) {
        EXPECT_GE(x, row.lo);
        // A float drawn just below hi may round up to it in a 16-bit dtype.
        if (mt::is_floating_point(r.dtype()) && mt::element_size(r.dtype()) == 2) {
          EXPECT_LE(x, row.hi);
        } else {
          EXPECT_LT(x, row.hi);
        }
      }
    }
    EXPECT_NE(*std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end())) << "not random";
  }
}

class FactoryOpInfoTest : public ::testing::TestWithParam<FactoryOpInfo> {};

TEST_P(FactoryOpInfoTest, DefaultDtypeAndValues) {
  const FactoryOpInfo& row = GetParam();
  const Tensor r = row.op({});
  EXPECT_EQ(r.dtype(), row.default_dtype);
  EXPECT_EQ(r.device(), mt::Device(mt::kCPU));
  EXPECT_TRUE(r.is_contiguous() || row.name.find("strided") != std::string::npos);
  EXPECT_FALSE(r.requires_grad());
  expect_values(row, r);
}

TEST_P(FactoryOpInfoTest, EveryDtypeTheOptionsAskFor) {
  const FactoryOpInfo& row = GetParam();
  for (ScalarType dtype : row.dtypes) {
    const Tensor r = row.op(mt::TensorOptions(dtype));
    EXPECT_EQ(r.dtype(), dtype);
    expect_values(row, r);
  }
}

TEST_P(FactoryOpInfoTest, RandomValuesRepeatAfterTheSameSeed) {
  const FactoryOpInfo& row = GetParam();
  if (!row.random) GTEST_SKIP() << row.name << " is not random";
  mt::manual_seed(5);
  const Tensor a = row.op({});
  mt::manual_seed(5);
  const Tensor b = row.op({});
  EXPECT_TRUE(same(a, b));
  EXPECT_FALSE(same(a, row.op({})));
}

TEST_P(FactoryOpInfoTest, MetaMakesTheShapeAndDtype) {
  const FactoryOpInfo& row = GetParam();
  const Tensor r = row.op(mt::TensorOptions().device(mt::Device("meta")));
  EXPECT_TRUE(r.is_meta());
  EXPECT_EQ(r.sizes().vec(), row.sizes);
  EXPECT_EQ(r.dtype(), row.default_dtype);
}

TEST_P(FactoryOpInfoTest, CudaMakesTheValues) {
  const std::string why = why_no_gpu();
  if (!why.empty()) GTEST_SKIP() << why;
  const FactoryOpInfo& row = GetParam();
  for (ScalarType dtype : row.dtypes) {
    const Tensor r = row.op(mt::TensorOptions(dtype).device(mt::kCUDA));
    EXPECT_TRUE(r.is_cuda());
    EXPECT_EQ(r.dtype(), dtype);
    expect_values(row, r.to(mt::kCPU));
  }
}

INSTANTIATE_TEST_SUITE_P(OpInfo, FactoryOpInfoTest, ::testing::ValuesIn(factory_ops()), sampled_row_name<FactoryOpInfo>);

}  // namespace
}  // namespace mt_test
