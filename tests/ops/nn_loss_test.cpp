// nll_loss and cross_entropy_loss against naive double-precision loops: unbatched, batched and N-D
// inputs, every reduction, class weights, ignore_index, label smoothing, class-probability targets,
// each floating dtype, transposed inputs and strided targets, empty batches, Meta shapes and every error.
#include "nn_reference.h"
#include "ops/Loss.h"
#include "ops/api/cross_entropy_loss.h"
#include "ops/api/empty.h"
#include "ops/api/full.h"
#include "ops/api/nll_loss.h"
#include "ops/api/nll_loss_backward.h"
#include "ops/api/nll_loss_forward.h"
#include "ops/api/ones.h"
#include "ops/api/std.h"
#include "ops/api/t.h"
#include "ops/api/zeros.h"

namespace {

using namespace mt;
using namespace mt::testing;
using namespace mt::testing::nn;

const int64_t kReductions[] = {Reduction::None, Reduction::Mean, Reduction::Sum};

// The loss tolerance per dtype: a loss sums a few rounded terms.
double loss_tol(ScalarType dt) { return dt == kFloat32 ? 1e-5 : dt == kFloat64 ? 1e-12 : dt == kFloat16 ? 1e-2 : 4e-2; }

// The input's layout as the losses read it: N samples, C classes, `inner` positions per sample
// (an unbatched (C) input is one sample).
struct Layout {
  int64_t n, c, inner;
  explicit Layout(const Tensor& x) {
    n = x.dim() == 1 ? 1 : x.size(0);
    c = x.dim() == 1 ? x.size(0) : x.size(1);
    inner = 1;
    for (int64_t d = 2; d < x.dim(); ++d) inner *= x.size(d);
  }
  int64_t at(int64_t sample, int64_t cls, int64_t pos) const { return (sample * c + cls) * inner + pos; }
};

// nll_loss: each (sample, position) contributes -w[t] * x[t]; Mean divides by the summed w[t].
std::vector<double> naive_nll(const Tensor& x, const std::vector<int64_t>& target, const std::vector<double>& weight,
                              int64_t reduction, int64_t ignore_index) {
  const Layout l(x);
  const std::vector<double> v = values(x);
  std::vector<double> elements;
  double weight_sum = 0;
  for (int64_t s = 0; s < l.n; ++s) {
    for (int64_t p = 0; p < l.inner; ++p) {
      const int64_t t = target[s * l.inner + p];
      if (t == ignore_index) {
        elements.push_back(0);
        continue;
      }
      const double w = weight.empty() ? 1.0 : weight[t];
      elements.push_back(-w * v[l.at(s, t, p)]);
      weight_sum += w;
    }
  }
  return reduce(elements, reduction, weight_sum);
}

// cross entropy with class indices and label smoothing s: per element
// (1 - s) * -w[t] * lp[t] + s / C * sum_c -w[c] * lp[c], lp the log-softmax over classes; Mean
// divides by the summed w[t] of the counted targets, as PyTorch does.
std::vector<double> naive_cross_entropy(const Tensor& x, const std::vector<int64_t>& target,
                                        const std::vector<double>& weight, int64_t reduction, int64_t ignore_index,
                                        double smoothing) {
  const Layout l(x);
  const std::vector<double> lp = naive_softmax(x, x.dim() == 1 ? 0 : 1, true);
  std::vector<double> elements;
  double weight_sum = 0;
  for (int64_t s = 0; s < l.n; ++s) {
    for (int64_t p = 0; p < l.inner; ++p) {
      const int64_t t = target[s * l.inner + p];
      if (t == ignore_index) {
        elements.push_back(0);
        continue;
      }
      auto w = [&](int64_t c) { return weight.empty() ? 1.0 : weight[c]; };
      double uniform = 0;
      for (int64_t c = 0; c < l.c; ++c) uniform -= w(c) * lp[l.at(s, c, p)];
      elements.push_back((1 - smoothing) * -w(t) * lp[l.at(s, t, p)] + smoothing / l.c * uniform);
      weight_sum += w(t);
    }
  }
  return reduce(elements, reduction, weight_sum);
}

// cross entropy with class probabilities q (smoothed to q (1 - s) + s / C): -sum_c w[c] q[c] lp[c] per
// position; Mean divides by the number of positions.
std::vector<double> naive_cross_entropy_probs(const Tensor& x, const Tensor& q, const std::vector<double>& weight,
                                              int64_t reduction, double smoothing) {
  const Layout l(x);
  const std::vector<double> lp = naive_softmax(x, x.dim() == 1 ? 0 : 1, true), qv = values(q);
  std::vector<double> elements;
  for (int64_t s = 0; s < l.n; ++s) {
    for (int64_t p = 0; p < l.inner; ++p) {
      double e = 0;
      for (int64_t c = 0; c < l.c; ++c) {
        const double qc = qv[l.at(s, c, p)] * (1 - smoothing) + smoothing / l.c;
        e -= (weight.empty() ? 1.0 : weight[c]) * qc * lp[l.at(s, c, p)];
      }
      elements.push_back(e);
    }
  }
  return reduce(elements, reduction, static_cast<double>(l.n * l.inner));
}

std::vector<int64_t> targets_for(int64_t count, int64_t classes, uint64_t seed, int64_t ignore_every = 0) {
  std::vector<int64_t> t(count);
  for (int64_t i = 0; i < count; ++i) t[i] = static_cast<int64_t>((i * 7 + seed) % classes);
  if (ignore_every > 0)
    for (int64_t i = 1; i < count; i += ignore_every) t[i] = -100;
  return t;
}

Tensor target_tensor(const std::vector<int64_t>& t, IntArrayRef shape) {
  return make(std::vector<double>(t.begin(), t.end()), shape, kInt64);
}

struct Case {
  std::vector<int64_t> input, target;
};
const Case kCases[] = {{{5}, {}}, {{4, 5}, {4}}, {{3, 4, 2}, {3, 2}}, {{2, 3, 2, 3}, {2, 2, 3}}, {{2, 3, 1, 2, 2}, {2, 1, 2, 2}}};

TEST(NNLoss, NllLossMatchesReferenceForEveryRankReductionWeightAndDtype) {
  uint64_t seed = 1;
  for (ScalarType dt : kFloatTypes) {
    for (const Case& c : kCases) {
      const Tensor x = random_tensor(c.input, dt, seed++);
      const int64_t classes = x.dim() == 1 ? x.size(0) : x.size(1);
      const Tensor target0 = mt::empty(c.target, TensorOptions(kInt64));
      const std::vector<int64_t> t = targets_for(target0.numel(), classes, seed, c.target.empty() ? 0 : 3);
      const Tensor target = target_tensor(t, c.target);
      std::vector<double> w;
      for (int64_t k = 0; k < classes; ++k) w.push_back(0.5 + 0.25 * k);
      for (int64_t r : kReductions) {
        SCOPED_TRACE(x.toString() + " reduction " + std::to_string(r));
        const Tensor plain = mt::nll_loss(x, target, std::nullopt, r);
        EXPECT_EQ(plain.dtype(), dt);
        EXPECT_EQ(plain.sizes(), r == Reduction::None ? target.sizes() : IntArrayRef{});
        expect_close(plain, naive_nll(x, t, {}, r, -100), loss_tol(dt));
        expect_close(mt::nll_loss(x, target, make(w, {classes}, dt), r), naive_nll(x, t, w, r, -100), loss_tol(dt));
      }
    }
  }
}

TEST(NNLoss, NllLossIgnoreIndexCanBeAnyClass) {
  const Tensor x = random_tensor({6, 4}, kFloat64, 11);
  const std::vector<int64_t> t = {0, 1, 2, 3, 2, 2};
  for (int64_t r : kReductions) {
    expect_close(mt::nll_loss(x, target_tensor(t, {6}), std::nullopt, r, 2), naive_nll(x, t, {}, r, 2), 1e-12);
  }
  // Every target ignored: Mean is 0 / 0, Sum is 0. An ignored target may lie outside the classes.
  const std::vector<int64_t> none = {-100, -100};
  EXPECT_TRUE(std::isnan(mt::nll_loss(random_tensor({2, 4}, kFloat32, 3), target_tensor(none, {2})).item<double>()));
  EXPECT_EQ(mt::nll_loss(random_tensor({2, 4}, kFloat32, 3), target_tensor(none, {2}), std::nullopt, Reduction::Sum).item<double>(), 0);
  // An ignored position reading a -inf log-probability still contributes 0, not NaN.
  const Tensor inf_row = make({-kInf, 0, 0, -kInf}, {2, 2});
  expect_close(mt::nll_loss(inf_row, target_tensor({-100, 0}, {2}), std::nullopt, Reduction::None), {0, 0}, 0);
}

TEST(NNLoss, NllLossReadsTransposedInputsAndStridedTargets) {
  const Tensor x = transposed_copy(random_tensor({5, 4}, kFloat32, 21));
  const Tensor base = target_tensor({1, 9, 3, 9, 0, 9, 2, 9, 3, 9}, {10});
  const Tensor target = strided_view(base, {5}, {2});
  const std::vector<int64_t> t = {1, 3, 0, 2, 3};
  for (int64_t r : kReductions) expect_close(mt::nll_loss(x, target, std::nullopt, r), naive_nll(x, t, {}, r, -100), 1e-5);
  const Tensor x3 = transposed_copy(random_tensor({2, 3, 4}, kFloat64, 22));  // (2, 3, 4) with dims 1, 2 swapped
  const std::vector<int64_t> t3 = {0, 1, 2, 1, 2, 0, 1, 1};
  expect_close(mt::nll_loss(x3, target_tensor(t3, {2, 4})), naive_nll(x3, t3, {}, Reduction::Mean, -100), 1e-12);
}

// nll_loss_forward and nll_loss_backward: the CPU kernels against the composition that serves the other
// backends and vmap, and the backward against the gradient worked by hand: -weight[c] (over the summed
// weights for Mean) at each counted target's class, 0 elsewhere.
TEST(NNLoss, NllLossKernelsMatchTheirDecompositionAndTheGradientByHand) {
  uint64_t seed = 100;
  for (ScalarType dt : {kFloat32, kFloat64}) {
    for (const Case& c : kCases) {
      const Tensor x = random_tensor(c.input, dt, seed++);
      const int64_t classes = x.dim() == 1 ? x.size(0) : x.size(1);
      const int64_t count = mt::empty(c.target).numel();
      const std::vector<int64_t> t = targets_for(count, classes, seed, c.target.empty() ? 0 : 3);
      const Tensor target = target_tensor(t, c.target);
      std::vector<double> w;
      for (int64_t k = 0; k < classes; ++k) w.push_back(0.5 + 0.25 * k);
      for (bool weighted : {false, true}) {
        const std::optional<Tensor> weight = weighted ? std::optional<Tensor>(make(w, {classes}, dt)) : std::nullopt;
        double total = 0;
        for (int64_t k : t) total += k == -100 ? 0.0 : (weighted ? w[k] : 1.0);
        for (int64_t r : kReductions) {
          SCOPED_TRACE(x.toString() + " reduction " + std::to_string(r) + (weighted ? " weighted" : ""));
          const auto [loss, total_weight] = mt::nll_loss_forward(x, target, weight, r, -100);
          const auto [loss_d, total_weight_d] = mt::detail::nll_loss_forward_decomposed(x, target, weight, r, -100);
          expect_close(loss, values(loss_d), loss_tol(dt));
          expect_close(total_weight, {total}, 1e-12);
          expect_close(total_weight_d, {total}, 1e-12);
          const Tensor grad_output = r == Reduction::None ? random_tensor(c.target, dt, seed++) : mt::full({}, 1.5, dt);
          const std::vector<double> go = values(grad_output);
          std::vector<double> expected(x.numel(), 0.0);
          const int64_t positions = x.dim() <= 2 ? 1 : x.numel() / (x.size(0) * classes);
          for (size_t i = 0; i < t.size(); ++i) {
            if (t[i] == -100) continue;
            const int64_t sample = static_cast<int64_t>(i) / positions, position = static_cast<int64_t>(i) % positions;
            const double g = (r == Reduction::None ? go[i] : go[0]) / (r == Reduction::Mean ? total : 1.0);
            expected[(sample * classes + t[i]) * positions + position] = -(weighted ? w[t[i]] : 1.0) * g;
          }
          const Tensor grad = mt::nll_loss_backward(grad_output, x, target, weight, r, -100, total_weight);
          EXPECT_EQ(grad.sizes(), x.sizes());
          expect_close(grad, expected, 1e-6);
          expect_close(mt::detail::nll_loss_backward_decomposed(grad_output, x, target, weight, r, -100, total_weight),
                       expected, 1e-6);
        }
      }
    }
  }
}

TEST(NNLoss, NllLossBackwardChecksItsArguments) {
  const Tensor x = random_tensor({3, 5}, kFloat32, 81), t = target_tensor({1, 0, 4}, {3});
  const Tensor one = mt::ones({}), total = mt::full({}, 3.0);
  expect_error<RuntimeError>([&] { mt::nll_loss_backward(mt::ones({2}), x, t, std::nullopt, Reduction::None, -100, total); },
                             "Expected grad_output of size [3], got [2]");
  expect_error<RuntimeError>([&] { mt::nll_loss_backward(mt::ones({3}), x, t, std::nullopt, Reduction::Mean, -100, total); },
                             "Expected a single element grad_output tensor, but got: [3]");
  expect_error<RuntimeError>([&] { mt::nll_loss_backward(one, x, t, std::nullopt, Reduction::Sum, -100, mt::ones({2})); },
                             "expected total_weight to be a single element tensor, got: [2] (2 elements)");
  expect_error<RuntimeError>([&] { mt::nll_loss_backward(mt::ones({}, TensorOptions(kFloat64)), x, t, std::nullopt, Reduction::Sum, -100, total); },
                             "expected scalar type mt.float32 but found mt.float64");
  expect_error<IndexError>([&] { mt::nll_loss_backward(one, x, target_tensor({1, 5, 0}, {3}), std::nullopt, Reduction::Sum, -100, total); },
                           "Target 5 is out of bounds.");
  expect_error<ValueError>([&] { mt::nll_loss_forward(x, target_tensor({1, 0}, {2}), std::nullopt, Reduction::Mean, -100); },
                           "Expected input batch_size (3) to match target batch_size (2).");
}

TEST(NNLoss, EmptyBatches) {
  const Tensor x = mt::empty({0, 3}), t = mt::empty({0}, TensorOptions(kInt64));
  EXPECT_TRUE(std::isnan(mt::nll_loss(x, t).item<double>()));
  EXPECT_EQ(mt::nll_loss(x, t, std::nullopt, Reduction::Sum).item<double>(), 0);
  EXPECT_EQ(mt::nll_loss(x, t, std::nullopt, Reduction::None).sizes(), IntArrayRef({0}));
  EXPECT_TRUE(std::isnan(mt::cross_entropy_loss(x, t).item<double>()));
  EXPECT_TRUE(std::isnan(mt::cross_entropy_loss(x, t, std::nullopt, Reduction::Mean, -100, 0.1).item<double>()));
  EXPECT_TRUE(std::isnan(mt::cross_entropy_loss(x, mt::empty({0, 3})).item<double>()));
  EXPECT_EQ(mt::cross_entropy_loss(x, mt::empty({0, 3}), std::nullopt, Reduction::Sum).item<double>(), 0);
}

TEST(NNLoss, CrossEntropyWithClassIndicesMatchesReference) {
  uint64_t seed = 40;
  for (ScalarType dt : kFloatTypes) {
    for (const Case& c : kCases) {
      const Tensor x = random_tensor(c.input, dt, seed++);
      const int64_t classes = x.dim() == 1 ? x.size(0) : x.size(1);
      const std::vector<int64_t> t =
          targets_for(mt::empty(c.target).numel(), classes, seed, c.target.empty() ? 0 : 4);
      const Tensor target = target_tensor(t, c.target);
      std::vector<double> w;
      for (int64_t k = 0; k < classes; ++k) w.push_back(1.5 - 0.2 * k);
      for (int64_t r : kReductions) {
        for (double s : {0.0, 0.1, 1.0}) {
          SCOPED_TRACE(x.toString() + " reduction " + std::to_string(r) + " smoothing " + std::to_string(s));
          const Tensor plain = mt::cross_entropy_loss(x, target, std::nullopt, r, -100, s);
          EXPECT_EQ(plain.dtype(), dt);
          expect_close(plain, naive_cross_entropy(x, t, {}, r, -100, s), loss_tol(dt));
          expect_close(mt::cross_entropy_loss(x, target, make(w, {classes}, dt), r, -100, s),
                       naive_cross_entropy(x, t, w, r, -100, s), loss_tol(dt));
        }
      }
    }
  }
}

TEST(NNLoss, CrossEntropyWithIgnoreIndexAndNonContiguousInput) {
  const Tensor x = transposed_copy(random_tensor({6, 3}, kFloat64, 51));
  const std::vector<int64_t> t = {0, 1, 1, 2, 1, 0};
  const std::vector<double> w = {0.2, 1.0, 3.0};
  for (int64_t r : kReductions) {
    for (double s : {0.0, 0.3}) {
      expect_close(mt::cross_entropy_loss(x, target_tensor(t, {6}), std::nullopt, r, 1, s),
                   naive_cross_entropy(x, t, {}, r, 1, s), 1e-12);
      expect_close(mt::cross_entropy_loss(x, target_tensor(t, {6}), make(w, {3}, kFloat64), r, 1, s),
                   naive_cross_entropy(x, t, w, r, 1, s), 1e-12);
    }
  }
}

// Positive values normalised over the class dim.
Tensor probabilities(IntArrayRef shape, ScalarType dt, uint64_t seed) {
  const Tensor x = random_tensor(shape, kFloat64, seed);
  return make(naive_softmax(x, shape.size() == 1 ? 0 : 1, false), shape, dt);
}

TEST(NNLoss, CrossEntropyWithClassProbabilitiesMatchesReference) {
  uint64_t seed = 60;
  for (ScalarType dt : kFloatTypes) {
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{5}, {4, 5}, {2, 3, 4}}) {
      const Tensor x = random_tensor(shape, dt, seed++), q = probabilities(shape, dt, seed++);
      const int64_t classes = x.dim() == 1 ? x.size(0) : x.size(1);
      std::vector<double> w;
      for (int64_t k = 0; k < classes; ++k) w.push_back(0.5 + 0.5 * k);
      for (int64_t r : kReductions) {
        for (double s : {0.0, 0.25}) {
          SCOPED_TRACE(x.toString() + " reduction " + std::to_string(r) + " smoothing " + std::to_string(s));
          expect_close(mt::cross_entropy_loss(x, q, std::nullopt, r, -100, s), naive_cross_entropy_probs(x, q, {}, r, s),
                       loss_tol(dt));
          expect_close(mt::cross_entropy_loss(x, q, make(w, {classes}, dt), r, -100, s),
                       naive_cross_entropy_probs(x, q, w, r, s), loss_tol(dt));
        }
      }
    }
  }
  // A float64 target with a float32 input promotes, as in PyTorch.
  const Tensor x = random_tensor({3, 4}, kFloat32, 70), q = probabilities({3, 4}, kFloat64, 71);
  EXPECT_EQ(mt::cross_entropy_loss(x, q).dtype(), kFloat64);
  expect_close(mt::cross_entropy_loss(x, transposed_copy(transposed_copy(q))), naive_cross_entropy_probs(x, q, {}, 1, 0), 1e-6);
}

