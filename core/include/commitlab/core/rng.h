// Rng: the seeded random stream. The generator is xoshiro256++ (Blackman and Vigna, 2019), its
// state filled from the seed by SplitMix64 as its authors advise; every distribution here is our
// own too, so the same seed gives the same draws with any compiler and standard library. Normal and
// Exponential still call libm (exp, log, sqrt); the known-answer tests in core/tests/rng_test.cc
// show at once a platform whose libm rounds differently. It replaced std::mt19937_64, whose draws
// cost about 40 instructions each against about 12: a simulated sweep makes some 7 draws per
// commit attempt.
#ifndef COMMITLAB_CORE_RNG_H_
#define COMMITLAB_CORE_RNG_H_

#include <bit>
#include <cstddef>
#include <cstdint>

namespace commitlab {

class Rng {
 public:
  explicit Rng(uint64_t seed);

  uint64_t Next() {
    const uint64_t out = std::rotl(s_[0] + s_[3], 23) + s_[0];
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return out;
  }
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

  uint64_t s_[4];  // xoshiro256++ state; never all zero (SplitMix64 cannot give four zeros)
};

// Derives an independent seed from a base seed and labels (SplitMix64 mixing), so runs of a sweep
// get the same seed whatever thread runs them.
uint64_t DeriveSeed(uint64_t base, uint64_t a, uint64_t b = 0, uint64_t c = 0);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_RNG_H_
