#pragma once
// mt::Generator: the random-number source of rand/randn/randint. A mt19937 engine behind a mutex, and
// the transforms from random bits to numbers written out here rather than taken from
// std::*_distribution, whose results differ between standard libraries: a seed gives the same numbers
// on every run and every machine (and the same as PyTorch's CPU generator for rand and randint).
#include <cstdint>
#include <mutex>
#include <optional>
#include <random>

namespace mt {

class Generator {
 public:
  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;  // PyTorch's

  explicit Generator(uint64_t seed = kDefaultSeed);

  void manual_seed(uint64_t seed);
  // Reseeds from a non-deterministic source and returns the new seed.
  uint64_t seed();
  uint64_t current_seed() const;

  // Each call takes the lock; a run of draws can hold it once through Locked.
  uint32_t random();
  uint64_t random64();  // two draws: the first is the high half
  // Uniform in [0, 1) from the low `bits` bits of one draw (random() up to 32 bits, else random64()):
  // 24 for float, 53 for double, the bits each type's mantissa holds exactly.
  double uniform(int bits);
  // Standard normal by Box-Muller; each pair's second value is kept for the next call.
  double normal();
  // Uniform integer in [low, high), by modulo of one draw; needs low < high.
  int64_t random_from_to(int64_t low, int64_t high);

  // Everything the next draws depend on. Setting a state taken earlier replays the draws made since:
  // vmap with randomness=Same and a chunk_size runs every chunk from the first chunk's state.
  struct State {
    uint64_t seed;
    std::mt19937 engine;
    std::optional<double> next_normal;
  };
  State get_state() const;
  void set_state(const State& state);

  // Holds the lock for a run of draws, e.g. a factory filling a tensor: the run is consecutive in
  // the stream even while other threads draw, and no draw pays for the lock.
  class Locked {
   public:
    explicit Locked(Generator& g) : g_(g), lock_(g.mutex_) {}
    double uniform(int bits) { return g_.next_uniform(bits); }
    double normal() { return g_.next_normal(); }
    int64_t random_from_to(int64_t low, int64_t high) { return g_.next_from_to(low, high); }

   private:
    Generator& g_;
    std::lock_guard<std::mutex> lock_;
  };

 private:
  uint32_t next32() { return static_cast<uint32_t>(engine_()); }
  uint64_t next64();
  double next_uniform(int bits);
  double next_normal();
  int64_t next_from_to(int64_t low, int64_t high);

  mutable std::mutex mutex_;
  uint64_t seed_;
  std::mt19937 engine_;
  std::optional<double> next_normal_;
};

// The generator factories use when they are given none.
Generator& default_generator();
// Seeds the default generator.
void manual_seed(uint64_t seed);

}  // namespace mt
