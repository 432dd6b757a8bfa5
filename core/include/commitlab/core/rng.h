// Rng: the seeded random stream. std::mt19937_64's output is fixed by the standard, but the
// std::*_distribution classes are not, so every distribution here is our own: the same seed gives
// the same draws with any standard library.
#ifndef COMMITLAB_CORE_RNG_H_
#define COMMITLAB_CORE_RNG_H_

#include <cstddef>
#include <cstdint>
#include <random>

namespace commitlab {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}

  uint64_t Next() { return engine_(); }
  // Uniform in [0, n); n == 0 gives 0. Rejection sampling, so no modulo bias.
  uint64_t Below(uint64_t n);
  // Uniform in [lo, hi], inclusive.
  int64_t Between(int64_t lo, int64_t hi);
  // Uniform in [0, 1) with 53 random bits.
  double Unit();
  // Marsaglia and Tsang's ziggurat: one 64-bit draw and a table look-up for ~98.8 % of values, no
  // libm call on that path (a simulated sweep draws four per commit attempt).
  double Normal(double mean, double stddev);
  double Exponential(double mean);
  bool Chance(double p) { return Unit() < p; }

 private:
  // A rejected ziggurat draw: the magnitude from layer `layer` and point `x` onwards.
  double NormalMagnitudeSlow(size_t layer, double x);

  std::mt19937_64 engine_;
};

// Derives an independent seed from a base seed and labels (SplitMix64 mixing), so runs of a sweep
// get the same seed whatever thread runs them.
uint64_t DeriveSeed(uint64_t base, uint64_t a, uint64_t b = 0, uint64_t c = 0);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_RNG_H_
