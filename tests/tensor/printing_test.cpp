// operator<< against strings printed by PyTorch 1.13 (`repr(t)` with "torch." replaced by "mt.").
#include <gtest/gtest.h>

#include <microtorch/framework.h>
#include <limits>
#include <numeric>
#include <sstream>

#include "ops/api/arange.h"
#include "ops/api/full.h"
#include "ops/api/linspace.h"
#include "ops/api/ones.h"
#include "ops/api/zeros.h"

namespace {

std::string str(const mt::Tensor& t) {
  std::ostringstream ss;
  ss << t;
  return ss.str();
}

std::vector<double> iota(int n) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), 0.);
  return v;
}
std::vector<int64_t> iota_int(int n, int64_t scale = 1) {
  std::vector<int64_t> v(n);
  for (int i = 0; i < n; ++i) v[i] = i * scale;
  return v;
}

constexpr double dnan = std::numeric_limits<double>::quiet_NaN();
constexpr double dinf = std::numeric_limits<double>::infinity();

struct DefaultDtypeGuard {
  explicit DefaultDtypeGuard(mt::ScalarType t) { mt::set_default_dtype(t); }
  ~DefaultDtypeGuard() { mt::set_default_dtype(mt::kFloat32); }
};

TEST(Printing, IntegerValuedFloatsBoolsAndInts) {
  EXPECT_EQ(str(mt::tensor({{1., 2.}, {3., 4.}})),
            "tensor([[1., 2.],\n"
            "        [3., 4.]])");
  EXPECT_EQ(str(mt::tensor({1, 2, 3})), "tensor([1, 2, 3])");
  EXPECT_EQ(str(mt::tensor({true, false})), "tensor([ True, False])");
  EXPECT_EQ(str(mt::tensor({-5, 10, 200})), "tensor([ -5,  10, 200])");
  EXPECT_EQ(str(mt::tensor({1., 1000.})), "tensor([   1., 1000.])");
  EXPECT_EQ(str(mt::tensor({100000000.})), "tensor([100000000.])");
  EXPECT_EQ(str(mt::tensor({0., -0.})), "tensor([0., -0.])");
  EXPECT_EQ(str(mt::full({2, 2}, 7.)),
            "tensor([[7., 7.],\n"
            "        [7., 7.]])");
  EXPECT_EQ(str(mt::ones({2, 3}, mt::kInt64)),
            "tensor([[1, 1, 1],\n"
            "        [1, 1, 1]])");
}

TEST(Printing, ZeroDimTensors) {
  EXPECT_EQ(str(mt::tensor(3.5)), "tensor(3.5000)");
  EXPECT_EQ(str(mt::tensor(7)), "tensor(7)");
  EXPECT_EQ(str(mt::tensor(true)), "tensor(True)");
  EXPECT_EQ(str(mt::tensor(2., mt::kFloat64)), "tensor(2., dtype=mt.float64)");
  EXPECT_EQ(str(mt::tensor(1e-8)), "tensor(1.0000e-08)");
  EXPECT_EQ(str(mt::tensor(dnan)), "tensor(nan)");
}

TEST(Printing, FourDecimalsWithCommonWidth) {
  EXPECT_EQ(str(mt::tensor({{1.5, -2.25}, {3., 4.}})),
            "tensor([[ 1.5000, -2.2500],\n"
            "        [ 3.0000,  4.0000]])");
  EXPECT_EQ(str(mt::tensor({0.1, 0.2, 0.3})), "tensor([0.1000, 0.2000, 0.3000])");
  EXPECT_EQ(str(mt::tensor({1.25e-3, 5e-4})), "tensor([0.0012, 0.0005])");
  EXPECT_EQ(str(mt::arange(0.5, 3)), "tensor([0.5000, 1.5000, 2.5000])");
}

