#include "ops/RandomState.h"

#include <bit>
#include <sstream>
#include <string>
#include <vector>

#include "ops/Factories.h"
#include "tensor/Error.h"

namespace mt {

namespace {

// The state as text: a tag, the seed, whether a normal is held and its bits, then the engine as
// std::mt19937 writes itself (its 624 words and position).
constexpr const char* kTag = "mt19937-state-v1";

}  // namespace

Tensor get_rng_state(const Generator* generator) {
  const Generator::State s = (generator ? *generator : default_generator()).get_state();
  std::ostringstream out;
  out << kTag << ' ' << s.seed << ' ' << s.next_normal.has_value() << ' '
      << std::bit_cast<uint64_t>(s.next_normal.value_or(0.0)) << ' ' << s.engine;
  const std::string text = out.str();
  return mt::tensor(std::vector<int64_t>(text.begin(), text.end()), TensorOptions(kUInt8));
}

void set_rng_state(const Tensor& state, Generator* generator) {
  MT_CHECK_TYPE(state.dtype() == kUInt8 && state.dim() == 1 && state.device().is_cpu(),
                "RNG state must be a torch.ByteTensor");
  const Tensor bytes = state.contiguous();
  const std::string text(reinterpret_cast<const char*>(bytes.data_ptr<uint8_t>()), static_cast<size_t>(bytes.numel()));
  std::istringstream in(text);
  std::string tag;
  Generator::State s{};
  bool has_normal = false;
  uint64_t normal_bits = 0;
  in >> tag >> s.seed >> has_normal >> normal_bits >> s.engine;
  MT_CHECK_VALUE(in && tag == kTag && (in >> std::ws).eof(),
                 "set_rng_state: the tensor does not hold a generator state that get_rng_state made");
  if (has_normal) s.next_normal = std::bit_cast<double>(normal_bits);
  (generator ? *generator : default_generator()).set_state(s);
}

}  // namespace mt
