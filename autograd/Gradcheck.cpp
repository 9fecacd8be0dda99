#include "autograd/Gradcheck.h"

#include <cmath>

#include "autograd/AutogradMeta.h"
#include "ops/Factories.h"
#include "tensor/Generator.h"
#include "ops/api/cat.h"
#include "ops/api/randn.h"
#include "ops/api/std.h"
#include "ops/api/zeros.h"

namespace mt::autograd {

namespace {

std::vector<double> flat_values(const Tensor& t) {
  const Tensor c = t.to(kFloat64).contiguous();
  const double* p = c.data_ptr<double>();
  return std::vector<double>(p, p + c.numel());
}

}  // namespace

bool gradcheck(const std::function<Tensor(const variable_list&)>& f, const variable_list& inputs, double eps,
               double atol, double rtol) {
  std::vector<size_t> checked;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].defined() || !inputs[i].requires_grad()) continue;
    MT_CHECK(inputs[i].dtype() == kFloat64 && inputs[i].is_contiguous(),
             "gradcheck expects contiguous float64 inputs, got ", inputs[i].toString(), " as input ", i);
    checked.push_back(i);
  }
  MT_CHECK(!checked.empty(), "gradcheck expects at least one input tensor to require gradient");
  const Tensor out = f(inputs);
  const int64_t n_out = out.numel();

  // Numerical: column k of input i is (f(x + eps e_k) - f(x - eps e_k)) / 2 eps.
  std::vector<std::vector<std::vector<double>>> numerical(checked.size());
  {
    // The perturbations write the data directly: no version bump, nothing recorded.
    for (size_t c = 0; c < checked.size(); ++c) {
      const Tensor& x = inputs[checked[c]];
      double* data = x.data_ptr<double>();
      for (int64_t k = 0; k < x.numel(); ++k) {
        const double orig = data[k];
        data[k] = orig + eps;
        const std::vector<double> plus = flat_values(f(inputs));
        data[k] = orig - eps;
        const std::vector<double> minus = flat_values(f(inputs));
        data[k] = orig;
        std::vector<double> column(n_out);
        for (int64_t j = 0; j < n_out; ++j) column[j] = (plus[j] - minus[j]) / (2 * eps);
        numerical[c].push_back(std::move(column));
      }
    }
  }

  // Analytical: row j is the gradient of output element j.
  variable_list wrt;
  for (size_t i : checked) wrt.push_back(inputs[i]);
  for (int64_t j = 0; j < n_out; ++j) {
    Tensor grad_output = zeros(out.sizes(), out.options());  // contiguous, so that view(-1) reaches element j
    grad_output.view({-1}).select(0, j).fill_(1);
    const variable_list grads = grad({out}, wrt, {grad_output}, /*retain_graph=*/true, false, /*allow_unused=*/true);
    for (size_t c = 0; c < checked.size(); ++c) {
      const int64_t n_in = wrt[c].numel();
      const std::vector<double> row = grads[c].defined() ? flat_values(grads[c]) : std::vector<double>(n_in, 0.0);
      for (int64_t k = 0; k < n_in; ++k) {
        const double a = row[k], n = numerical[c][k][j];
        MT_CHECK(std::abs(a - n) <= atol + rtol * std::abs(n), "Jacobian mismatch for output 0 with respect to input ",
                 checked[c], ": d(output[", j, "])/d(input[", k, "]) is ", a, " by autograd but ", n,
                 " by finite differences");
      }
    }
  }
  return true;
}

bool gradgradcheck(const std::function<Tensor(const variable_list&)>& f, const variable_list& inputs, double eps,
                   double atol, double rtol, uint64_t seed) {
  std::vector<size_t> checked;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].defined() && inputs[i].requires_grad()) checked.push_back(i);
  MT_CHECK(!checked.empty(), "gradgradcheck expects at least one input tensor to require gradient");
  const Tensor out = f(inputs);
  MT_CHECK(out.requires_grad(), "gradgradcheck expects the output of the function to require gradient");
  Generator gen(seed);
  const Tensor grad_output = randn(out.sizes(), &gen, TensorOptions(out.dtype())).requires_grad_();

  // The first backward as a function of (inputs..., grad_output): all input gradients, flattened, in one
  // tensor (an unused input's gradient is zeros).
  variable_list all = inputs;
  all.push_back(grad_output);
  const size_t n = inputs.size();
  auto first_backward = [&f, &checked, n](const variable_list& x) {
    const variable_list in(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(n));
    const Tensor y = f(in);
    variable_list wrt;
    for (size_t i : checked) wrt.push_back(in[i]);
    const variable_list grads = grad({y}, wrt, {x[n]}, /*retain_graph=*/true, /*create_graph=*/true,
                                     /*allow_unused=*/true);
    variable_list flat;
    for (size_t c = 0; c < grads.size(); ++c) {
      flat.push_back(grads[c].defined() ? grads[c].reshape({-1}) : zeros({wrt[c].numel()}, wrt[c].options()));
    }
    return cat(flat);
  };
  return gradcheck(first_backward, all, eps, atol, rtol);
}

}  // namespace mt::autograd