TEST(Printing, ScientificModeWhenMagnitudesSpreadOrLeaveRange) {
  EXPECT_EQ(str(mt::tensor({1e10, 1.})), "tensor([1.0000e+10, 1.0000e+00])");
  EXPECT_EQ(str(mt::tensor({1e-5, 1.})), "tensor([1.0000e-05, 1.0000e+00])");
  EXPECT_EQ(str(mt::tensor({0.1, 100.5})), "tensor([1.0000e-01, 1.0050e+02])");
  EXPECT_EQ(str(mt::tensor({1., 1e5})), "tensor([1.0000e+00, 1.0000e+05])");
  EXPECT_EQ(str(mt::tensor({1e8, 1.})), "tensor([1.0000e+08, 1.0000e+00])");
  EXPECT_EQ(str(mt::tensor({123456789.})), "tensor([1.2346e+08])");
  EXPECT_EQ(str(mt::tensor({123456., 7.})), "tensor([1.2346e+05, 7.0000e+00])");
  EXPECT_EQ(str(mt::tensor({-1e-5, 2.})), "tensor([-1.0000e-05,  2.0000e+00])");
  EXPECT_EQ(str(mt::tensor({1e300, -1e-300}, mt::kFloat64)), "tensor([ 1.0000e+300, -1.0000e-300], dtype=mt.float64)");
  EXPECT_EQ(str(mt::tensor({{1e-10, 1.}, {2., 3.}}, mt::kFloat64)),
            "tensor([[1.0000e-10, 1.0000e+00],\n"
            "        [2.0000e+00, 3.0000e+00]], dtype=mt.float64)");
}

TEST(Printing, NanAndInfDoNotChooseTheFormat) {
  EXPECT_EQ(str(mt::tensor({dnan, dinf, -dinf, 1.5})), "tensor([   nan,    inf,   -inf, 1.5000])");
  EXPECT_EQ(str(mt::tensor({dnan, 0.})), "tensor([nan, 0.])");
  EXPECT_EQ(str(mt::tensor({-dnan, 1.})), "tensor([nan, 1.])");
  EXPECT_EQ(str(mt::tensor({100., dinf})), "tensor([100.,  inf])");
  EXPECT_EQ(str(mt::tensor({dnan, 1e-7})), "tensor([       nan, 1.0000e-07])");
}

TEST(Printing, HigherDimsSeparateBlocksWithBlankLines) {
  EXPECT_EQ(str(mt::tensor(iota(24), {2, 3, 4})),
            "tensor([[[ 0.,  1.,  2.,  3.],\n"
            "         [ 4.,  5.,  6.,  7.],\n"
            "         [ 8.,  9., 10., 11.]],\n"
            "\n"
            "        [[12., 13., 14., 15.],\n"
            "         [16., 17., 18., 19.],\n"
            "         [20., 21., 22., 23.]]])");
  EXPECT_EQ(str(mt::tensor(iota_int(16), {2, 2, 2, 2})),
            "tensor([[[[ 0,  1],\n"
            "          [ 2,  3]],\n"
            "\n"
            "         [[ 4,  5],\n"
            "          [ 6,  7]]],\n"
            "\n"
            "\n"
            "        [[[ 8,  9],\n"
            "          [10, 11]],\n"
            "\n"
            "         [[12, 13],\n"
            "          [14, 15]]]])");
  EXPECT_EQ(str(mt::tensor({{{true, false}}})), "tensor([[[ True, False]]])");
}

TEST(Printing, LongRowsWrapAtEightyColumns) {
  EXPECT_EQ(str(mt::arange(100)),
            "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n"
            "        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,\n"
            "        36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53,\n"
            "        54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71,\n"
            "        72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89,\n"
            "        90, 91, 92, 93, 94, 95, 96, 97, 98, 99])");
  EXPECT_EQ(str(mt::linspace(0, 1, 25)),
            "tensor([0.0000, 0.0417, 0.0833, 0.1250, 0.1667, 0.2083, 0.2500, 0.2917, 0.3333,\n"
            "        0.3750, 0.4167, 0.4583, 0.5000, 0.5417, 0.5833, 0.6250, 0.6667, 0.7083,\n"
            "        0.7500, 0.7917, 0.8333, 0.8750, 0.9167, 0.9583, 1.0000])");
  EXPECT_EQ(str(mt::tensor(iota_int(30, 1000000000000))),
            "tensor([             0,  1000000000000,  2000000000000,  3000000000000,\n"
            "         4000000000000,  5000000000000,  6000000000000,  7000000000000,\n"
            "         8000000000000,  9000000000000, 10000000000000, 11000000000000,\n"
            "        12000000000000, 13000000000000, 14000000000000, 15000000000000,\n"
            "        16000000000000, 17000000000000, 18000000000000, 19000000000000,\n"
            "        20000000000000, 21000000000000, 22000000000000, 23000000000000,\n"
            "        24000000000000, 25000000000000, 26000000000000, 27000000000000,\n"
            "        28000000000000, 29000000000000])");
}

