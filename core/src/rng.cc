#include "commitlab/core/rng.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace commitlab {

uint64_t Rng::Below(uint64_t n) {
  if (n == 0) return 0;
  // Reject the top partial range so every residue is equally likely.
  const uint64_t limit = std::numeric_limits<uint64_t>::max() - std::numeric_limits<uint64_t>::max() % n;
  uint64_t x;
  do {
    x = engine_();
  } while (x >= limit);
  return x % n;
}

int64_t Rng::Between(int64_t lo, int64_t hi) {
  if (hi <= lo) return lo;
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  if (span == 0) return static_cast<int64_t>(engine_());  // the full 64-bit range
  return lo + static_cast<int64_t>(Below(span));
}

double Rng::Unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

double Rng::Normal(double mean, double stddev) {
  double u1 = Unit();
  while (u1 <= 0.0) u1 = Unit();
  const double u2 = Unit();
  return mean + stddev * std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

double Rng::Exponential(double mean) {
  double u = Unit();
  while (u <= 0.0) u = Unit();
  return -mean * std::log(u);
}

uint64_t DeriveSeed(uint64_t base, uint64_t a, uint64_t b, uint64_t c) {
  auto mix = [](uint64_t z) {
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  return mix(mix(mix(mix(base) ^ a) ^ b) ^ c);
}

}  // namespace commitlab