TEST(NNLoss, MetaTensorsGetShapesWithoutData) {
  const TensorOptions meta = TensorOptions(Device("meta"));
  const Tensor x = mt::empty({4, 5, 3}, meta), t = mt::empty({4, 3}, meta.dtype(kInt64));
  EXPECT_EQ(mt::nll_loss(x, t, std::nullopt, Reduction::None).sizes(), IntArrayRef({4, 3}));
  EXPECT_EQ(mt::nll_loss(x, t).dim(), 0);
  EXPECT_TRUE(mt::nll_loss(x, t).is_meta());
  const auto [loss, total_weight] = mt::nll_loss_forward(x, t, std::nullopt, Reduction::Sum, -100);
  EXPECT_TRUE(loss.is_meta() && total_weight.is_meta());
  EXPECT_EQ(total_weight.dim(), 0);
  const Tensor grad = mt::nll_loss_backward(mt::empty({}, meta), x, t, std::nullopt, Reduction::Mean, -100, total_weight);
  EXPECT_TRUE(grad.is_meta());
  EXPECT_EQ(grad.sizes(), x.sizes());
  EXPECT_EQ(mt::cross_entropy_loss(x, t, std::nullopt, Reduction::None, -100, 0.2).sizes(), IntArrayRef({4, 3}));
  EXPECT_EQ(mt::cross_entropy_loss(x, mt::empty({4, 5, 3}, meta), std::nullopt, Reduction::None).sizes(),
            IntArrayRef({4, 3}));
  EXPECT_EQ(mt::cross_entropy_loss(mt::empty({4, 5}, meta.dtype(kBFloat16)), mt::empty({4}, meta.dtype(kInt64))).dtype(),
            kBFloat16);
}