TEST(Printing, SuffixGoesToItsOwnLineWhenTheLastLineIsFull) {
  EXPECT_EQ(str(mt::linspace(0, 1, 7, mt::kFloat64)),
            "tensor([0.0000, 0.1667, 0.3333, 0.5000, 0.6667, 0.8333, 1.0000],\n"
            "       dtype=mt.float64)");
  EXPECT_EQ(str(mt::linspace(0, 1, 25, mt::kFloat64)),
            "tensor([0.0000, 0.0417, 0.0833, 0.1250, 0.1667, 0.2083, 0.2500, 0.2917, 0.3333,\n"
            "        0.3750, 0.4167, 0.4583, 0.5000, 0.5417, 0.5833, 0.6250, 0.6667, 0.7083,\n"
            "        0.7500, 0.7917, 0.8333, 0.8750, 0.9167, 0.9583, 1.0000],\n"
            "       dtype=mt.float64)");
  EXPECT_EQ(str(mt::linspace(-1, 1, 12, mt::kFloat64)),
            "tensor([-1.0000, -0.8182, -0.6364, -0.4545, -0.2727, -0.0909,  0.0909,  0.2727,\n"
            "         0.4545,  0.6364,  0.8182,  1.0000], dtype=mt.float64)");
}

TEST(Printing, SummarisesAboveAThousandElementsWithThreeEdgeItems) {
  EXPECT_EQ(str(mt::arange(2000)), "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])");
  EXPECT_EQ(str(mt::arange(1001.)), "tensor([   0.,    1.,    2.,  ...,  998.,  999., 1000.])");
  EXPECT_EQ(str(mt::ones({1001}, mt::kBool)), "tensor([True, True, True,  ..., True, True, True])");
  EXPECT_EQ(str(mt::tensor(iota_int(1200), {3, 400})),
            "tensor([[   0,    1,    2,  ...,  397,  398,  399],\n"
            "        [ 400,  401,  402,  ...,  797,  798,  799],\n"
            "        [ 800,  801,  802,  ..., 1197, 1198, 1199]])");
  EXPECT_EQ(str(mt::tensor(iota_int(7000), {7, 1000})),
            "tensor([[   0,    1,    2,  ...,  997,  998,  999],\n"
            "        [1000, 1001, 1002,  ..., 1997, 1998, 1999],\n"
            "        [2000, 2001, 2002,  ..., 2997, 2998, 2999],\n"
            "        ...,\n"
            "        [4000, 4001, 4002,  ..., 4997, 4998, 4999],\n"
            "        [5000, 5001, 5002,  ..., 5997, 5998, 5999],\n"
            "        [6000, 6001, 6002,  ..., 6997, 6998, 6999]])");
  // The format is chosen from the shown elements only: 0..49 and 1950..1999 span more than 1000x.
  EXPECT_EQ(str(mt::tensor(iota(2000), {40, 50})),
            "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 4.7000e+01, 4.8000e+01,\n"
            "         4.9000e+01],\n"
            "        [5.0000e+01, 5.1000e+01, 5.2000e+01,  ..., 9.7000e+01, 9.8000e+01,\n"
            "         9.9000e+01],\n"
            "        [1.0000e+02, 1.0100e+02, 1.0200e+02,  ..., 1.4700e+02, 1.4800e+02,\n"
            "         1.4900e+02],\n"
            "        ...,\n"
            "        [1.8500e+03, 1.8510e+03, 1.8520e+03,  ..., 1.8970e+03, 1.8980e+03,\n"
            "         1.8990e+03],\n"
            "        [1.9000e+03, 1.9010e+03, 1.9020e+03,  ..., 1.9470e+03, 1.9480e+03,\n"
            "         1.9490e+03],\n"
            "        [1.9500e+03, 1.9510e+03, 1.9520e+03,  ..., 1.9970e+03, 1.9980e+03,\n"
            "         1.9990e+03]])");
}

