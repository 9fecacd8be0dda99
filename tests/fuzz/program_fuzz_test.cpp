// Random tensor programs, one per seed, checked against properties that need no other library: the
// result (or the error) does not depend on the inputs' layout or on the number of threads; Meta gives
// the CPU result's shape and dtype, or the same error; functionalize(f) is f; vmap(f) is the loop over
// the samples; a failed in-place op changes nothing; autograd agrees with finite differences. See
// tests/fuzz/README.md for running many seeds and replaying one.
#include <cmath>
#include <cstdlib>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "autograd/Gradcheck.h"
#include "functorch/Vmap.h"
#include "functorch/functionalize/Functionalize.h"
#include "ops/Factories.h"
#include "ops/api/abs.h"
#include "ops/api/amax.h"
#include "ops/api/clamp.h"
#include "ops/api/contiguous.h"
#include "ops/api/exp.h"
#include "ops/api/lt.h"
#include "ops/api/matmul.h"
#include "ops/api/maximum.h"
#include "ops/api/randn.h"
#include "ops/api/relu.h"
#include "ops/api/sigmoid.h"
#include "ops/api/softmax.h"
#include "ops/api/sqrt.h"
#include "ops/api/stack.h"
#include "ops/api/sum.h"
#include "ops/api/tanh.h"
#include "ops/api/zeros.h"
#include "ops/infra/Parallel.h"
#include "ops/TensorOperators.h"

