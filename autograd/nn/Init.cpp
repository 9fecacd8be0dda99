#include "autograd/nn/Init.h"

#include <Eigen/QR>

#include <cmath>

#include "autograd/GradMode.h"
#include "ops/Factories.h"
#include "ops/TensorOperators.h"
#include "ops/api/mul.h"

namespace mt::nn::init {

namespace {

struct Fans {
  double in, out;
};

Fans fans(const Tensor& t) {
  MT_CHECK_VALUE(t.dim() >= 2, "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
  double receptive = 1;
  for (int64_t d = 2; d < t.dim(); ++d) receptive *= static_cast<double>(t.size(d));
  return {static_cast<double>(t.size(1)) * receptive, static_cast<double>(t.size(0)) * receptive};
}

double fan(const Tensor& t, const std::string& mode) {
  MT_CHECK_VALUE(mode == "fan_in" || mode == "fan_out", "Mode ", mode, " not supported, please use one of fan_in, fan_out");
  const Fans f = fans(t);
  return mode == "fan_in" ? f.in : f.out;
}

// Copies `values` (made on the CPU in float64) into `tensor` without recording it.
Tensor fill_from(const Tensor& tensor, const Tensor& values) {
  MT_CHECK_VALUE(tensor.defined(), "init: the tensor is undefined");
  const NoGradGuard no_grad;
  tensor.copy_(values);
  return tensor;
}

Tensor uniform_values(const Tensor& t, double a, double b, Generator* g) {
  return mul(rand(t.sizes(), g, TensorOptions(kFloat64)), b - a) + a;
}

Tensor normal_values(const Tensor& t, double mean, double std, Generator* g) {
  return mul(randn(t.sizes(), g, TensorOptions(kFloat64)), std) + mean;
}

}  // namespace

double calculate_gain(const std::string& nonlinearity, double param) {
  for (const char* linear : {"linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                             "conv_transpose3d", "sigmoid"})
    if (nonlinearity == linear) return 1;
  if (nonlinearity == "tanh") return 5.0 / 3;
  if (nonlinearity == "relu") return std::sqrt(2.0);
  if (nonlinearity == "leaky_relu") return std::sqrt(2.0 / (1 + param * param));
  if (nonlinearity == "selu") return 3.0 / 4;
  throw ValueError("Unsupported nonlinearity " + nonlinearity);
}

Tensor uniform_(const Tensor& tensor, double a, double b, Generator* generator) {
  return fill_from(tensor, uniform_values(tensor, a, b, generator));
}

Tensor normal_(const Tensor& tensor, double mean, double std, Generator* generator) {
  return fill_from(tensor, normal_values(tensor, mean, std, generator));
}

Tensor constant_(const Tensor& tensor, double value) {
  MT_CHECK_VALUE(tensor.defined(), "init: the tensor is undefined");
  const NoGradGuard no_grad;
  tensor.fill_(value);
  return tensor;
}

Tensor zeros_(const Tensor& tensor) { return constant_(tensor, 0); }

Tensor ones_(const Tensor& tensor) { return constant_(tensor, 1); }

Tensor xavier_uniform_(const Tensor& tensor, double gain, Generator* generator) {
  const Fans f = fans(tensor);
  const double a = gain * std::sqrt(6.0 / (f.in + f.out));
  return uniform_(tensor, -a, a, generator);
}

Tensor xavier_normal_(const Tensor& tensor, double gain, Generator* generator) {
  const Fans f = fans(tensor);
  return normal_(tensor, 0, gain * std::sqrt(2.0 / (f.in + f.out)), generator);
}

Tensor kaiming_uniform_(const Tensor& tensor, double a, const std::string& mode, const std::string& nonlinearity,
                        Generator* generator) {
  const double bound = std::sqrt(3.0) * calculate_gain(nonlinearity, a) / std::sqrt(fan(tensor, mode));
  return uniform_(tensor, -bound, bound, generator);
}

Tensor kaiming_normal_(const Tensor& tensor, double a, const std::string& mode, const std::string& nonlinearity,
                       Generator* generator) {
  return normal_(tensor, 0, calculate_gain(nonlinearity, a) / std::sqrt(fan(tensor, mode)), generator);
}

Tensor orthogonal_(const Tensor& tensor, double gain, Generator* generator) {
  MT_CHECK_VALUE(tensor.defined() && tensor.dim() >= 2, "Only tensors with 2 or more dimensions are supported");
  if (tensor.numel() == 0) return tensor;
  const int64_t rows = tensor.size(0), cols = tensor.numel() / rows;
  // A normal [rows, cols] matrix, transposed when wide so that QR gives orthonormal columns.
  const Tensor normal = randn({rows, cols}, generator, TensorOptions(kFloat64)).contiguous();
  using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Matrix m = Eigen::Map<const Matrix>(normal.data_ptr<double>(), rows, cols);
  if (rows < cols) m.transposeInPlace();
  const Eigen::HouseholderQR<Matrix> qr(m);
  Matrix q = qr.householderQ() * Matrix::Identity(m.rows(), m.cols());
  // Signs by R's diagonal make the result uniform over the orthogonal matrices (and unique).
  const Matrix r = qr.matrixQR().triangularView<Eigen::Upper>();
  for (Eigen::Index j = 0; j < q.cols(); ++j)
    if (r(j, j) < 0) q.col(j) *= -1;
  if (rows < cols) q.transposeInPlace();
  Tensor values = empty({rows, cols}, TensorOptions(kFloat64));
  Eigen::Map<Matrix>(values.data_ptr<double>(), rows, cols) = q * gain;
  return fill_from(tensor, values.view(tensor.sizes()));
}

}  // namespace mt::nn::init
