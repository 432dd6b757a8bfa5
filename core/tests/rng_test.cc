#include "commitlab/core/rng.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace commitlab {
namespace {

// The stream is xoshiro256++ with its state drawn from SplitMix64(seed). The expected words come
// from an independent implementation of both (Python, from the authors' reference C); SplitMix64's
// first output for seed 0, 0xe220a8397b1dcdaf, is the published one.
TEST(RngTest, IsXoshiro256PlusPlusSeededBySplitMix64) {
  Rng zero(0);
  EXPECT_EQ(zero.Next(), 0x53175d61490b23dfULL);
  EXPECT_EQ(zero.Next(), 0x61da6f3dc380d507ULL);
  EXPECT_EQ(zero.Next(), 0x5c0fdf91ec9a7bfcULL);
  Rng brooker(2015);
  EXPECT_EQ(brooker.Next(), 0x6d335627880c16b6ULL);
  EXPECT_EQ(brooker.Next(), 0x29253e2d9723f5c9ULL);
  EXPECT_EQ(brooker.Next(), 0x805cae1b548ab3fcULL);
}

TEST(RngTest, SameSeedSameDraws) {
  Rng a(7), b(7);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(a.Next(), b.Next());
    ASSERT_EQ(a.Normal(10, 2), b.Normal(10, 2));
    ASSERT_EQ(a.Between(-3, 3), b.Between(-3, 3));
  }
}

TEST(RngTest, BetweenStaysInRangeAndHitsBothEnds) {
  Rng r(1);
  bool lo = false, hi = false;
  for (int i = 0; i < 1000; ++i) {
    const int64_t x = r.Between(-2, 2);
    ASSERT_GE(x, -2);
    ASSERT_LE(x, 2);
    lo |= x == -2;
    hi |= x == 2;
  }
  EXPECT_TRUE(lo && hi);
  EXPECT_EQ(r.Between(5, 5), 5);
  EXPECT_EQ(r.Below(0), 0u);
}

// Below() skips the division that computes its rejection limit unless a draw lies in the top n
// values; the draws must be exactly those of the plain rejection loop, including for huge n where
// about half the draws are rejected.
TEST(RngTest, BelowMatchesThePlainRejectionLoop) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  auto plain = [](Rng& r, uint64_t n) {
    const uint64_t limit = kMax - kMax % n;
    uint64_t x;
    do {
      x = r.Next();
    } while (x >= limit);
    return x % n;
  };
  for (uint64_t n : {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{6000}, uint64_t{1'000'000'000'000},
                     (uint64_t{1} << 63) + 1, uint64_t{3} << 62, kMax}) {
    Rng fast(5), slow(5);
    for (int i = 0; i < 2000; ++i) {
      const uint64_t x = fast.Below(n);
      ASSERT_EQ(x, plain(slow, n)) << "n=" << n << " draw " << i;
      ASSERT_LT(x, n);
    }
  }
}

// The ziggurat's layers, wedges and tail must add up to the standard normal: compare the sample's
// CDF with Phi at many points (1e6 draws: a proportion's standard error is <= 0.0005), its moments,
// and how often the tail path beyond 3.4426 is taken.
TEST(RngTest, NormalFollowsTheStandardNormalCdf) {
  Rng r(42);
  constexpr int kDraws = 1'000'000;
  std::vector<double> xs(kDraws);
  double sum = 0, sq = 0, lag = 0, prev = 0;
  int tail = 0;
  for (double& x : xs) {
    x = r.Normal(0, 1);
    sum += x, sq += x * x, lag += x * prev, prev = x;
    tail += std::fabs(x) > 3.442619855899 ? 1 : 0;
  }
  EXPECT_NEAR(sum / kDraws, 0.0, 0.005);
  EXPECT_NEAR(std::sqrt(sq / kDraws), 1.0, 0.005);
  EXPECT_NEAR(lag / kDraws, 0.0, 0.005);  // consecutive draws uncorrelated
  EXPECT_NEAR(tail, kDraws * std::erfc(3.442619855899 / std::sqrt(2.0)), 150);
  for (double at = -3.5; at <= 3.5; at += 0.25) {
    int below = 0;
    for (double x : xs) below += x < at ? 1 : 0;
    const double phi = 0.5 * std::erfc(-at / std::sqrt(2.0));
    EXPECT_NEAR(static_cast<double>(below) / kDraws, phi, 0.003) << "at " << at;
  }
}

