// nn::Conv1d, nn::Conv2d and the pooling layers: options as libtorch spells them, parameter shapes and PyTorch's
// default initialisation bound, forward as conv1d/conv2d/max_pool2d with the options, printing, state dicts,
// and the errors of bad options.
#include <gtest/gtest.h>
#include <microtorch/framework.h>

#include <cmath>
#include <sstream>
#include <string>

#include "autograd_test_helpers.h"
#include "ops/api/adaptive_avg_pool2d.h"
#include "ops/api/amax.h"
#include "ops/api/avg_pool2d.h"
#include "ops/api/conv1d.h"
#include "ops/api/conv2d.h"
#include "ops/api/conv_transpose1d.h"
#include "ops/api/conv_transpose2d.h"
#include "ops/api/max_pool2d.h"
#include "ops/api/pad.h"
#include "ops/api/randn.h"

namespace {

using mt::Tensor;
using mt_test::contains;
using mt_test::message_of;
using mt_test::values;

std::string printed(const mt::nn::Module& m) {
  std::ostringstream s;
  s << m;
  return s.str();
}

double max_abs(const Tensor& t) { return mt::amax(t.abs(), std::vector<int64_t>{}).item<double>(); }

TEST(NNConv, Conv2dHoldsFiltersOfTheOptionsShapeDrawnWithinTheFanInBound) {
  mt::Generator g(3);
  const mt::nn::Conv2d conv(mt::nn::Conv2dOptions(4, 6, {3, 2}).groups(2), &g);
  EXPECT_EQ(conv.weight.sizes().vec(), (std::vector<int64_t>{6, 2, 3, 2}));
  EXPECT_EQ(conv.bias.sizes().vec(), (std::vector<int64_t>{6}));
  // fan_in = in_channels / groups * kh * kw = 12: U(-1/sqrt(12), 1/sqrt(12)), spread over most of it.
  const double bound = 1 / std::sqrt(12.0);
  EXPECT_LE(max_abs(conv.weight), bound);
  EXPECT_GE(max_abs(conv.weight), 0.8 * bound);
  EXPECT_LE(max_abs(conv.bias), bound);
  EXPECT_EQ(conv.parameters().size(), 2u);
  EXPECT_TRUE(conv.weight.requires_grad());
  EXPECT_EQ(mt::nn::Conv2d(mt::nn::Conv2dOptions(1, 2, 3).bias(false)).parameters().size(), 1u);
}

TEST(NNConv, ForwardIsTheConvolutionWithTheOptions) {
  const Tensor x = mt::randn({2, 4, 9, 8});
  const mt::nn::Conv2d conv(mt::nn::Conv2dOptions(4, 6, 3).stride({2, 1}).padding(1).dilation(2).groups(2));
  const Tensor expected = mt::conv2d(x, conv.weight, conv.bias, {2, 1}, 1, 2, 2);
  EXPECT_EQ(values(conv.forward(x)), values(expected));
  const mt::nn::Conv2d same(mt::nn::Conv2dOptions(4, 3, 4).padding("same").bias(false));
  EXPECT_EQ(same.forward(x).sizes().vec(), (std::vector<int64_t>{2, 3, 9, 8}));
  EXPECT_EQ(values(same.forward(x)), values(mt::conv2d(x, same.weight, std::nullopt, 1, "same")));
  const mt::nn::Conv1d conv1(mt::nn::Conv1dOptions(4, 2, 3).stride(2));
  const Tensor s = mt::randn({3, 4, 10});
  EXPECT_EQ(values(conv1.forward(s)), values(mt::conv1d(s, conv1.weight, conv1.bias, 2)));
  EXPECT_EQ(conv1.forward(s).sizes().vec(), (std::vector<int64_t>{3, 2, 4}));
}

TEST(NNConv, TrainsInASequentialAndSavesItsParameters) {
  auto net =
      std::make_shared<mt::nn::Sequential>(std::make_shared<mt::nn::Conv2d>(mt::nn::Conv2dOptions(1, 2, 3)),
                                           std::make_shared<mt::nn::ReLU>(), std::make_shared<mt::nn::Flatten>());
  const Tensor y = net->forward(mt::randn({5, 1, 4, 4}));
  EXPECT_EQ(y.sizes().vec(), (std::vector<int64_t>{5, 8}));
  y.sum().backward();
  for (const Tensor& p : net->parameters()) EXPECT_TRUE(p.grad().defined());
  const auto state = net->state_dict();
  EXPECT_NE(state.find("0.weight"), nullptr);
  EXPECT_NE(state.find("0.bias"), nullptr);
}

TEST(NNConv, PrintsLikePyTorch) {
  EXPECT_EQ(printed(mt::nn::Conv2d(mt::nn::Conv2dOptions(1, 32, 3))),
            "Conv2d(1, 32, kernel_size=(3, 3), stride=(1, 1))");
  EXPECT_EQ(printed(mt::nn::Conv2d(
                mt::nn::Conv2dOptions(4, 8, {3, 1}).stride(2).padding(1).dilation(2).groups(4).bias(false))),
            "Conv2d(4, 8, kernel_size=(3, 1), stride=(2, 2), padding=(1, 1), dilation=(2, 2), groups=4, bias=False)");
  EXPECT_EQ(printed(mt::nn::Conv1d(mt::nn::Conv1dOptions(2, 3, 5).padding("same"))),
            "Conv1d(2, 3, kernel_size=(5,), stride=(1,), padding=same)");
}

TEST(NNConv, BadOptionsAreRefused) {
  EXPECT_TRUE(contains(message_of<mt::ValueError>([] { mt::nn::Conv2d(mt::nn::Conv2dOptions(3, 4, 3).groups(2)); }),
                       "in_channels must be divisible by groups"));
  EXPECT_TRUE(
      contains(message_of<mt::ValueError>([] { mt::nn::Conv2d(mt::nn::Conv2dOptions(2, 4, 3).padding("full")); }),
               "Invalid padding string 'full', should be one of {'valid', 'same'}"));
  EXPECT_TRUE(contains(
      message_of<mt::ValueError>([] { mt::nn::Conv2d(mt::nn::Conv2dOptions(2, 4, 3).stride(2).padding("same")); }),
      "padding='same' is not supported for strided convolutions"));
  EXPECT_TRUE(contains(message_of<mt::ValueError>([] { mt::nn::Conv2dOptions(2, 4, 3).padding_mode("mirror"); }),
                       "padding_mode must be one of ['zeros', 'reflect', 'replicate', 'circular'], but got "
                       "padding_mode='mirror'"));
  EXPECT_TRUE(contains(message_of<mt::ValueError>([] { mt::nn::Conv2d(mt::nn::Conv2dOptions(2, 4, {3, 3, 3})); }),
                       "kernel_size, stride and dilation need 1 or 2 values"));
}

TEST(NNConv, ConvTransposeHoldsFiltersInOutOrderDrawnWithinTheFanInBound) {
  mt::Generator g(4);
  const mt::nn::ConvTranspose2d conv(mt::nn::ConvTranspose2dOptions(4, 6, {3, 2}).groups(2), &g);
  EXPECT_EQ(conv.weight.sizes().vec(), (std::vector<int64_t>{4, 3, 3, 2}));
  EXPECT_EQ(conv.bias.sizes().vec(), (std::vector<int64_t>{6}));
  // PyTorch's fan_in is the weight's dim 1 times the kernel: out_channels / groups * kh * kw = 18.
  const double bound = 1 / std::sqrt(18.0);
  EXPECT_LE(max_abs(conv.weight), bound);
  EXPECT_GE(max_abs(conv.weight), 0.8 * bound);
  EXPECT_LE(max_abs(conv.bias), bound);
  EXPECT_EQ(mt::nn::ConvTranspose1d(mt::nn::ConvTranspose1dOptions(1, 2, 3).bias(false)).parameters().size(), 1u);
}

TEST(NNConv, ConvTransposeForwardIsItsOpAndReachesARequestedOutputSize) {
  const Tensor x = mt::randn({2, 4, 5, 4});
  const mt::nn::ConvTranspose2d up(mt::nn::ConvTranspose2dOptions(4, 2, 3).stride(2).padding(1).output_padding(1));
  EXPECT_EQ(values(up.forward(x)), values(mt::conv_transpose2d(x, up.weight, up.bias, 2, 1, 1)));
  EXPECT_EQ(up.forward(x).sizes().vec(), (std::vector<int64_t>{2, 2, 10, 8}));
  // Stride 2 reaches sizes 9 and 10 from 5 rows (7 and 8 from 4 columns); output_size picks the padding.
  const mt::nn::ConvTranspose2d plain(mt::nn::ConvTranspose2dOptions(4, 2, 3).stride(2).padding(1));
  EXPECT_EQ(values(plain.forward(x, {9, 8})), values(mt::conv_transpose2d(x, plain.weight, plain.bias, 2, 1,
                                                                          std::vector<int64_t>{0, 1})));
  EXPECT_EQ(plain.forward(x, {2, 2, 10, 7}).sizes().vec(), (std::vector<int64_t>{2, 2, 10, 7}));
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { plain.forward(x, {11, 8}); }),
                       "requested an output size of [11, 8], but valid sizes range from [9, 7] to [10, 8] (for an "
                       "input of [5, 4])"));
  EXPECT_TRUE(contains(message_of<mt::ValueError>([&] { plain.forward(x, {2, 9, 8}); }),
                       "ConvTranspose2D: for 4D input, output_size must have 2 or 4 elements (got 3)"));
  const mt::nn::ConvTranspose1d conv1(mt::nn::ConvTranspose1dOptions(4, 2, 3).stride(2).dilation(2));
  const Tensor s = mt::randn({3, 4, 10});
  EXPECT_EQ(values(conv1.forward(s)), values(mt::conv_transpose1d(s, conv1.weight, conv1.bias, 2, 0, 0, 1, 2)));
}

