#pragma once
// mt::nn::init: filling a parameter in place, under no_grad, as torch.nn.init. Each takes an optional
// generator (the default generator where null) and returns the tensor. Fans are PyTorch's: for a weight
// [out, in, k...], fan_in = in * prod(k) and fan_out = out * prod(k).
#include <string>

#include "tensor/Generator.h"
#include "tensor/Tensor.h"

namespace mt::nn::init {

// The gain PyTorch recommends for a nonlinearity: 1 for linear, conv*, sigmoid; 5/3 for tanh; sqrt(2)
// for relu; sqrt(2 / (1 + param^2)) for leaky_relu (param: its negative slope, 0.01 by default); 3/4 for
// selu.
double calculate_gain(const std::string& nonlinearity, double param = 0.01);

Tensor uniform_(const Tensor& tensor, double a = 0, double b = 1, Generator* generator = nullptr);
Tensor normal_(const Tensor& tensor, double mean = 0, double std = 1, Generator* generator = nullptr);
Tensor constant_(const Tensor& tensor, double value);
Tensor zeros_(const Tensor& tensor);
Tensor ones_(const Tensor& tensor);

// U(-a, a) with a = gain * sqrt(6 / (fan_in + fan_out)); N(0, gain^2 * 2 / (fan_in + fan_out)).
Tensor xavier_uniform_(const Tensor& tensor, double gain = 1, Generator* generator = nullptr);
Tensor xavier_normal_(const Tensor& tensor, double gain = 1, Generator* generator = nullptr);

// std = gain(nonlinearity, a) / sqrt(fan), fan by `mode` ("fan_in" or "fan_out"); uniform on
// (-sqrt(3) std, sqrt(3) std), or normal.
Tensor kaiming_uniform_(const Tensor& tensor, double a = 0, const std::string& mode = "fan_in",
                        const std::string& nonlinearity = "leaky_relu", Generator* generator = nullptr);
Tensor kaiming_normal_(const Tensor& tensor, double a = 0, const std::string& mode = "fan_in",
                       const std::string& nonlinearity = "leaky_relu", Generator* generator = nullptr);

// A (semi-)orthogonal matrix from the QR decomposition of a normal one, signs fixed by R's diagonal, times
// `gain`; dims past the first are flattened.
Tensor orthogonal_(const Tensor& tensor, double gain = 1, Generator* generator = nullptr);

}  // namespace mt::nn::init
