#pragma once
// Small helpers shared by the dispatcher tests (not a test file itself: only *_test.cpp are compiled).
#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include "dispatch/Dispatcher.h"
#include "dispatch/Library.h"
#include "ops/Factories.h"
#include "ops/api/empty.h"

namespace mt_test {

// A one-element float CPU tensor whose key set is relabelled to that of a tensor on `type`. The
// dispatcher reads nothing but the key set, so this stands in for CUDA/PrivateUse1 tensors in builds
// (and tests) that have no such device. Never read its data on the claimed device.
inline mt::Tensor tensor_keyed_as(mt::DeviceType type) {
  mt::Tensor t = mt::empty({1});
  t.unsafeGetTensorImpl()->set_key_set(mt::compute_tensor_key_set(mt::Device(type), mt::kFloat32, false));
  return t;
}

inline mt::OperatorHandle op_handle(std::string_view name, std::string_view overload = "") {
  return mt::Dispatcher::singleton().findSchemaOrThrow(name, overload);
}

// dumpComputedTable() restricted to the rows of `keys`, in table order. Other layers of the library
// may register global fallbacks at other keys; tests only look at the slots they reason about.
inline std::string dump_rows(const std::string& dump, std::initializer_list<mt::DispatchKey> keys) {
  std::set<std::string> names;
  for (mt::DispatchKey k : keys) names.insert(std::string(mt::toString(k)));
  std::istringstream in(dump);
  std::string line, out;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon != std::string::npos && names.count(line.substr(0, colon))) out += line + "\n";
  }
  return out;
}

// The slots that alias keys, backend kernels and the Autograd fallthrough fallbacks touch.
inline constexpr std::initializer_list<mt::DispatchKey> kBackendAndAutogradSlots = {
    mt::DispatchKey::Undefined,   mt::DispatchKey::CPU,         mt::DispatchKey::CUDA,
    mt::DispatchKey::PrivateUse1, mt::DispatchKey::Meta,        mt::DispatchKey::AutogradCPU,
    mt::DispatchKey::AutogradCUDA, mt::DispatchKey::AutogradPrivateUse1, mt::DispatchKey::AutogradMeta};

inline std::string backend_rows(const mt::OperatorHandle& op) {
  return dump_rows(op.dumpComputedTable(), kBackendAndAutogradSlots);
}

// The Autograd<Backend> rows an operator with no kernel of its own shows: the not-implemented fallback
// that autograd/Fallbacks.cpp registers.
inline const std::string kAutogradFallbackRows =
    "AutogradCPU: [backend fallback]\n"
    "AutogradCUDA: [backend fallback]\n"
    "AutogradPrivateUse1: [backend fallback]\n"
    "AutogradMeta: [backend fallback]\n";

// Runs `f`, expects it to throw E, and returns the message (empty if nothing or something else was thrown).
template <typename E, typename F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw a different exception: " << e.what();
    return "";
  }
  ADD_FAILURE() << "did not throw";
  return "";
}

inline bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }
inline bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

}  // namespace mt_test