namespace {

using namespace mt;

int64_t env_int(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoll(v) : fallback;
}

struct Rng {
  std::mt19937_64 gen;
  explicit Rng(uint64_t seed) : gen(seed * 0x9E3779B97F4A7C15ULL + 1) {}
  int64_t below(int64_t n) { return static_cast<int64_t>(gen() % static_cast<uint64_t>(n)); }
  int64_t between(int64_t lo, int64_t hi) { return lo + below(hi - lo + 1); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(gen) < p; }
};

// One step of a program: reads values produced so far (by index) and appends one.
struct Step {
  std::string text;  // how the step reads, for the printed program
  std::function<Tensor(const std::vector<Tensor>&)> run;
  bool differentiable = true;
  bool in_place = false;  // mutates values[target]
  int target = 0;
  bool view = false;  // may return a view of an operand (reshape may or may not: that depends on the layout)
};

struct Program {
  std::vector<Tensor> inputs;
  std::vector<Step> steps;
  std::string describe() const {
    std::ostringstream os;
    for (size_t i = 0; i < inputs.size(); ++i) {
      os << "v" << i << " = input " << inputs[i].dtype() << " " << inputs[i].sizes() << " strides "
         << inputs[i].strides() << "\n";
    }
    for (size_t i = 0; i < steps.size(); ++i) os << "v" << inputs.size() + i << " = " << steps[i].text << "\n";
    return os.str();
  }
};

// --- generation -------------------------------------------------------------------------------------------

const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<int64_t> random_shape(Rng& rng) {
  std::vector<int64_t> shape(rng.between(0, 4));
  for (int64_t& s : shape) s = rng.chance(0.1) ? 0 : rng.chance(0.25) ? 1 : rng.between(2, 5);
  return shape;
}

// Values with the special ones mixed in (unless `plain`), in `dtype`, laid out contiguously, transposed,
// with a step, or expanded.
Tensor random_input(Rng& rng, std::vector<int64_t> shape, ScalarType dtype, bool plain) {
  // Plain inputs (for gradcheck) stay small, so that exp(exp(x)) stays finite.
  Tensor t = mt::randn(shape, TensorOptions(kFloat64)) * (plain ? 0.5 : 3);
  // As integers, inf and NaN become INT64_MIN (as in PyTorch), whose products and sums wrap around.
  if (!plain && t.numel() > 0) {
    const double specials[] = {0.0, -0.0, kInf, -kInf, kNaN, 1e-310, 1.0, -1.0};
    Tensor flat = t.reshape({-1});
    for (int k = 0; k < 2; ++k) flat.select(0, rng.below(t.numel())).fill_(specials[rng.below(8)]);
  }
  t = t.to(dtype);
  const int layout = static_cast<int>(rng.below(4));
  if (layout == 1 && t.dim() >= 2) return t.transpose(0, t.dim() - 1).contiguous().transpose(0, t.dim() - 1);
  if (layout == 2 && t.dim() >= 1) {
    std::vector<int64_t> wide = shape;
    wide.back() *= 2;
    Tensor w = mt::zeros(wide, TensorOptions(dtype));
    Tensor v = w.slice(w.dim() - 1, 0, wide.back(), 2);
    v.copy_(t);
    return v;
  }
  if (layout == 3 && t.dim() >= 1 && t.size(0) > 1) {
    Tensor one = t.narrow(0, 0, 1).clone();
    return one.expand(t.sizes());
  }
  return t;
}

int64_t random_dim(Rng& rng) { return rng.between(-3, 3); }

// The op table: each entry makes a step on operands `a` (and `b`) with random parameters. Parameters
// may be out of range on purpose: every variant must then raise the same error.
Step random_step(Rng& rng, int a, int b, bool float64_only) {
  const int64_t d = random_dim(rng), d2 = random_dim(rng);
  const bool keep = rng.chance(0.5);
  const double s = rng.chance(0.5) ? 2.5 : -1.0;
  auto v = [](int i) { return "v" + std::to_string(i); };
  switch (rng.below(float64_only ? 16 : 22)) {
    case 0: return {"exp(" + v(a) + ")", [a](auto& x) { return mt::exp(x[a]); }};
    case 1: return {"tanh(" + v(a) + ")", [a](auto& x) { return mt::tanh(x[a]); }};
    case 2: return {"sigmoid(" + v(a) + ")", [a](auto& x) { return mt::sigmoid(x[a]); }};
    case 3: return {v(a) + " + " + v(b), [a, b](auto& x) { return x[a] + x[b]; }};
    case 4: return {v(a) + " * " + v(b), [a, b](auto& x) { return x[a] * x[b]; }};
    case 5: return {v(a) + " * " + std::to_string(s), [a, s](auto& x) { return x[a] * s; }};
    case 6: return {"sum(" + v(a) + ", " + std::to_string(d) + ")", [a, d, keep](auto& x) { return mt::sum(x[a], IntArrayRef{d}, keep); }};
    case 7: return {"mean(" + v(a) + ", " + std::to_string(d) + ")", [a, d, keep](auto& x) { return x[a].mean(IntArrayRef{d}, keep); }};
    case 8: return {"softmax(" + v(a) + ", " + std::to_string(d) + ")", [a, d](auto& x) { return mt::softmax(x[a], d); }};
    case 9: return {"transpose(" + v(a) + ", " + std::to_string(d) + ", " + std::to_string(d2) + ")",
                    [a, d, d2](auto& x) { return x[a].transpose(d, d2); }, true, false, 0, true};
    case 10: return {"unsqueeze(" + v(a) + ", " + std::to_string(d) + ")", [a, d](auto& x) { return x[a].unsqueeze(d); },
                     true, false, 0, true};
    case 11: return {"reshape(" + v(a) + ", -1)", [a](auto& x) { return x[a].reshape({-1}); }, true, false, 0, true};
    case 12: return {"narrow(" + v(a) + ", " + std::to_string(d) + ", 0, 1)", [a, d](auto& x) { return x[a].narrow(d, 0, 1); },
                     true, false, 0, true};
    case 13: return {"matmul(" + v(a) + ", " + v(b) + ")", [a, b](auto& x) { return mt::matmul(x[a], x[b]); }};
    case 14: return {"clamp(" + v(a) + ", -1, 2)", [a](auto& x) { return mt::clamp(x[a], -1, 2); }};
    case 15: {
      // In place through a view of a clone: the functionalize case.
      Step st{"clone(" + v(a) + ").select(" + std::to_string(d) + ", 0).mul_(" + std::to_string(s) + ")",
              [a, d, s](auto& x) {
                Tensor y = x[a].clone();
                y.select(d, 0).mul_(s);
                return y;
              }};
      return st;
    }
    case 16: return {"relu(" + v(a) + ")", [a](auto& x) { return mt::relu(x[a]); }, false};
    case 17: return {"amax(" + v(a) + ", " + std::to_string(d) + ")", [a, d, keep](auto& x) { return mt::amax(x[a], {d}, keep); }, false};
    case 18: return {"maximum(" + v(a) + ", " + v(b) + ")", [a, b](auto& x) { return mt::maximum(x[a], x[b]); }, false};
    case 19: return {v(a) + " > 0", [a](auto& x) { return x[a] > 0; }, false};
    case 20: return {"sqrt(" + v(a) + ")", [a](auto& x) { return mt::sqrt(x[a]); }, false};
    default: {
      // In place on an earlier value itself: a failure must leave it as it was.
      Step st{v(a) + ".add_(" + v(b) + ")", [a, b](auto& x) {
                Tensor t = x[a];
                t.add_(x[b]);
                return t;
              }, false};
      st.in_place = true;
      st.target = a;
      return st;
    }
  }
}

// A program over 1 or 2 inputs of one dtype; `for_gradients` makes float64 inputs without special values
// and only differentiable steps.
Program random_program(uint64_t seed, bool for_gradients) {
  Rng rng(seed);
  mt::manual_seed(seed);
  Program p;
  const ScalarType dtypes[] = {kFloat32, kFloat64, kInt64, kFloat16, kBool};
  const ScalarType dtype = for_gradients ? kFloat64 : dtypes[rng.below(5)];
  const std::vector<int64_t> shape = random_shape(rng);
  const int n_inputs = static_cast<int>(rng.between(1, 2));
  for (int i = 0; i < n_inputs; ++i) {
    // Mostly the same shape, sometimes another to exercise broadcasting and its errors.
    p.inputs.push_back(random_input(rng, rng.chance(0.8) ? shape : random_shape(rng), dtype, for_gradients));
  }
  const int n_steps = static_cast<int>(rng.between(1, 8));
  for (int k = 0; k < n_steps; ++k) {
    const int values = n_inputs + k;
    const int a = static_cast<int>(rng.below(values)), b = static_cast<int>(rng.below(values));
    Step st = random_step(rng, a, b, for_gradients);
    // In place only on a new tensor a step made, with an input as the operand: a write into a view, or
    // from a view of the target, would make the result depend on whether reshape copied, or on the
    // loop order (as in PyTorch). Writes through views are the clone(...).select(...).mul_ step's.
    const bool fresh_target = st.target >= n_inputs && !p.steps[st.target - n_inputs].view;
    if ((for_gradients && !st.differentiable) || (st.in_place && (!fresh_target || b >= n_inputs))) {
      --k;
      continue;
    }
    p.steps.push_back(std::move(st));
  }
  return p;
}

// --- running -------------------------------------------------------------------------------------------

struct Outcome {
  Tensor value;       // the last step's result, when every step ran
  std::string error;  // else the first error's message
  std::string violation;  // a failed in-place step that changed its target
};

bool same_values(const Tensor& a, const Tensor& b);

Outcome run(const Program& p, const std::vector<Tensor>& inputs) {
  std::vector<Tensor> values = inputs;
  Outcome out;
  for (const Step& st : p.steps) {
    Tensor before;
    if (st.in_place && !values[st.target].is_meta()) before = values[st.target].clone();
    try {
      values.push_back(st.run(values));
    } catch (const Error& e) {
      out.error = e.msg();
      if (before.defined() && !same_values(before, values[st.target])) out.violation = "failed " + st.text + " changed its target";
      return out;
    }
  }
  out.value = values.back();
  return out;
}

// The program's inputs made contiguous (fresh copies).
std::vector<Tensor> contiguous(const std::vector<Tensor>& inputs) {
  std::vector<Tensor> out;
  for (const Tensor& t : inputs) out.push_back(t.contiguous().clone());
  return out;
}

// Equal values: bitwise for integers and bools, within a few ulp for floats (a reduction may add in
// another order), with NaN, infinities and zeros in the same places.
bool same_values(const Tensor& a, const Tensor& b) {
  if (a.sizes() != b.sizes() || a.dtype() != b.dtype()) return false;
  const Tensor x = a.to(kFloat64).contiguous(), y = b.to(kFloat64).contiguous();
  const double* px = x.data_ptr<double>();
  const double* py = y.data_ptr<double>();
  const double tol = a.dtype() == kFloat64 ? 1e-12 : a.dtype() == kFloat32 ? 1e-5 : is_floating_point(a.dtype()) ? 1e-2 : 0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    if (std::isnan(px[i]) || std::isnan(py[i])) {
      if (std::isnan(px[i]) != std::isnan(py[i])) return false;
    } else if (std::isinf(px[i]) || std::isinf(py[i])) {
      if (px[i] != py[i]) return false;
    } else if (std::abs(px[i] - py[i]) > tol * std::max(1.0, std::abs(px[i]))) {
      return false;
    }
  }
  return true;
}

