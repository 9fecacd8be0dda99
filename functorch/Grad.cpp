// The autograd-based transforms. Each opens a grad level (GradInterpreter), wraps its inputs for it,
// runs the function, asks the ordinary engine for gradients of that level's graph with
// create_graph=true (so that the backward pass is itself recorded by, and batched for, the outer
// levels), and unwraps the results.
//
// jvp is computed with two reverse passes ("double vjp"): g(u) = J^T u is linear in u, so the
// gradient of <g(u), t> with respect to u is J t. It needs the derivative formulas to be
// differentiable in their incoming gradient, which every formula here is (gradgradcheck tests them).
#include "functorch/Grad.h"

#include <algorithm>
#include <memory>
#include <sstream>

#include "autograd/Autograd.h"
#include "autograd/InferenceMode.h"
#include "functorch/GradInterpreter.h"
#include "functorch/TensorWrapper.h"
#include "functorch/Vmap.h"
#include "ops/Factories.h"
#include "ops/api/eye.h"
#include "ops/api/movedim.h"
#include "ops/api/std.h"
#include "ops/api/zeros_like.h"

namespace mt::detail {

namespace {

using functorch::GradInterpreter;
using functorch::InterpreterGuard;

// One grad level for the lifetime of the object: the interpreter is pushed and grad mode is on.
class GradLevel {
 public:
  GradLevel()
      : level_(functorch::interpreter_stack_depth() + 1),
        guard_(std::make_unique<GradInterpreter>(level_, GradMode::is_enabled())),
        grad_mode_(true) {}

  // An input of the transformed function: a mutable wrapper at this level.
  Tensor wrap(const Tensor& t) const {
    return t.defined() ? static_cast<GradInterpreter&>(guard_.interpreter()).wrap(t, /*immutable=*/false) : t;
  }
  Tensor unwrap(const Tensor& t) const { return functorch::unwrap_at_grad_level(t, level_); }
  std::vector<Tensor> unwrap(const std::vector<Tensor>& ts) const {
    std::vector<Tensor> out;
    for (const Tensor& t : ts) out.push_back(unwrap(t));
    return out;
  }

 private:
  int64_t level_;
  InterpreterGuard guard_;
  AutoGradMode grad_mode_;
};

// sum_i (d outputs[i] / d inputs)^T grad_outputs[i], with zeros for inputs the outputs do not depend
// on. Outputs that do not require grad contribute nothing.
std::vector<Tensor> vector_jacobian_products(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
                                             const std::vector<Tensor>& grad_outputs, bool create_graph) {
  std::vector<Tensor> differentiable, weights;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].requires_grad()) continue;
    differentiable.push_back(outputs[i]);
    if (!grad_outputs.empty()) weights.push_back(grad_outputs[i]);
  }
  std::vector<Tensor> result(inputs.size());
  if (!differentiable.empty())
    result = autograd::grad(differentiable, inputs, weights, /*retain_graph=*/true, create_graph, /*allow_unused=*/true);
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!result[i].defined()) result[i] = mt::zeros_like(inputs[i]);
  return result;
}

std::string list_str(const std::vector<int64_t>& v) {
  std::ostringstream ss;
  ss << "(";
  for (size_t i = 0; i < v.size(); ++i) ss << (i ? ", " : "") << v[i];
  ss << (v.size() == 1 ? ",)" : ")");
  return ss.str();
}

// Checks argnums against the number of inputs and wraps negative ones, as PyTorch does.
void wrap_argnums(std::vector<int64_t>& argnums, size_t num_inputs) {
  MT_CHECK(!argnums.empty(), "argnums must be non-empty");
  const auto n = static_cast<int64_t>(num_inputs);
  const std::vector<int64_t> given = argnums;
  for (int64_t& a : argnums) {
    MT_CHECK(-n <= a && a < n, "Got argnum=", a, ", but only ", n, " positional inputs");
    if (a < 0) a += n;
  }
  std::vector<int64_t> sorted = argnums;
  std::sort(sorted.begin(), sorted.end());
  MT_CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end(), "argnums elements must be unique, got ",
           list_str(given));
}

