// A tour of microtorch's tensors: factories, dtypes, shapes, sharing, type promotion and printing.
#include <iostream>

#include <microtorch/microtorch.h>

int main() {
  std::cout << mt::show_config() << "\n";
  std::cout << "== Factories ==\n";
  std::cout << "zeros({2, 3}):\n" << mt::zeros({2, 3}) << "\n";
  std::cout << "arange(5): " << mt::arange(5) << "\n";
  std::cout << "arange(0, 1, 0.25): " << mt::arange(0, 1, 0.25) << "\n";
  std::cout << "linspace(-1, 1, 5, float64): " << mt::linspace(-1, 1, 5, mt::kFloat64) << "\n";
  std::cout << "eye(3):\n" << mt::eye(3) << "\n";
  std::cout << "tensor({{1., 2.}, {3., 4.}}):\n" << mt::tensor({{1., 2.}, {3., 4.}}) << "\n";
  std::cout << "tensor({true, false}): " << mt::tensor({true, false}) << "\n";
  std::cout << "full({2}, 7): " << mt::full({2}, 7) << "\n";

  std::cout << "\n== Random numbers: a seed gives the same numbers everywhere (here: the same as PyTorch) ==\n";
  mt::manual_seed(0);
  std::cout << "rand({5}): " << mt::rand({5}) << "\n";
  std::cout << "randint(10, {8}): " << mt::randint(10, {8}) << "\n";
  mt::Generator gen(42);
  std::cout << "randn({2, 3}, &gen):\n" << mt::randn({2, 3}, &gen) << "\n";

  std::cout << "\n== dtypes, sizes and strides ==\n";
  const mt::Tensor t = mt::ones({2, 3, 4}, mt::kFloat16);
  std::cout << "ones({2, 3, 4}, float16): dtype " << t.dtype() << ", sizes " << t.sizes() << ", strides " << t.strides()
            << ", " << t.element_size() << " bytes per element\n";
  std::cout << "the scalar 3.5 as a 0-dim tensor: " << mt::tensor(3.5) << ", dim " << mt::tensor(3.5).dim() << ", item "
            << mt::tensor(3.5).item<double>() << "\n";

  std::cout << "\n== A Tensor is a handle: copies share the data ==\n";
  mt::Tensor a = mt::zeros({3}, mt::kInt64);
  mt::Tensor b = a;  // one refcount increment, no copy of the data
  b.data_ptr<int64_t>()[1] = 42;
  std::cout << "after b[1] = 42, a is " << a << " (use_count " << a.use_count() << ")\n";

  std::cout << "\n== Type promotion (PyTorch's rules) ==\n";
  const mt::Tensor ints = mt::tensor({1, 2});
  const mt::Tensor halves = mt::ones({2}, mt::kFloat16);
  std::cout << "int64 tensor + 2.5          -> " << mt::result_type(ints, 2.5) << "\n";
  std::cout << "float16 tensor + 2.5        -> " << mt::result_type(halves, 2.5) << "\n";
  std::cout << "float16 + float64 0-dim     -> " << mt::result_type(halves, mt::tensor(1., mt::kFloat64)) << "\n";
  std::cout << "int64 + float16 tensor      -> " << mt::result_type(ints, halves) << "\n";
  std::cout << "promote_types(float16, bfloat16) -> " << mt::promote_types(mt::kFloat16, mt::kBFloat16) << "\n";

  std::cout << "\n== Meta tensors: shapes without memory ==\n";
  std::cout << mt::zeros({1000, 1000}, mt::Device("meta")) << "\n";

  std::cout << "\n== Big tensors are summarised ==\n";
  std::cout << mt::rand({100, 100}, &gen) << "\n";
  std::cout << mt::arange(100000) << "\n";

  std::cout << "\n== Errors say what was wrong ==\n";
  try {
    mt::Device("gpu:0");
  } catch (const mt::ValueError& e) {
    std::cout << "mt::ValueError: " << e.what() << "\n";
  }
  try {
    mt::tensor({{1., 2.}, {3.}});
  } catch (const mt::ValueError& e) {
    std::cout << "mt::ValueError: " << e.what() << "\n";
  }
  return 0;
}