TEST(NNConv, ConvTransposePrintsLikePyTorchAndRefusesBadOptions) {
  EXPECT_EQ(printed(mt::nn::ConvTranspose2d(mt::nn::ConvTranspose2dOptions(16, 33, {3, 5}).stride({2, 1}).padding(
                {4, 2}))),
            "ConvTranspose2d(16, 33, kernel_size=(3, 5), stride=(2, 1), padding=(4, 2))");
  EXPECT_EQ(printed(mt::nn::ConvTranspose1d(
                mt::nn::ConvTranspose1dOptions(4, 8, 3).stride(2).output_padding(1).groups(2).bias(false))),
            "ConvTranspose1d(4, 8, kernel_size=(3,), stride=(2,), output_padding=(1,), groups=2, bias=False)");
  EXPECT_TRUE(contains(
      message_of<mt::ValueError>([] { mt::nn::ConvTranspose2d(mt::nn::ConvTranspose2dOptions(3, 4, 3).groups(2)); }),
      "in_channels must be divisible by groups"));
  EXPECT_TRUE(contains(
      message_of<mt::ValueError>([] { mt::nn::ConvTranspose2dOptions(2, 4, 3).padding_mode("reflect"); }),
      "Only \"zeros\" padding mode is supported for ConvTranspose2d"));
}

