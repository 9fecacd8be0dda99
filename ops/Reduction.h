#pragma once
// How a loss reduces its per-element values: mt::Reduction::Mean, as PyTorch's at::Reduction (an int64_t
// in the schemas, `int reduction=Mean`).
#include <cstdint>

namespace mt::Reduction {
enum : int64_t { None, Mean, Sum };
}  // namespace mt::Reduction
