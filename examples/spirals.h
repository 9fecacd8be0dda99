#pragma once
// The examples' task: three interleaved noisy spirals (generated deterministically from a seed) and the
// 2-64-64-3 MLP that learns to tell them apart.
#include <microtorch/framework.h>
#include <ops/api/arange.h>
#include <ops/api/rand.h>
#include <ops/api/randn.h>
#include <ops/api/stack.h>

#include <memory>

namespace spirals {

constexpr int64_t kClasses = 3;

struct Dataset {
  mt::Tensor x;  // [n, 2] float32
  mt::Tensor y;  // [n] int64 class labels
};

// Point i belongs to spiral i % 3 (n is a multiple of 3): radius r ~ U(0, 1), angle 4 (class + r) + noise, so the three arms
// wind around each other and overlap only near the centre.
inline Dataset make(int64_t n, uint64_t seed) {
  mt::Generator g(seed);
  const mt::Tensor label = mt::arange(kClasses, mt::kInt64).repeat({n / kClasses});
  const mt::Tensor r = mt::rand({n}, &g);
  const mt::Tensor angle = (label.to(mt::kFloat32) + r) * 4.0 + mt::randn({n}, &g) * 0.25;
  const mt::Tensor x = mt::stack({r * angle.sin(), r * angle.cos()}, 1);
  return {x, label};
}

inline std::shared_ptr<mt::nn::Sequential> make_model(mt::Generator* g) {
  return std::make_shared<mt::nn::Sequential>(
      std::make_shared<mt::nn::Linear>(2, 64, true, g), std::make_shared<mt::nn::ReLU>(),
      std::make_shared<mt::nn::Linear>(64, 64, true, g), std::make_shared<mt::nn::ReLU>(),
      std::make_shared<mt::nn::Linear>(64, kClasses, true, g));
}

}  // namespace spirals