TEST(RngTest, NormalScalesByMeanAndStddev) {
  Rng a(3), b(3);
  for (int i = 0; i < 100; ++i) EXPECT_DOUBLE_EQ(a.Normal(10, 2), 10 + 2 * b.Normal(0, 1));
}

TEST(RngTest, ExponentialIsPositiveWithItsMean) {
  Rng r(9);
  double sum = 0;
  for (int i = 0; i < 100'000; ++i) {
    const double x = r.Exponential(5);
    ASSERT_GT(x, 0);
    sum += x;
  }
  EXPECT_NEAR(sum / 100'000, 5.0, 0.1);
}

TEST(RngTest, DeriveSeedSeparatesLabels) {
  EXPECT_EQ(DeriveSeed(1, 2, 3, 4), DeriveSeed(1, 2, 3, 4));
  EXPECT_NE(DeriveSeed(1, 2, 3, 4), DeriveSeed(1, 2, 4, 3));
  EXPECT_NE(DeriveSeed(1, 2), DeriveSeed(2, 2));
}

// Known answers for every distribution. Histories, golden traces and the checked-in sweep results
// depend on these exact values. Unit, Between, Below and Chance use integer arithmetic and exact
// IEEE operations only, so they hold on any platform (Unit's first value is brooker's first word
// above, 0x6d335627880c16b6, over 2^64). Normal and Exponential also call libm (exp, log, sqrt)
// for the ziggurat's table, its slow path and the exponential: these values are x86-64 glibc's,
// and a port whose libm rounds differently fails here at once rather than in a golden diff.
// The library is built with -ffp-contract=off, so no compiler fuses their multiply-adds.
uint64_t HashBits(uint64_t h, double d) {  // FNV-1a over the double's bytes
  const auto bits = std::bit_cast<uint64_t>(d);
  for (int i = 0; i < 8; ++i) {
    h ^= (bits >> (8 * i)) & 0xff;
    h *= 0x100000001b3ULL;
  }
  return h;
}

TEST(RngKnownAnswerTest, UnitBetweenBelowAndChance) {
  Rng unit(2015);
  EXPECT_EQ(unit.Unit(), 0x1.b4cd589e20304p-2);
  EXPECT_EQ(unit.Unit(), 0x1.4929f16cb91f8p-3);
  EXPECT_EQ(unit.Unit(), 0x1.00b95c36a9156p-1);
  Rng between(2015);
  std::vector<int64_t> b;
  for (int i = 0; i < 5; ++i) b.push_back(between.Between(-3, 3));
  EXPECT_EQ(b, (std::vector<int64_t>{3, 0, -2, 2, -1}));
  Rng below(2015);
  std::vector<uint64_t> w;
  for (int i = 0; i < 5; ++i) w.push_back(below.Below(1000));
  EXPECT_EQ(w, (std::vector<uint64_t>{382, 377, 364, 730, 167}));
  Rng chance(2015);
  std::vector<bool> c;
  for (int i = 0; i < 8; ++i) c.push_back(chance.Chance(0.3));
  EXPECT_EQ(c, (std::vector<bool>{false, true, false, true, true, true, false, false}));
}

TEST(RngKnownAnswerTest, NormalAndExponential) {
  Rng normal(2015);
  EXPECT_EQ(normal.Normal(10, 2), 0x1.125a3ea65784bp+3);
  EXPECT_EQ(normal.Normal(10, 2), 0x1.317a2e9cf6624p+3);
  EXPECT_EQ(normal.Normal(10, 2), 0x1.30adc4596fda3p+3);
  Rng exponential(2015);
  EXPECT_EQ(exponential.Exponential(10), 0x1.10a324b7a2952p+3);
  EXPECT_EQ(exponential.Exponential(10), 0x1.247d79b628d41p+4);
  EXPECT_EQ(exponential.Exponential(10), 0x1.b9ce7cd61895p+2);
  // 100,000 draws reach the ziggurat's wedges and tail, where libm decides.
  Rng n(7), e(7);
  uint64_t hn = 0xcbf29ce484222325ULL, he = hn;
  for (int i = 0; i < 100000; ++i) {
    hn = HashBits(hn, n.Normal(0, 1));
    he = HashBits(he, e.Exponential(1));
  }
  EXPECT_EQ(hn, 0xbd0d51892cbbe82fULL);
  EXPECT_EQ(he, 0x87929e2465eaeabcULL);
}

}  // namespace
}  // namespace commitlab