TEST(Printing, SummarisedThreeDimsElideBlocks) {
  EXPECT_EQ(str(mt::tensor(iota_int(8000), {20, 20, 20})),
            "tensor([[[   0,    1,    2,  ...,   17,   18,   19],\n"
            "         [  20,   21,   22,  ...,   37,   38,   39],\n"
            "         [  40,   41,   42,  ...,   57,   58,   59],\n"
            "         ...,\n"
            "         [ 340,  341,  342,  ...,  357,  358,  359],\n"
            "         [ 360,  361,  362,  ...,  377,  378,  379],\n"
            "         [ 380,  381,  382,  ...,  397,  398,  399]],\n"
            "\n"
            "        [[ 400,  401,  402,  ...,  417,  418,  419],\n"
            "         [ 420,  421,  422,  ...,  437,  438,  439],\n"
            "         [ 440,  441,  442,  ...,  457,  458,  459],\n"
            "         ...,\n"
            "         [ 740,  741,  742,  ...,  757,  758,  759],\n"
            "         [ 760,  761,  762,  ...,  777,  778,  779],\n"
            "         [ 780,  781,  782,  ...,  797,  798,  799]],\n"
            "\n"
            "        [[ 800,  801,  802,  ...,  817,  818,  819],\n"
            "         [ 820,  821,  822,  ...,  837,  838,  839],\n"
            "         [ 840,  841,  842,  ...,  857,  858,  859],\n"
            "         ...,\n"
            "         [1140, 1141, 1142,  ..., 1157, 1158, 1159],\n"
            "         [1160, 1161, 1162,  ..., 1177, 1178, 1179],\n"
            "         [1180, 1181, 1182,  ..., 1197, 1198, 1199]],\n"
            "\n"
            "        ...,\n"
            "\n"
            "        [[6800, 6801, 6802,  ..., 6817, 6818, 6819],\n"
            "         [6820, 6821, 6822,  ..., 6837, 6838, 6839],\n"
            "         [6840, 6841, 6842,  ..., 6857, 6858, 6859],\n"
            "         ...,\n"
            "         [7140, 7141, 7142,  ..., 7157, 7158, 7159],\n"
            "         [7160, 7161, 7162,  ..., 7177, 7178, 7179],\n"
            "         [7180, 7181, 7182,  ..., 7197, 7198, 7199]],\n"
            "\n"
            "        [[7200, 7201, 7202,  ..., 7217, 7218, 7219],\n"
            "         [7220, 7221, 7222,  ..., 7237, 7238, 7239],\n"
            "         [7240, 7241, 7242,  ..., 7257, 7258, 7259],\n"
            "         ...,\n"
            "         [7540, 7541, 7542,  ..., 7557, 7558, 7559],\n"
            "         [7560, 7561, 7562,  ..., 7577, 7578, 7579],\n"
            "         [7580, 7581, 7582,  ..., 7597, 7598, 7599]],\n"
            "\n"
            "        [[7600, 7601, 7602,  ..., 7617, 7618, 7619],\n"
            "         [7620, 7621, 7622,  ..., 7637, 7638, 7639],\n"
            "         [7640, 7641, 7642,  ..., 7657, 7658, 7659],\n"
            "         ...,\n"
            "         [7940, 7941, 7942,  ..., 7957, 7958, 7959],\n"
            "         [7960, 7961, 7962,  ..., 7977, 7978, 7979],\n"
            "         [7980, 7981, 7982,  ..., 7997, 7998, 7999]]])");
}

TEST(Printing, EmptyTensorsShowSizeUnlessOneDimAndDtypeUnlessDefault) {
  EXPECT_EQ(str(mt::tensor(std::vector<double>{})), "tensor([])");
  EXPECT_EQ(str(mt::zeros({0, 3})), "tensor([], size=(0, 3))");
  EXPECT_EQ(str(mt::zeros({2, 0})), "tensor([], size=(2, 0))");
  EXPECT_EQ(str(mt::zeros({0}, mt::kInt64)), "tensor([], dtype=mt.int64)");
  EXPECT_EQ(str(mt::zeros({2, 0, 3}, mt::kFloat64)), "tensor([], size=(2, 0, 3), dtype=mt.float64)");
  EXPECT_EQ(str(mt::linspace(0, 1, 0)), "tensor([])");
}

TEST(Printing, DtypeSuffixOnlyForNonDefaultDtypes) {
  EXPECT_EQ(str(mt::tensor({1.5, 2.}, mt::kFloat64)), "tensor([1.5000, 2.0000], dtype=mt.float64)");
  EXPECT_EQ(str(mt::tensor({1, 2}, mt::kFloat64)), "tensor([1., 2.], dtype=mt.float64)");
  EXPECT_EQ(str(mt::full({2}, 2.5, mt::kFloat64)), "tensor([2.5000, 2.5000], dtype=mt.float64)");
  EXPECT_EQ(str(mt::arange(5, mt::kFloat32)), "tensor([0., 1., 2., 3., 4.])");
  EXPECT_EQ(str(mt::full({2}, true)), "tensor([True, True])");
  EXPECT_EQ(str(mt::full({2}, 3)), "tensor([3, 3])");
}