// `same_error`: the same message, not only an error on both sides. (matmul's shape errors name the
// mm or the bmm it decomposes into, which depends on the layout, as in PyTorch.)
std::string compare(const Outcome& expected, const Outcome& got, const char* what, bool same_error = true) {
  if (!got.violation.empty()) return std::string(what) + ": " + got.violation;
  if (expected.error.empty() != got.error.empty() || (same_error && expected.error != got.error)) {
    return std::string(what) + ": error '" + expected.error + "' vs '" + got.error + "'";
  }
  if (expected.error.empty() && !same_values(expected.value, got.value)) return std::string(what) + ": different values";
  return "";
}

// An in-place write into an expanded (or overlapping) tensor is refused: the one error that rightly
// depends on the inputs' layout.
bool is_overlap_error(const std::string& error) {
  return error.find("refer to a single memory location") != std::string::npos ||
         error.find("refers to a single memory location") != std::string::npos;
}

// Every property for one seed; the empty string when all hold. Each variant regenerates the program,
// so that what one run writes in place no other run sees.
std::string check_seed(uint64_t seed) {
  auto fresh = [seed] { return random_program(seed, false); };
  const Program pr = fresh();
  const Outcome reference = run(pr, pr.inputs);
  if (!reference.violation.empty()) return reference.violation;
  const Program p0 = fresh();
  const Outcome dense = run(p0, contiguous(p0.inputs));
  if (!is_overlap_error(reference.error)) {
    if (std::string problem = compare(reference, dense, "contiguous inputs", false); !problem.empty()) return problem;
  }
  const int threads = get_num_threads();
  set_num_threads(1);
  const Program p1 = fresh();
  const Outcome one = run(p1, p1.inputs);
  set_num_threads(threads);
  if (std::string problem = compare(reference, one, "one thread"); !problem.empty()) return problem;
  // Meta, from contiguous inputs: the same shape and dtype, or the same error.
  const Program pm = fresh();
  std::vector<Tensor> meta;
  for (const Tensor& t : contiguous(pm.inputs)) meta.push_back(t.to(Device("meta")));
  const Outcome m = run(pm, meta);
  if (m.error != dense.error) return "meta: error '" + dense.error + "' vs '" + m.error + "'";
  if (dense.error.empty() && (m.value.sizes() != dense.value.sizes() || m.value.dtype() != dense.value.dtype())) {
    return "meta: different shape or dtype";
  }
  if (!reference.error.empty()) return "";
  // functionalize(f) is f.
  const Program pf = fresh();
  auto f = [&pf](const std::vector<Tensor>& in) { return run(pf, in).value; };
  try {
    const Tensor fv = mt::functionalize(f)(pf.inputs);
    if (!same_values(reference.value, fv)) return "functionalize: different values";
  } catch (const Error& e) {
    return std::string("functionalize raised: ") + e.msg();
  }
  // vmap(f) over two samples (the inputs and a second draw) is the loop over them.
  const Program pv = fresh();
  Rng rng(seed + 1000003);
  std::vector<Tensor> batched;
  for (const Tensor& t : pv.inputs) {
    batched.push_back(mt::stack({t.contiguous(), random_input(rng, t.sizes().vec(), t.dtype(), false).contiguous()}));
  }
  std::vector<Outcome> per_sample;
  for (int64_t i = 0; i < 2; ++i) {
    std::vector<Tensor> sample;
    for (const Tensor& t : batched) sample.push_back(t.select(0, i).clone());
    per_sample.push_back(run(pv, sample));
  }
  if (!per_sample[0].error.empty() || !per_sample[1].error.empty()) return "";
  try {
    const Tensor vv = mt::vmap([&pv](const std::vector<Tensor>& in) {
      const Outcome o = run(pv, in);
      MT_CHECK(o.error.empty(), o.error);
      return o.value;
    })(batched);
    if (!same_values(mt::stack({per_sample[0].value, per_sample[1].value}), vv)) return "vmap: different values";
  } catch (const Error& e) {
    return std::string("vmap raised where the loop did not: ") + e.msg();
  }
  return "";
}