TEST(NNLoss, ErrorsNameTheProblem) {
  const Tensor x = random_tensor({3, 5}, kFloat32, 80);
  const Tensor t = target_tensor({1, 0, 4}, {3});
  expect_error<IndexError>([&] { mt::nll_loss(x, target_tensor({1, 0, 5}, {3})); }, "Target 5 is out of bounds.");
  expect_error<IndexError>([&] { mt::nll_loss(x, target_tensor({1, -1, 2}, {3})); }, "Target -1 is out of bounds.");
  expect_error<IndexError>([&] { mt::cross_entropy_loss(x, target_tensor({7, 0, 2}, {3})); }, "Target 7 is out of bounds.");
  expect_error<IndexError>([&] { mt::nll_loss(random_tensor({5}, kFloat32, 1), target_tensor({7}, {})); },
                           "Target 7 is out of bounds.");
  expect_error<IndexError>([&] { mt::nll_loss(random_tensor({2, 3, 4}, kFloat32, 1), mt::full({2, 4}, 3, TensorOptions(kInt64))); },
                           "Target 3 is out of bounds.");
  expect_error<ValueError>([&] { mt::nll_loss(x, target_tensor({1, 0}, {2})); },
                           "Expected input batch_size (3) to match target batch_size (2).");
  expect_error<ValueError>([&] { mt::cross_entropy_loss(x, target_tensor({1, 0}, {2})); },
                           "Expected input batch_size (3) to match target batch_size (2).");
  expect_error<ValueError>([&] { mt::nll_loss(mt::tensor(1.0f), target_tensor({0}, {})); }, "Expected 1 or more dimensions (got 0)");
  expect_error<ValueError>([&] { mt::nll_loss(x, target_tensor({1, 0, 2}, {1, 3})); },
                           "Expected input batch_size (3) to match target batch_size (1).");
  expect_error<RuntimeError>([&] { mt::nll_loss(x, target_tensor({1, 0, 2, 1, 0, 2}, {3, 2})); },
                             "0D or 1D target tensor expected, multi-target not supported");
  expect_error<RuntimeError>([&] { mt::nll_loss(random_tensor({5}, kFloat32, 1), target_tensor({2}, {1})); },
                             "size mismatch (got input: [5], target: [1])");
  expect_error<RuntimeError>([&] { mt::nll_loss(random_tensor({2, 3, 4}, kFloat32, 1), mt::zeros({2, 5}, TensorOptions(kInt64))); },
                             "Expected target size [2, 4], got [2, 5]");
  expect_error<RuntimeError>([&] { mt::nll_loss(random_tensor({2, 3, 4, 5}, kFloat32, 1), mt::zeros({2, 4}, TensorOptions(kInt64))); },
                             "only batches of spatial targets supported (3D tensors) but got targets of dimension: 2");
  expect_error<RuntimeError>([&] { mt::nll_loss(x, make({1, 0, 2}, {3})); }, "expected scalar type mt.int64 but found mt.float32");
  expect_error<RuntimeError>([&] { mt::cross_entropy_loss(x, make({1, 0, 2}, {3})); },
                             "expected scalar type mt.int64 but found mt.float32");
  expect_error<RuntimeError>([&] { mt::nll_loss(x, t, mt::ones({4})); },
                             "weight tensor should be defined either for all 5 classes or no classes but got weight tensor of shape: [4]");
  expect_error<RuntimeError>([&] { mt::nll_loss(x, t, mt::ones({5, 1})); },
                             "weight tensor should be defined either for all 5 classes or no classes but got weight tensor of shape: [5, 1]");
  expect_error<RuntimeError>([&] { mt::nll_loss(x, t, mt::ones({5}, TensorOptions(kFloat64))); },
                             "expected scalar type mt.float32 but found mt.float64");
  expect_error<NotImplementedError>([&] { mt::nll_loss(mt::zeros({3, 5}, TensorOptions(kInt64)), t); },
                                    "\"nll_loss\" not implemented for 'mt.int64'");
  expect_error<NotImplementedError>([&] { mt::cross_entropy_loss(mt::zeros({3, 5}, TensorOptions(kInt64)), t); },
                                    "not implemented for 'mt.int64'");
  expect_error<RuntimeError>([&] { mt::cross_entropy_loss(x, mt::zeros({3, 5}, TensorOptions(kInt64))); },
                             "Expected floating point type for target with class probabilities, got mt.int64");
  expect_error<RuntimeError>([&] { mt::cross_entropy_loss(x, mt::zeros({3, 5}), std::nullopt, Reduction::Mean, 1); },
                             "ignore_index is not supported for floating point target");
  expect_error<RuntimeError>([&] { mt::cross_entropy_loss(x, mt::zeros({3, 5}), mt::ones({4})); },
                             "cross_entropy: weight tensor should be defined either for all 5 classes or no classes but got "
                             "weight tensor of shape: [4]");
  expect_error<RuntimeError>([&] { mt::cross_entropy_loss(x, t, std::nullopt, Reduction::Mean, -100, 1.5); },
                             "label_smoothing must be between 0.0 and 1.0. Got: 1.5");
  expect_error<RuntimeError>([&] { mt::cross_entropy_loss(x, mt::zeros({3, 5}), std::nullopt, Reduction::Mean, -100, -0.5); },
                             "label_smoothing must be between 0.0 and 1.0. Got: -0.5");
  expect_error<RuntimeError>([&] { mt::cross_entropy_loss(x, t, std::nullopt, Reduction::Mean, -100, -0.5); },
                             "label_smoothing must be between 0.0 and 1.0. Got: -0.5");
  expect_error<RuntimeError>([&] { mt::cross_entropy_loss(x, mt::zeros({3, 4})); }, "0D or 1D target tensor expected");
  expect_error<ValueError>([&] { mt::nll_loss(x, t, std::nullopt, 3); }, "3 is not a valid value for reduction");
  expect_error<ValueError>([&] { mt::cross_entropy_loss(x, t, std::nullopt, -1); }, "-1 is not a valid value for reduction");
}

}  // namespace