TEST(Printing, ReducedPrecisionFloatsPrintTheirStoredValue) {
  EXPECT_EQ(str(mt::tensor({1.5, 2.25}, mt::kFloat16)), "tensor([1.5000, 2.2500], dtype=mt.float16)");
  EXPECT_EQ(str(mt::tensor({0.1, 0.2, 0.3}, mt::kFloat16)), "tensor([0.1000, 0.2000, 0.3000], dtype=mt.float16)");
  EXPECT_EQ(str(mt::tensor({1.5, 2.25, 0.1}, mt::kBFloat16)), "tensor([1.5000, 2.2500, 0.1001], dtype=mt.bfloat16)");
  EXPECT_EQ(str(mt::tensor({65504.}, mt::kFloat16)), "tensor([65504.], dtype=mt.float16)");
  EXPECT_EQ(str(mt::zeros({3}, mt::kFloat16)), "tensor([0., 0., 0.], dtype=mt.float16)");
}

TEST(Printing, MetaTensorsShowDeviceAndSizeButNoValues) {
  EXPECT_EQ(str(mt::zeros({2, 3}, mt::Device("meta"))), "tensor(..., device='meta', size=(2, 3))");
  EXPECT_EQ(str(mt::zeros({2, 3}, mt::TensorOptions(mt::kFloat64).device("meta"))),
            "tensor(..., device='meta', size=(2, 3), dtype=mt.float64)");
  EXPECT_EQ(str(mt::zeros({}, mt::TensorOptions(mt::kInt64).device("meta"))),
            "tensor(..., device='meta', size=(), dtype=mt.int64)");
  EXPECT_EQ(str(mt::zeros({5}, mt::TensorOptions(mt::kBool).device("meta"))),
            "tensor(..., device='meta', size=(5,), dtype=mt.bool)");
}

TEST(Printing, NonContiguousTensorsPrintInLogicalOrder) {
  // arange(6).reshape(2, 3).t()
  mt::Tensor t = mt::arange(6);
  t.unsafeGetTensorImpl()->set_sizes_and_strides({3, 2}, {1, 3}, 0);
  EXPECT_EQ(str(t),
            "tensor([[0, 3],\n"
            "        [1, 4],\n"
            "        [2, 5]])");
  // arange(10.)[2:8:2]
  mt::Tensor s = mt::arange(10.);
  s.unsafeGetTensorImpl()->set_sizes_and_strides({3}, {2}, 2);
  EXPECT_EQ(str(s), "tensor([2., 4., 6.])");
  // arange(24.).reshape(2, 3, 4).permute(2, 0, 1)
  mt::Tensor p = mt::arange(24.);
  p.unsafeGetTensorImpl()->set_sizes_and_strides({4, 2, 3}, {1, 12, 4}, 0);
  EXPECT_EQ(str(p),
            "tensor([[[ 0.,  4.,  8.],\n"
            "         [12., 16., 20.]],\n"
            "\n"
            "        [[ 1.,  5.,  9.],\n"
            "         [13., 17., 21.]],\n"
            "\n"
            "        [[ 2.,  6., 10.],\n"
            "         [14., 18., 22.]],\n"
            "\n"
            "        [[ 3.,  7., 11.],\n"
            "         [15., 19., 23.]]])");
  // tensor([1.5, -2.], dtype=float64).expand(2, 2): stride 0
  mt::Tensor e = mt::tensor({1.5, -2.}, mt::kFloat64);
  e.unsafeGetTensorImpl()->set_sizes_and_strides({2, 2}, {0, 1}, 0);
  EXPECT_EQ(str(e),
            "tensor([[ 1.5000, -2.0000],\n"
            "        [ 1.5000, -2.0000]], dtype=mt.float64)");
}

TEST(Printing, DefaultDtypeDecidesWhichFloatNeedsASuffix) {
  DefaultDtypeGuard guard(mt::kFloat64);
  EXPECT_EQ(str(mt::tensor({1., 2.}, mt::kFloat32)), "tensor([1., 2.], dtype=mt.float32)");
  EXPECT_EQ(str(mt::tensor({1.5, 2.})), "tensor([1.5000, 2.0000])");
  EXPECT_EQ(str(mt::zeros({0})), "tensor([])");
  EXPECT_EQ(str(mt::zeros({0}, mt::kFloat32)), "tensor([], dtype=mt.float32)");
  EXPECT_EQ(str(mt::zeros({2}, mt::Device("meta"))), "tensor(..., device='meta', size=(2,))");
  EXPECT_EQ(str(mt::zeros({2}, mt::TensorOptions(mt::kFloat32).device("meta"))),
            "tensor(..., device='meta', size=(2,), dtype=mt.float32)");
}

TEST(Printing, UndefinedTensor) { EXPECT_EQ(str(mt::Tensor()), "[ Tensor (undefined) ]"); }

}  // namespace
