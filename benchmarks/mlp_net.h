#pragma once
// The 784-128-10 MLP (Linear, ReLU, Linear) that the MLP benchmarks train and run, as the libtorch
// yardstick's BM_MLPTrainStep / BM_MLPInference do.
#include <microtorch/microtorch.h>

#include <memory>

namespace mt_bench {

struct Net : mt::nn::Module {
  Net(int64_t in, int64_t hidden, int64_t out, mt::Generator* g)
      : fc1(register_module("fc1", std::make_shared<mt::nn::Linear>(in, hidden, true, g))),
        fc2(register_module("fc2", std::make_shared<mt::nn::Linear>(hidden, out, true, g))) {}
  mt::Tensor forward(const mt::Tensor& x) const { return fc2->forward(mt::relu(fc1->forward(x))); }
  std::shared_ptr<mt::nn::Linear> fc1, fc2;
};

}  // namespace mt_bench
