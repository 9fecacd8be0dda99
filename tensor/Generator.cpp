#include "tensor/Generator.h"

#include <cmath>
#include <numbers>

#include "tensor/Error.h"

namespace mt {

// std::mt19937 takes a 32-bit seed; PyTorch's generator keeps the low 32 bits too.
Generator::Generator(uint64_t seed) : seed_(seed), engine_(static_cast<uint32_t>(seed)) {}

Generator::State Generator::get_state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return {seed_, engine_, next_normal_};
}

void Generator::set_state(const State& state) {
  std::lock_guard<std::mutex> lock(mutex_);
  seed_ = state.seed;
  engine_ = state.engine;
  next_normal_ = state.next_normal;
}

void Generator::manual_seed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(mutex_);
  seed_ = seed;
  engine_.seed(static_cast<uint32_t>(seed));
  next_normal_.reset();
}

uint64_t Generator::seed() {
  std::random_device device;
  const uint64_t s = (uint64_t(device()) << 32) | device();
  manual_seed(s);
  return s;
}

uint64_t Generator::current_seed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return seed_;
}

uint32_t Generator::random() {
  std::lock_guard<std::mutex> lock(mutex_);
  return next32();
}

uint64_t Generator::random64() {
  std::lock_guard<std::mutex> lock(mutex_);
  return next64();
}

double Generator::uniform(int bits) { return Locked(*this).uniform(bits); }
double Generator::normal() { return Locked(*this).normal(); }
int64_t Generator::random_from_to(int64_t low, int64_t high) { return Locked(*this).random_from_to(low, high); }

uint64_t Generator::next64() {
  const uint64_t hi = next32();
  return (hi << 32) | next32();
}

double Generator::next_uniform(int bits) {
  MT_CHECK_VALUE(bits >= 1 && bits <= 53, "uniform: expected 1 to 53 random bits, got ", bits);
  const uint64_t raw = bits <= 32 ? next32() : next64();
  return static_cast<double>(raw & ((uint64_t(1) << bits) - 1)) * std::ldexp(1.0, -bits);
}

double Generator::next_normal() {
  if (next_normal_) {
    const double z = *next_normal_;
    next_normal_.reset();
    return z;
  }
  const double u1 = next_uniform(53);
  const double u2 = next_uniform(53);
  // 1 - u2 is in (0, 1], so the log is finite.
  const double r = std::sqrt(-2.0 * std::log(1.0 - u2));
  const double theta = 2.0 * std::numbers::pi * u1;
  next_normal_ = r * std::sin(theta);
  return r * std::cos(theta);
}

int64_t Generator::next_from_to(int64_t low, int64_t high) {
  MT_CHECK_VALUE(low < high, "random_ expects 'from' to be less than 'to', but got from=", low, " >= to=", high);
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  // One 32-bit draw when the range fits in it, as PyTorch does, so both give the same numbers.
  const uint64_t raw = range >= (uint64_t(1) << 32) ? next64() : next32();
  return static_cast<int64_t>(static_cast<uint64_t>(low) + raw % range);
}

Generator& default_generator() {
  static Generator generator;
  return generator;
}

void manual_seed(uint64_t seed) { default_generator().manual_seed(seed); }

}  // namespace mt