void check_defined(const std::vector<Tensor>& ts, const char* api, const char* what) {
  for (size_t i = 0; i < ts.size(); ++i)
    MT_CHECK_TYPE(ts[i].defined(), api, ": Expected ", what, " to be defined Tensors, but ", what, "[", i,
                  "] is an undefined Tensor.");
}

// InferenceMode turns autograd off for everything made in it, so f's graph would never be recorded: a
// transform refuses to start there rather than fail later about saved inference tensors.
void check_not_in_inference_mode(const char* api, const char* mode) {
  MT_CHECK(!InferenceMode::is_enabled(), api, ": ", mode, " AD cannot run inside InferenceMode, which turns autograd "
           "off for every tensor made in it, so f's graph would never be recorded. Call ", api, " outside "
           "InferenceMode (a NoGradGuard around the call keeps its result out of an enclosing graph).");
}

}  // namespace

void throw_missing_aux(const char* api) {
  throw_error<RuntimeError>(api, ": output of function f should be a tuple: (output, aux) if has_aux is True");
}

void throw_unexpected_aux(const char* api) {
  throw_error<RuntimeError>(api,
                            ": Expected f(*args) to return its outputs, got (output, aux); pass has_aux=true to "
                            "return auxiliary outputs");
}

GradAndValue grad_and_value_call(const OutputsAndAuxFunction& f, std::vector<int64_t> argnums,
                                 const std::vector<Tensor>& inputs) {
  MT_CHECK(!inputs.empty(), "grad_and_value(f)(*args): Expected f to be a function that has non-zero arguments");
  check_not_in_inference_mode("grad_and_value(f)(*args)", "reverse-mode");
  wrap_argnums(argnums, inputs.size());
  for (int64_t a : argnums)
    MT_CHECK_TYPE(inputs[a].defined(), "grad_and_value(f)(*args): input ", a,
                  " is an undefined Tensor; only defined Tensors can be differentiated.");
  GradLevel level;
  std::vector<Tensor> wrapped;
  for (const Tensor& t : inputs) wrapped.push_back(level.wrap(t));
  std::vector<Tensor> diff;
  for (int64_t a : argnums) diff.push_back(wrapped[a].requires_grad_());

  const auto [outputs, aux] = f(wrapped);
  const Tensor& output = outputs.front();
  MT_CHECK_TYPE(output.defined(), "grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got an undefined "
                "Tensor");
  MT_CHECK(output.dim() == 0, "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with ",
           output.dim(), " dims. Maybe you wanted to use the vjp or jacrev APIs instead?");
  std::vector<Tensor> grads = vector_jacobian_products({output}, diff, {}, /*create_graph=*/true);
  return {level.unwrap(grads), level.unwrap(output), level.unwrap(aux)};
}

VjpResult vjp_call(const OutputsAndAuxFunction& f, const std::vector<Tensor>& primals) {
  MT_CHECK(!primals.empty(), "vjp(f, *primals): Expected at least one primal, got none.");
  check_not_in_inference_mode("vjp(f, *primals)", "reverse-mode");
  check_defined(primals, "vjp(f, *primals)", "primals");
  std::vector<Tensor> wrapped_primals, wrapped_outputs, outputs, aux;
  {
    GradLevel level;
    for (const Tensor& p : primals) wrapped_primals.push_back(level.wrap(p).requires_grad_());
    auto [outs, wrapped_aux] = f(wrapped_primals);
    wrapped_outputs = std::move(outs);
    check_defined(wrapped_outputs, "vjp(f, *primals)", "the outputs of f");
    outputs = level.unwrap(wrapped_outputs);
    aux = level.unwrap(wrapped_aux);
  }
  // The wrappers are dead from here on: the backward formulas run on their values, at whatever levels
  // are active when vjp_fn is called.
  VjpFunction vjp_fn = [wrapped_outputs, wrapped_primals](const std::vector<Tensor>& cotangents) {
    MT_CHECK(cotangents.size() == wrapped_outputs.size(), "Expected pytree structure of cotangents to be the same as "
             "pytree structure of outputs to the function. cotangents: ", cotangents.size(), " tensors, primal output: ",
             wrapped_outputs.size(), " tensors");
    for (size_t i = 0; i < cotangents.size(); ++i) {
      MT_CHECK_TYPE(cotangents[i].defined(), "vjp_fn(cotangents): cotangents[", i, "] is an undefined Tensor.");
      MT_CHECK(cotangents[i].sizes() == wrapped_outputs[i].sizes(), "Mismatch in shape: grad_output[", i,
               "] has a shape of ", cotangents[i].sizes(), " and output[", i, "] has a shape of ",
               wrapped_outputs[i].sizes(), ".");
    }
    std::vector<Tensor> vjps =
        vector_jacobian_products(wrapped_outputs, wrapped_primals, cotangents, /*create_graph=*/GradMode::is_enabled());
    for (Tensor& v : vjps) v = functorch::unwrap_dead_wrappers(v);
    return vjps;
  };
  return {std::move(outputs), std::move(vjp_fn), std::move(aux)};
}

