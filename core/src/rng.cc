#include "commitlab/core/rng.h"

#include <bit>
#include <cmath>
#include <limits>

#include "commitlab/core/check.h"

namespace commitlab {
namespace {

// SplitMix64's output function (Steele, Lea and Flood): a strong 64-bit mixer.
uint64_t Mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;  // SplitMix64's increment

}  // namespace

Rng::Rng(uint64_t seed) {
  // Four successive SplitMix64 outputs from the seed.
  for (uint64_t& word : s_) word = Mix64(seed += kGolden);
  COMMITLAB_CHECK((s_[0] | s_[1] | s_[2] | s_[3]) != 0,
                  "xoshiro256++ never starts from the all-zero state, its fixed point");
}

uint64_t Rng::Below(uint64_t n) {
  if (n == 0) return 0;
  // Reject the top partial range so every residue is equally likely. That range is shorter than
  // n, so only a draw above max - n needs the (dividing) exact limit.
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t x = Next();
  while (x > kMax - n && x >= kMax - kMax % n) x = Next();
  COMMITLAB_DCHECK(x < kMax - kMax % n, "a kept draw lies in the whole multiples of n: no residue is favoured");
  return x % n;
}

int64_t Rng::Between(int64_t lo, int64_t hi) {
  if (hi <= lo) return lo;
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  if (span == 0) return static_cast<int64_t>(Next());  // the full 64-bit range
  const uint64_t offset = Below(span);
  COMMITLAB_DCHECK(offset < span, "a draw in [lo, hi] stays in it");
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + offset);
}

double Rng::Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

namespace {

// The ziggurat covers the density f(x) = exp(-x^2/2), x >= 0, with kLayers layers of equal area
// kArea: layer i > 0 is the box [0, x[i]] x [f(x[i]), f(x[i+1])]; layer 0 is the box
// [0, kTail] x [0, f(kTail)] plus the tail beyond kTail, drawn as a box of width x[0].
constexpr int kLayers = 128;
constexpr double kTail = 3.442619855899;       // x[1], for 128 layers
constexpr double kArea = 9.91256303526217e-3;  // each layer's area

double Density(double x) { return std::exp(-0.5 * x * x); }

struct Ziggurat {
  double x[kLayers + 1];
  double f[kLayers + 1];
  Ziggurat() {
    x[0] = kArea / Density(kTail);
    x[1] = kTail;
    for (int i = 1; i < kLayers - 1; ++i) x[i + 1] = std::sqrt(-2.0 * std::log(kArea / x[i] + Density(x[i])));
    x[kLayers] = 0.0;
    for (int i = 0; i <= kLayers; ++i) f[i] = Density(x[i]);
  }
};

// Built before main(); nothing draws a normal during static initialisation.
const Ziggurat kZiggurat;

}  // namespace

double Rng::Normal(double mean, double stddev) {
  const uint64_t bits = Next();
  const auto layer = static_cast<size_t>(bits & (kLayers - 1));                       // low 7 bits
  const double x = static_cast<double>(bits >> 11) * 0x1.0p-53 * kZiggurat.x[layer];  // top 53 bits
  // Wholly under the curve ~97 % of the time; else the wedge or the tail decides. The magnitude
  // never depends on the sign bit (bit 7), so a rejected draw may keep it.
  const double magnitude = x < kZiggurat.x[layer + 1] ? x : NormalMagnitudeSlow(layer, x);
  // Bit 7 is the sign, flipped in with an xor: a branch on it would be mispredicted half the time.
  const double signed_magnitude = std::bit_cast<double>(std::bit_cast<uint64_t>(magnitude) ^ ((bits & 0x80) << 56));
  // A NaN or infinite draw would stall or scramble a simulated clock that adds it.
  COMMITLAB_DCHECK(std::isfinite(signed_magnitude), "a standard normal draw is a finite number");
  return mean + stddev * signed_magnitude;
}

double Rng::NormalMagnitudeSlow(size_t layer, double x) {
  const Ziggurat& z = kZiggurat;
  for (;;) {
    if (layer == 0) {
      // The tail beyond kTail (Marsaglia's method).
      double a, b;
      do {
        double u1 = Unit(), u2 = Unit();
        while (u1 <= 0.0) u1 = Unit();
        while (u2 <= 0.0) u2 = Unit();
        a = -std::log(u1) / kTail;
        b = -std::log(u2);
      } while (b + b < a * a);
      return kTail + a;
    }
    if (z.f[layer] + Unit() * (z.f[layer + 1] - z.f[layer]) < Density(x)) return x;  // in the wedge
    const uint64_t bits = Next();
    layer = static_cast<size_t>(bits & (kLayers - 1));
    x = static_cast<double>(bits >> 11) * 0x1.0p-53 * z.x[layer];
    if (x < z.x[layer + 1]) return x;
  }
}

double Rng::Exponential(double mean) {
  double u = Unit();
  while (u <= 0.0) u = Unit();
  return -mean * std::log(u);
}

uint64_t DeriveSeed(uint64_t base, uint64_t a, uint64_t b, uint64_t c) {
  auto mix = [](uint64_t z) { return Mix64(z + kGolden); };
  return mix(mix(mix(mix(base) ^ a) ^ b) ^ c);
}

}  // namespace commitlab