TEST(NNConv, MaxPool2dIsMaxPool2dWithItsOptions) {
  const Tensor x = mt::randn({2, 3, 7, 6});
  const mt::nn::MaxPool2d pool(2);
  EXPECT_EQ(values(pool.forward(x)), values(mt::max_pool2d(x, {2, 2})));
  EXPECT_EQ(pool.forward(x).sizes().vec(), (std::vector<int64_t>{2, 3, 3, 3}));
  const mt::nn::MaxPool2d strided(mt::nn::MaxPool2dOptions({3, 2}).stride(1).padding(1).ceil_mode(true));
  EXPECT_EQ(values(strided.forward(x)), values(mt::max_pool2d(x, {3, 2}, 1, 1, 1, true)));
  EXPECT_TRUE(strided.parameters().empty());
  EXPECT_EQ(printed(pool), "MaxPool2d(kernel_size=2, stride=2, padding=0, dilation=1, ceil_mode=False)");
  EXPECT_EQ(printed(strided), "MaxPool2d(kernel_size=(3, 2), stride=1, padding=1, dilation=1, ceil_mode=True)");
}

TEST(NNConv, AveragePoolsAreTheirOpsWithTheirOptions) {
  const Tensor x = mt::randn({2, 3, 7, 6});
  const mt::nn::AvgPool2d pool(
      mt::nn::AvgPool2dOptions(3).stride(2).padding(1).ceil_mode(true).count_include_pad(false));
  EXPECT_EQ(values(pool.forward(x)), values(mt::avg_pool2d(x, 3, 2, 1, true, false)));
  EXPECT_EQ(printed(mt::nn::AvgPool2d(2)), "AvgPool2d(kernel_size=2, stride=2, padding=0)");
  const mt::nn::AdaptiveAvgPool2d global(1);
  EXPECT_EQ(global.forward(x).sizes().vec(), (std::vector<int64_t>{2, 3, 1, 1}));
  EXPECT_EQ(values(global.forward(x)), values(mt::adaptive_avg_pool2d(x, {1, 1})));
  EXPECT_EQ(printed(global), "AdaptiveAvgPool2d(output_size=1)");
  EXPECT_EQ(printed(mt::nn::AdaptiveAvgPool2d({2, 3})), "AdaptiveAvgPool2d(output_size=(2, 3))");
}

TEST(NNConv, APaddingModePadsTheInputBeforeTheConvolution) {
  const Tensor x = mt::randn({2, 3, 6, 5});
  const mt::nn::Conv2d reflect(mt::nn::Conv2dOptions(3, 4, 3).padding({1, 2}).padding_mode("reflect"));
  const Tensor expected = mt::conv2d(mt::pad(x, {2, 2, 1, 1}, "reflect"), reflect.weight, reflect.bias);
  EXPECT_EQ(reflect.forward(x).sizes().vec(), (std::vector<int64_t>{2, 4, 6, 7}));
  EXPECT_EQ(values(reflect.forward(x)), values(expected));
  // "same" with an even kernel: the far side gets the extra element, as conv2d's own "same".
  const mt::nn::Conv2d same(mt::nn::Conv2dOptions(3, 2, {4, 3}).padding("same").padding_mode("circular"));
  EXPECT_EQ(values(same.forward(x)), values(mt::conv2d(mt::pad(x, {1, 1, 1, 2}, "circular"), same.weight, same.bias)));
  const mt::nn::Conv1d replicate(mt::nn::Conv1dOptions(3, 2, 3).padding(1).padding_mode("replicate"));
  const Tensor s = mt::randn({2, 3, 7});
  EXPECT_EQ(values(replicate.forward(s)),
            values(mt::conv1d(mt::pad(s, {1, 1}, "replicate"), replicate.weight, replicate.bias)));
  EXPECT_EQ(printed(reflect), "Conv2d(3, 4, kernel_size=(3, 3), stride=(1, 1), padding=(1, 2), padding_mode=reflect)");
}

}  // namespace
