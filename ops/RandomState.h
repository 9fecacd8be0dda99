#pragma once
// A generator's state as a tensor, as torch.get_rng_state() / torch.set_rng_state() and
// torch.Generator.get_state() / set_state(): a 1-D uint8 tensor that can be saved with the rest of a
// checkpoint (nn::save) and set later, on this generator or another, to replay the same draws.
#include "tensor/Generator.h"
#include "tensor/Tensor.h"

namespace mt {

// `generator`'s state, or the default generator's where null.
Tensor get_rng_state(const Generator* generator = nullptr);
// Sets a state get_rng_state made; anything else raises mt::Error and leaves the generator unchanged.
void set_rng_state(const Tensor& state, Generator* generator = nullptr);

}  // namespace mt