JvpResult jvp_call(const OutputsAndAuxFunction& f, const std::vector<Tensor>& primals,
                   const std::vector<Tensor>& tangents) {
  MT_CHECK(!primals.empty(), "jvp(f, primals, tangents): Expected primals to be a non-empty list of Tensors.");
  check_not_in_inference_mode("jvp(f, primals, tangents)", "forward-mode");
  MT_CHECK(primals.size() == tangents.size(), "jvp(f, primals, tangents): Expected primals and tangents to have the "
           "same python structure. For example, if primals is a tuple of 3 tensors, tangents also must be. Got ",
           primals.size(), " primals and ", tangents.size(), " tangents");
  check_defined(primals, "jvp(f, primals, tangents)", "primals");
  check_defined(tangents, "jvp(f, primals, tangents)", "tangents");
  for (size_t i = 0; i < primals.size(); ++i)
    MT_CHECK(primals[i].sizes() == tangents[i].sizes(), "Trying to set a forward gradient that has a different size "
             "than that of the original Tensor, this is not supported. Tensor is of size ", primals[i].sizes(),
             " while the given forward gradient is of size ", tangents[i].sizes(), ".");

  GradLevel level;
  std::vector<Tensor> wrapped;
  for (const Tensor& p : primals) wrapped.push_back(level.wrap(p).requires_grad_());
  const auto [outputs, aux] = f(wrapped);
  check_defined(outputs, "jvp(f, primals, tangents)", "the outputs of f");

  // g(u) = J^T u for dummy cotangents u; then J t = d<g(u), t>/du.
  std::vector<Tensor> us;
  for (const Tensor& out : outputs) {
    Tensor u = mt::zeros_like(out);
    if (is_floating_point(out.dtype())) u.requires_grad_();
    us.push_back(u);
  }
  const std::vector<Tensor> g = vector_jacobian_products(outputs, wrapped, us, /*create_graph=*/true);
  std::vector<Tensor> differentiable_us;
  std::vector<size_t> which;
  for (size_t i = 0; i < us.size(); ++i) {
    if (!us[i].requires_grad()) continue;
    differentiable_us.push_back(us[i]);
    which.push_back(i);
  }
  std::vector<Tensor> jvps(outputs.size());
  if (!differentiable_us.empty()) {
    const std::vector<Tensor> products =
        vector_jacobian_products(g, differentiable_us, tangents, /*create_graph=*/true);
    for (size_t k = 0; k < which.size(); ++k) jvps[which[k]] = products[k];
  }
  for (size_t i = 0; i < outputs.size(); ++i)
    if (!jvps[i].defined()) jvps[i] = mt::zeros_like(outputs[i]);
  return {level.unwrap(outputs), level.unwrap(jvps), level.unwrap(aux)};
}

