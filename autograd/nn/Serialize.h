#pragma once
// Saving and loading state dicts to a file, as torch.save / torch.load of a state_dict.
//
// The file is self-describing and little-endian:
//   "MTSTDICT" (8 bytes)  u32 version (1)  u64 entry count
//   per entry: u32 name length, name; u8 dtype-name length, dtype name ("float32");
//              u32 ndim, i64 sizes[ndim]; u64 byte count, the elements in row-major (contiguous) order.
// A file that cannot be opened, is truncated, has a bad header or a malformed entry raises
// mt::RuntimeError naming the file and what was wrong.
#include <memory>
#include <string>

#include "autograd/nn/Module.h"

namespace mt::nn {

void save(const StateDict& dict, const std::string& path);
// Saves module.state_dict().
void save(const Module& module, const std::string& path);
void save(const std::shared_ptr<Module>& module, const std::string& path);

// Reads a state dict (CPU tensors) from `path`.
StateDict load(const std::string& path);
// Reads `path` into module's existing parameters and buffers (Module::load_state_dict with strict
// keys); a file that does not match the module is an error naming the file and listing the mismatches.
void load(Module& module, const std::string& path);
void load(const std::shared_ptr<Module>& module, const std::string& path);

}  // namespace mt::nn