// Gradients of a differentiable float64 program against central differences.
std::string check_gradients(uint64_t seed) {
  const Program p = random_program(seed, true);
  std::vector<Tensor> inputs;
  for (const Tensor& t : p.inputs) inputs.push_back(t.contiguous().clone().requires_grad_());
  const Outcome o = run(p, inputs);
  if (!o.error.empty() || !is_floating_point(o.value.dtype()) || o.value.numel() == 0 || !o.value.requires_grad()) return "";
  // Finite differences of inf or NaN say nothing (abs(NaN) < inf is false too).
  if (!mt::lt(mt::abs(o.value.detach()), kInf).all().item<bool>()) return "";
  try {
    autograd::gradcheck([&](const autograd::variable_list& in) { return run(p, in).value; }, inputs, 1e-6, 1e-5, 1e-3);
  } catch (const Error& e) {
    return std::string("gradcheck: ") + e.msg();
  }
  return "";
}

TEST(ProgramFuzz, RandomProgramsKeepTheirProperties) {
  const int64_t first = env_int("MT_FUZZ_SEED", env_int("MT_FUZZ_FIRST_SEED", 0));
  const int64_t count = std::getenv("MT_FUZZ_SEED") ? 1 : env_int("MT_FUZZ_SEEDS", 2000);
  int failures = 0;
  for (int64_t seed = first; seed < first + count && failures < 5; ++seed) {
    for (const std::string& problem : {check_seed(seed), check_gradients(seed)}) {
      if (problem.empty()) continue;
      ++failures;
      ADD_FAILURE() << "seed " << seed << ": " << problem << "\n" << random_program(seed, problem.rfind("gradcheck", 0) == 0).describe();
    }
  }
}

}  // namespace