namespace {

std::vector<int64_t> joined_shape(IntArrayRef out, IntArrayRef in) {
  std::vector<int64_t> shape = out.vec();
  shape.insert(shape.end(), in.begin(), in.end());
  return shape;
}

// The rows of every output's Jacobians at once: vjp_fn of each basis cotangent, in one vmap over the
// basis of all outputs' elements together (output i's cotangents are the columns of its elements).
JacobianResult reverse_jacobians(const OutputsAndAuxFunction& f, const std::vector<Tensor>& diff) {
  VjpResult r = vjp_call(f, diff);
  int64_t total = 0;
  for (const Tensor& out : r.outputs) total += out.numel();
  std::vector<Tensor> basis;
  int64_t offset = 0;
  for (const Tensor& out : r.outputs) {
    basis.push_back(
        mt::eye(total, out.options()).narrow(1, offset, out.numel()).reshape(joined_shape({total}, out.sizes())));
    offset += out.numel();
  }
  const std::vector<Tensor> rows = mt::vmap(r.vjp_fn)(basis);  // rows[k]: [total, *diff[k].shape]
  JacobianResult result{{}, std::move(r.aux)};
  offset = 0;
  for (const Tensor& out : r.outputs) {
    std::vector<Tensor> per_argnum;
    for (size_t k = 0; k < diff.size(); ++k)
      per_argnum.push_back(rows[k].narrow(0, offset, out.numel()).reshape(joined_shape(out.sizes(), diff[k].sizes())));
    result.jacobians.push_back(std::move(per_argnum));
    offset += out.numel();
  }
  return result;
}

// The columns of every output's Jacobian with respect to `x` at once: jvp with each basis tangent.
JacobianResult forward_jacobians(const OutputsAndAuxFunction& f, const Tensor& x) {
  const int64_t m = x.numel();
  const Tensor basis = mt::eye(m, x.options()).view(joined_shape({m}, x.sizes()));
  // The aux depends on the primals alone, never on the batched tangent: it leaves the vmap unbatched.
  std::vector<Tensor> aux;
  const std::vector<Tensor> columns = mt::vmap([&](const std::vector<Tensor>& t) {
    JvpResult r = jvp_call(f, {x}, t);
    aux = std::move(r.aux);
    return r.jvps;
  })({basis});
  JacobianResult result{{}, std::move(aux)};
  for (const Tensor& c : columns) {
    const std::vector<int64_t> out_shape(c.sizes().begin() + 1, c.sizes().end());
    result.jacobians.push_back({mt::movedim(c, 0, -1).reshape(joined_shape(out_shape, x.sizes()))});
  }
  return result;
}

}  // namespace

JacobianResult jacobian_call(const OutputsAndAuxFunction& f, std::vector<int64_t> argnums, bool forward,
                             const std::vector<Tensor>& inputs) {
  const char* api = forward ? "jacfwd(f, argnums)(*args)" : "jacrev(f, argnums)(*args)";
  MT_CHECK(!inputs.empty(), api, ": Expected f to be a function that has non-zero arguments");
  check_not_in_inference_mode(api, forward ? "forward-mode" : "reverse-mode");
  wrap_argnums(argnums, inputs.size());
  check_defined(inputs, api, "args");
  // f as a function of the differentiated inputs alone.
  const auto of_inputs = [&f, &inputs](const std::vector<int64_t>& which) -> OutputsAndAuxFunction {
    return [&f, inputs, which](const std::vector<Tensor>& diff) {
      std::vector<Tensor> args = inputs;
      for (size_t k = 0; k < which.size(); ++k) args[which[k]] = diff[k];
      return f(args);
    };
  };
  if (!forward) {
    std::vector<Tensor> diff;
    for (int64_t a : argnums) diff.push_back(inputs[a]);
    return reverse_jacobians(of_inputs(argnums), diff);
  }
  // One vmap of jvps per argnum; the aux is the first one's.
  JacobianResult result;
  for (size_t k = 0; k < argnums.size(); ++k) {
    JacobianResult r = forward_jacobians(of_inputs({argnums[k]}), inputs[argnums[k]]);
    if (k == 0) {
      result.jacobians.resize(r.jacobians.size());
      result.aux = std::move(r.aux);
    }
    for (size_t i = 0; i < r.jacobians.size(); ++i) result.jacobians[i].push_back(std::move(r.jacobians[i].front()));
  }
  return result;
}

}  // namespace mt::detail
