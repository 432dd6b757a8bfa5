#include "commitlab/core/retry_policy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace commitlab {
namespace {

constexpr int64_t kMs = 1'000;
constexpr int64_t kSec = 1'000'000;
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

const RetryKind kAllKinds[] = {RetryKind::kNone,        RetryKind::kFixed,       RetryKind::kExponential,
                               RetryKind::kPaimon,      RetryKind::kIceberg,     RetryKind::kFullJitter,
                               RetryKind::kEqualJitter, RetryKind::kDecorrelated};

RetryPolicy Brooker(RetryKind kind) {
  RetryPolicy p = DefaultRetryPolicy(kind);  // base 5 ms, cap 2 s
  EXPECT_EQ(p.base_micros, 5 * kMs);
  EXPECT_EQ(p.cap_micros, 2 * kSec);
  return p;
}

// The waits a committer would ask for: failures 1..count, each call given the previous wait.
std::vector<int64_t> Sequence(const RetryPolicy& p, int count, uint64_t seed) {
  Rng rng(seed);
  std::vector<int64_t> out;
  int64_t prev = 0;
  for (int f = 1; f <= count; ++f) out.push_back(prev = NextWaitMicros(p, f, prev, rng));
  return out;
}

// --- Formulas without jitter: exact values. ---

TEST(RetryPolicyTest, NoneNeverWaitsAndDrawsNothing) {
  const RetryPolicy p = DefaultRetryPolicy(RetryKind::kNone);
  Rng rng(1);
  for (int f : {1, 2, 10, 1000}) EXPECT_EQ(NextWaitMicros(p, f, 123, rng), 0);
  Rng fresh(1);
  EXPECT_EQ(rng.Next(), fresh.Next());
}

TEST(RetryPolicyTest, FixedWaitsBaseEveryTime) {
  RetryPolicy p = DefaultRetryPolicy(RetryKind::kFixed);
  p.base_micros = 50 * kMs;
  EXPECT_EQ(Sequence(p, 5, 1), std::vector<int64_t>(5, 50 * kMs));
  Rng rng(1);
  EXPECT_EQ(NextWaitMicros(p, 1000, 0, rng), 50 * kMs);
}

TEST(RetryPolicyTest, ExponentialStartsAtTwiceBaseAndCaps) {
  // Brooker's simulator: the failure count goes up before the wait, so the first wait is 2 * base.
  const std::vector<int64_t> expected_ms = {10, 20, 40, 80, 160, 320, 640, 1280, 2000, 2000, 2000, 2000};
  std::vector<int64_t> got = Sequence(Brooker(RetryKind::kExponential), 12, 1);
  for (int64_t& w : got) w /= kMs;
  EXPECT_EQ(got, expected_ms);
}

TEST(RetryPolicyTest, ExponentialWithoutCapBelowOverflowIsExact) {
  RetryPolicy p = Brooker(RetryKind::kExponential);
  p.base_micros = 1;
  p.cap_micros = kInt64Max;
  Rng rng(1);
  EXPECT_EQ(NextWaitMicros(p, 62, 0, rng), int64_t{1} << 62);
  EXPECT_EQ(NextWaitMicros(p, 63, 0, rng), kInt64Max);  // 2^63 does not fit: saturates at cap
}

// --- Paimon. ---

TEST(RetryPolicyTest, PaimonDefaults) {
  const RetryPolicy p = PaimonDefaultPolicy();
  EXPECT_EQ(p.kind, RetryKind::kPaimon);
  EXPECT_EQ(p.base_micros, 10 * kMs);
  EXPECT_EQ(p.cap_micros, 10 * kSec);
  EXPECT_EQ(p.jitter, 0.2);
  EXPECT_EQ(p.max_retries, 10);
  EXPECT_LT(p.total_timeout_micros, 0);
  EXPECT_EQ(p, RetryPolicy{});  // the committer's default
  EXPECT_EQ(DefaultRetryPolicy(RetryKind::kPaimon), p);
}

TEST(RetryPolicyTest, PaimonBaseSequenceWithoutJitter) {
  RetryPolicy p = PaimonDefaultPolicy();
  p.jitter = 0;  // nextInt(max(1, 0)) is always 0
  std::vector<int64_t> got = Sequence(p, 12, 1);
  for (int64_t& w : got) w /= kMs;
  EXPECT_EQ(got, (std::vector<int64_t>{10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 10000, 10000}));
}

TEST(RetryPolicyTest, PaimonJitterIsWholeMillisecondsBelowTwentyPercent) {
  const RetryPolicy p = PaimonDefaultPolicy();
  Rng rng(7);
  std::set<int64_t> seen;
  for (int i = 0; i < 10'000; ++i) {
    const int64_t w = NextWaitMicros(p, 3, 0, rng);  // d = 40 ms, jitter nextInt(8)
    ASSERT_EQ(w % kMs, 0) << w;
    ASSERT_GE(w, 40 * kMs);
    ASSERT_LT(w, 48 * kMs);
    seen.insert(w / kMs);
  }
  EXPECT_EQ(seen.size(), 8u);  // every value of [40, 48) occurs
}

TEST(RetryPolicyTest, PaimonEveryWaitWithinItsWindow) {
  const RetryPolicy p = PaimonDefaultPolicy();
  Rng rng(11);
  for (int f = 1; f <= 20; ++f) {
    const int64_t d = std::min<int64_t>(int64_t{10} << (f - 1), 10'000);
    const int64_t hi = d + std::max<int64_t>(1, d / 5);  // exclusive
    for (int i = 0; i < 500; ++i) {
      const int64_t w = NextWaitMicros(p, f, 0, rng);
      ASSERT_EQ(w % kMs, 0);
      ASSERT_GE(w / kMs, d) << "failures " << f;
      ASSERT_LT(w / kMs, hi) << "failures " << f;
    }
  }
}

TEST(RetryPolicyTest, PaimonCapAppliesBeforeJitter) {
  const RetryPolicy p = PaimonDefaultPolicy();
  Rng rng(3);
  int64_t max_seen = 0;
  for (int i = 0; i < 2'000; ++i) {
    const int64_t w = NextWaitMicros(p, 11, 0, rng);  // 10 * 2^10 = 10240 ms > cap
    ASSERT_GE(w, 10 * kSec);
    ASSERT_LT(w, 12 * kSec);
    max_seen = std::max(max_seen, w);
  }
  EXPECT_GT(max_seen, 11 * kSec);  // the jitter is added on top of the cap
}

TEST(RetryPolicyTest, PaimonTinyWaitHasNoJitter) {
  RetryPolicy p = PaimonDefaultPolicy();
  p.base_micros = 1 * kMs;  // (int) (1 * 0.2) == 0, so nextInt(1) == 0
  Rng rng(5);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(NextWaitMicros(p, 1, 0, rng), 1 * kMs);
}

TEST(RetryPolicyTest, PaimonTruncatesSubMillisecondBaseLikeJava) {
  RetryPolicy p = PaimonDefaultPolicy();
  p.jitter = 0;
  p.base_micros = 2'500;  // 2 ms in Java's long millis
  Rng rng(1);
  EXPECT_EQ(NextWaitMicros(p, 1, 0, rng), 2 * kMs);
  EXPECT_EQ(NextWaitMicros(p, 2, 0, rng), 4 * kMs);
}

// --- Iceberg. ---

TEST(RetryPolicyTest, IcebergDefaults) {
  const RetryPolicy p = IcebergDefaultPolicy();
  EXPECT_EQ(p.kind, RetryKind::kIceberg);
  EXPECT_EQ(p.base_micros, 100 * kMs);
  EXPECT_EQ(p.cap_micros, 60 * kSec);
  EXPECT_EQ(p.jitter, 0.1);
  EXPECT_EQ(p.max_retries, 4);
  EXPECT_EQ(p.total_timeout_micros, 30 * 60 * kSec);
  EXPECT_EQ(DefaultRetryPolicy(RetryKind::kIceberg), p);
}

TEST(RetryPolicyTest, IcebergFirstWaitsAndCap) {
  const RetryPolicy p = IcebergDefaultPolicy();
  Rng rng(9);
  // delay = min(100 * 2^(k-1), 60000) ms, plus nextInt(max(1, (int) (delay * 0.1))).
  const struct {
    int failures;
    int64_t lo_ms, hi_ms;  // [lo, hi)
  } cases[] = {{1, 100, 110},      {2, 200, 220},      {3, 400, 440},       {4, 800, 880},
               {10, 51200, 56320}, {11, 60000, 66000}, {1000, 60000, 66000}};
  for (const auto& c : cases) {
    std::set<int64_t> seen;
    for (int i = 0; i < 2'000; ++i) {
      const int64_t w = NextWaitMicros(p, c.failures, 0, rng);
      ASSERT_EQ(w % kMs, 0);
      ASSERT_GE(w / kMs, c.lo_ms) << "failures " << c.failures;
      ASSERT_LT(w / kMs, c.hi_ms) << "failures " << c.failures;
      seen.insert(w / kMs);
    }
    if (c.failures == 1) {
      EXPECT_EQ(seen.size(), 10u);  // 100..109 all occur
    }
  }
  RetryPolicy no_jitter = p;
  no_jitter.jitter = 0;
  std::vector<int64_t> got = Sequence(no_jitter, 4, 1);
  EXPECT_EQ(got, (std::vector<int64_t>{100 * kMs, 200 * kMs, 400 * kMs, 800 * kMs}));
}

// --- Brooker's jittered policies. ---

TEST(RetryPolicyTest, FullJitterSpansZeroToCappedExponential) {
  const RetryPolicy p = Brooker(RetryKind::kFullJitter);
  Rng rng(13);
  for (int f = 1; f <= 12; ++f) {
    const int64_t v = std::min<int64_t>((5 * kMs) << f, 2 * kSec);
    int64_t lo = kInt64Max, hi = 0;
    double sum = 0;
    for (int i = 0; i < 10'000; ++i) {
      const int64_t w = NextWaitMicros(p, f, 0, rng);
      ASSERT_GE(w, 0);
      ASSERT_LE(w, v) << "failures " << f;
      lo = std::min(lo, w);
      hi = std::max(hi, w);
      sum += static_cast<double>(w);
    }
    EXPECT_LT(lo, v / 100) << "failures " << f;
    EXPECT_GT(hi, v - v / 100) << "failures " << f;
    EXPECT_NEAR(sum / 10'000, static_cast<double>(v) / 2.0, static_cast<double>(v) * 0.02) << "failures " << f;
  }
}

TEST(RetryPolicyTest, EqualJitterSpansHalfToCappedExponential) {
  const RetryPolicy p = Brooker(RetryKind::kEqualJitter);
  Rng rng(17);
  for (int f = 1; f <= 12; ++f) {
    const int64_t v = std::min<int64_t>((5 * kMs) << f, 2 * kSec);
    int64_t lo = kInt64Max, hi = 0;
    for (int i = 0; i < 10'000; ++i) {
      const int64_t w = NextWaitMicros(p, f, 0, rng);
      ASSERT_GE(w, v / 2) << "failures " << f;
      ASSERT_LE(w, v) << "failures " << f;
      lo = std::min(lo, w);
      hi = std::max(hi, w);
    }
    EXPECT_LT(lo, v / 2 + v / 100) << "failures " << f;
    EXPECT_GT(hi, v - v / 100) << "failures " << f;
  }
}

TEST(RetryPolicyTest, EqualJitterOddValueReachesBothEnds) {
  RetryPolicy p = Brooker(RetryKind::kEqualJitter);
  p.base_micros = 3;
  p.cap_micros = 5;  // v = min(5, 6) = 5: waits in [2, 5]
  Rng rng(1);
  std::set<int64_t> seen;
  for (int i = 0; i < 1'000; ++i) seen.insert(NextWaitMicros(p, 1, 0, rng));
  EXPECT_EQ(seen, (std::set<int64_t>{2, 3, 4, 5}));
}

TEST(RetryPolicyTest, DecorrelatedFirstWaitStartsFromBase) {
  const RetryPolicy p = Brooker(RetryKind::kDecorrelated);
  Rng rng(19);
  int64_t lo = kInt64Max, hi = 0;
  for (int i = 0; i < 10'000; ++i) {
    const int64_t w = NextWaitMicros(p, 1, 0, rng);  // prev 0 counts as base: U[5, 15] ms
    ASSERT_GE(w, 5 * kMs);
    ASSERT_LE(w, 15 * kMs);
    lo = std::min(lo, w);
    hi = std::max(hi, w);
  }
  EXPECT_LT(lo, 5 * kMs + 100);
  EXPECT_GT(hi, 15 * kMs - 100);
}

TEST(RetryPolicyTest, DecorrelatedGrowsFromPreviousWaitAndStaysInBaseCap) {
  const RetryPolicy p = Brooker(RetryKind::kDecorrelated);
  Rng rng(23);
  int at_cap = 0;
  for (int run = 0; run < 200; ++run) {
    int64_t prev = 0;
    for (int f = 1; f <= 40; ++f) {
      const int64_t w = NextWaitMicros(p, f, prev, rng);
      ASSERT_GE(w, 5 * kMs);
      ASSERT_LE(w, 2 * kSec);
      ASSERT_LE(w, 3 * std::max<int64_t>(prev, 5 * kMs));
      at_cap += w == 2 * kSec;
      prev = w;
    }
  }
  EXPECT_GT(at_cap, 0);  // min(cap, ...) binds once 3 * prev passes the cap
}

TEST(RetryPolicyTest, DecorrelatedUsesPreviousWaitNotFailureCount) {
  const RetryPolicy p = Brooker(RetryKind::kDecorrelated);
  Rng rng(29);
  for (int i = 0; i < 1'000; ++i) {
    const int64_t w = NextWaitMicros(p, 1, 100 * kMs, rng);  // U[5, 300] ms
    ASSERT_GE(w, 5 * kMs);
    ASSERT_LE(w, 300 * kMs);
  }
}

// --- Every kind: overflow, odd inputs, determinism. ---

TEST(RetryPolicyTest, HugeFailureCountsSaturateAtCap) {
  for (RetryKind kind : kAllKinds) {
    const RetryPolicy p = DefaultRetryPolicy(kind);
    Rng rng(31);
    for (int f : {63, 64, 1000, INT_MAX}) {
      for (int i = 0; i < 200; ++i) {
        const int64_t w = NextWaitMicros(p, f, p.cap_micros, rng);
        SCOPED_TRACE(std::string(RetryKindName(kind)) + " failures " + std::to_string(f));
        ASSERT_GE(w, 0);
        switch (kind) {
          case RetryKind::kNone: ASSERT_EQ(w, 0); break;
          case RetryKind::kFixed: ASSERT_EQ(w, p.base_micros); break;
          case RetryKind::kExponential: ASSERT_EQ(w, p.cap_micros); break;
          case RetryKind::kPaimon:
          case RetryKind::kIceberg:
            ASSERT_GE(w, p.cap_micros);
            ASSERT_LT(w, p.cap_micros + static_cast<int64_t>(static_cast<double>(p.cap_micros) * p.jitter));
            break;
          case RetryKind::kFullJitter: ASSERT_LE(w, p.cap_micros); break;
          case RetryKind::kEqualJitter:
            ASSERT_GE(w, p.cap_micros / 2);
            ASSERT_LE(w, p.cap_micros);
            break;
          case RetryKind::kDecorrelated:
            ASSERT_GE(w, p.base_micros);
            ASSERT_LE(w, p.cap_micros);
            break;
        }
      }
    }
  }
}

TEST(RetryPolicyTest, HugeCapsAndPreviousWaitsDoNotOverflow) {
  Rng rng(37);
  for (RetryKind kind : kAllKinds) {
    RetryPolicy p = DefaultRetryPolicy(kind);
    p.cap_micros = kInt64Max;
    for (int f : {1, 62, 63, 1000}) {
      const int64_t w = NextWaitMicros(p, f, kInt64Max, rng);
      EXPECT_GE(w, 0) << RetryKindName(kind) << " failures " << f;
      EXPECT_LE(w, kInt64Max);
    }
  }
  RetryPolicy paimon = PaimonDefaultPolicy();
  paimon.cap_micros = kInt64Max;  // cap in ms + 20% no longer fits in micros: saturates
  EXPECT_EQ(NextWaitMicros(paimon, 1000, 0, rng), kInt64Max);
}

TEST(RetryPolicyTest, FailureCountBelowOneCountsAsOne) {
  for (RetryKind kind : kAllKinds) {
    const RetryPolicy p = DefaultRetryPolicy(kind);
    Rng one(41), zero(41), negative(41);
    const int64_t first = NextWaitMicros(p, 1, 0, one);
    EXPECT_EQ(NextWaitMicros(p, 0, 0, zero), first) << RetryKindName(kind);
    EXPECT_EQ(NextWaitMicros(p, -5, 0, negative), first) << RetryKindName(kind);
  }
}

TEST(RetryPolicyTest, SameSeedSameSequenceOtherSeedOtherSequence) {
  for (RetryKind kind : kAllKinds) {
    const RetryPolicy p = DefaultRetryPolicy(kind);
    EXPECT_EQ(Sequence(p, 30, 42), Sequence(p, 30, 42)) << RetryKindName(kind);
    const bool jittered = kind != RetryKind::kNone && kind != RetryKind::kFixed && kind != RetryKind::kExponential;
    EXPECT_EQ(Sequence(p, 30, 42) != Sequence(p, 30, 43), jittered) << RetryKindName(kind);
  }
}

// Each jittered kind's first waits equal the formula applied to the same stream: this pins how
// the formula uses the Rng (which bound is inclusive, one draw per wait), not only its range.
TEST(RetryPolicyTest, JitteredFirstWaitsFollowTheRngExactly) {
  constexpr uint64_t kSeed = 2015;
  {
    Rng r(kSeed);
    std::vector<int64_t> want;
    for (int64_t v : {10 * kMs, 20 * kMs, 40 * kMs}) want.push_back(r.Between(0, v));
    EXPECT_EQ(Sequence(Brooker(RetryKind::kFullJitter), 3, kSeed), want);
  }
  {
    Rng r(kSeed);
    std::vector<int64_t> want;
    for (int64_t v : {10 * kMs, 20 * kMs, 40 * kMs}) want.push_back(v / 2 + r.Between(0, v / 2));
    EXPECT_EQ(Sequence(Brooker(RetryKind::kEqualJitter), 3, kSeed), want);
  }
  {
    Rng r(kSeed);
    std::vector<int64_t> want;
    int64_t prev = 5 * kMs;
    for (int i = 0; i < 3; ++i) want.push_back(prev = std::min(2 * kSec, r.Between(5 * kMs, 3 * prev)));
    EXPECT_EQ(Sequence(Brooker(RetryKind::kDecorrelated), 3, kSeed), want);
  }
  {
    Rng r(kSeed);
    std::vector<int64_t> want;
    for (int64_t d : {10, 20, 40})
      want.push_back((d + static_cast<int64_t>(r.Below(static_cast<uint64_t>(d / 5)))) * kMs);
    EXPECT_EQ(Sequence(PaimonDefaultPolicy(), 3, kSeed), want);
  }
  {
    Rng r(kSeed);
    std::vector<int64_t> want;
    for (int64_t d : {100, 200, 400})
      want.push_back((d + static_cast<int64_t>(r.Below(static_cast<uint64_t>(d / 10)))) * kMs);
    EXPECT_EQ(Sequence(IcebergDefaultPolicy(), 3, kSeed), want);
  }
}

// Golden values: xoshiro256++ and our own distributions are fixed, so these hold on any platform.
// They were computed by an independent implementation (Python) of the generator, Below/Between and
// each formula. A change here changes every recorded benchmark result.
TEST(RetryPolicyTest, GoldenFirstWaitsForSeed2015) {
  using W = std::vector<int64_t>;
  EXPECT_EQ(Sequence(PaimonDefaultPolicy(), 3, 2015), (W{10000, 21000, 44000}));
  EXPECT_EQ(Sequence(IcebergDefaultPolicy(), 3, 2015), (W{102000, 217000, 404000}));
  EXPECT_EQ(Sequence(Brooker(RetryKind::kFullJitter), 3, 2015), (W{1199, 5353, 31878}));
  EXPECT_EQ(Sequence(Brooker(RetryKind::kEqualJitter), 3, 2015), (W{9699, 12431, 38264}));
  EXPECT_EQ(Sequence(Brooker(RetryKind::kDecorrelated), 3, 2015), (W{6199, 10427, 13690}));
}

// --- Names, durations, parsing, formatting. ---

TEST(RetryParseTest, KindNamesRoundTrip) {
  for (RetryKind kind : kAllKinds) {
    Result<RetryPolicy> p = ParseRetryPolicy(RetryKindName(kind));
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    EXPECT_EQ(*p, DefaultRetryPolicy(kind));
    EXPECT_EQ(FormatRetryPolicy(*p), RetryKindName(kind));
  }
  EXPECT_EQ(RetryKindName(RetryKind::kFullJitter), "full-jitter");
  EXPECT_EQ(RetryKindName(RetryKind::kEqualJitter), "equal-jitter");
}

TEST(RetryParseTest, BrookerDefaults) {
  for (RetryKind kind :
       {RetryKind::kExponential, RetryKind::kFullJitter, RetryKind::kEqualJitter, RetryKind::kDecorrelated}) {
    Result<RetryPolicy> p = ParseRetryPolicy(RetryKindName(kind));
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(p->base_micros, 5 * kMs);
    EXPECT_EQ(p->cap_micros, 2 * kSec);
    EXPECT_LT(p->max_retries, 0);
    EXPECT_LT(p->total_timeout_micros, 0);
  }
}

TEST(RetryParseTest, ParsesEveryKey) {
  Result<RetryPolicy> p = ParseRetryPolicy("paimon:base=20ms,cap=1.5s,jitter=0.25,retries=3,timeout=2min");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(*p, (RetryPolicy{.kind = RetryKind::kPaimon,
                             .base_micros = 20 * kMs,
                             .cap_micros = 1'500 * kMs,
                             .jitter = 0.25,
                             .max_retries = 3,
                             .total_timeout_micros = 120 * kSec}));

  p = ParseRetryPolicy("fixed:base=250us,retries=unlimited");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->base_micros, 250);
  EXPECT_EQ(p->max_retries, -1);

  p = ParseRetryPolicy("iceberg:retries=-1,timeout=none");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->max_retries, -1);
  EXPECT_EQ(p->total_timeout_micros, -1);
  EXPECT_EQ(p->base_micros, 100 * kMs);  // unset keys keep the kind's defaults

  p = ParseRetryPolicy("none:retries=0");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->max_retries, 0);
}

TEST(RetryParseTest, Durations) {
  const struct {
    const char* text;
    int64_t micros;
  } ok[] = {{"0us", 0},
            {"0s", 0},
            {"7us", 7},
            {"5ms", 5 * kMs},
            {"2s", 2 * kSec},
            {"30min", 1'800 * kSec},
            {"1.5s", 1'500'000},
            {"0.25ms", 250},
            {"1.000001s", 1'000'001},
            {"0.5min", 30 * kSec},
            {"2h", 7200 * kSec},
            {"1d", 86400 * kSec},
            {"0.200000000d", 17280 * kSec},
            {"0.999999995d", 86'399'999'568}};
  for (const auto& c : ok) {
    Result<int64_t> d = ParseDurationMicros(c.text);
    ASSERT_TRUE(d.ok()) << c.text << ": " << d.status().ToString();
    EXPECT_EQ(*d, c.micros) << c.text;
  }
  for (const char* bad : {"", "5", "ms", "5 ms", "5MS", "-5ms", "+5ms", "1.5us", "1.ms", ".5s", "1.2.3s", "5y", "5H",
                          "5sec", "9223372036854775808us", "153722867281min", "0.0000000001s"}) {
    Result<int64_t> d = ParseDurationMicros(bad);
    ASSERT_FALSE(d.ok()) << bad;
    EXPECT_EQ(d.status().code(), Code::kInvalidArgument);
    EXPECT_EQ(d.status().message(),
              std::string("bad duration \"") + bad + "\" (expected a number with us, ms, s, min, h or d)");
  }
  EXPECT_EQ(*ParseDurationMicros("9223372036854775807us"), kInt64Max);
  EXPECT_EQ(FormatDurationMicros(0), "0s");
  EXPECT_EQ(FormatDurationMicros(250), "250us");
  EXPECT_EQ(FormatDurationMicros(1'500 * kMs), "1500ms");
  EXPECT_EQ(FormatDurationMicros(10 * kSec), "10s");
  EXPECT_EQ(FormatDurationMicros(90 * kSec), "90s");
  EXPECT_EQ(FormatDurationMicros(1'800 * kSec), "30min");
  for (int64_t micros : {int64_t{0}, int64_t{1}, int64_t{999}, 1'001 * kMs, 60 * kSec, 61 * kSec, kInt64Max}) {
    EXPECT_EQ(*ParseDurationMicros(FormatDurationMicros(micros)), micros);
  }
}

TEST(RetryParseTest, FormatIsCanonical) {
  EXPECT_EQ(FormatRetryPolicy(PaimonDefaultPolicy()), "paimon");
  EXPECT_EQ(FormatRetryPolicy(IcebergDefaultPolicy()), "iceberg");
  RetryPolicy p = DefaultRetryPolicy(RetryKind::kExponential);
  p.cap_micros = 60 * kSec;
  p.max_retries = 8;
  EXPECT_EQ(FormatRetryPolicy(p), "exponential:cap=1min,retries=8");
  p = IcebergDefaultPolicy();
  p.jitter = 0.3;
  p.max_retries = -1;
  p.total_timeout_micros = -1;
  EXPECT_EQ(FormatRetryPolicy(p), "iceberg:jitter=0.3,retries=unlimited,timeout=none");
  EXPECT_EQ(FormatRetryPolicy(*ParseRetryPolicy("fixed:timeout=1.5s,base=0.5s")), "fixed:base=500ms,timeout=1500ms");
}

TEST(RetryParseTest, RoundTripEveryPolicy) {
  const char* specs[] = {
      "none",
      "none:retries=3,timeout=10s",
      "fixed",
      "fixed:base=250us,retries=0",
      "exponential",
      "exponential:base=1ms,cap=30s,retries=5,timeout=2min",
      "paimon",
      "paimon:base=20ms,cap=5s,jitter=0.5,retries=unlimited,timeout=10s",
      "paimon:jitter=0",
      "iceberg",
      "iceberg:base=1s,cap=1min,jitter=0.123456789,retries=2,timeout=none",
      "full-jitter",
      "full-jitter:base=100us,cap=100us",
      "equal-jitter:cap=10s",
      "decorrelated",
      "decorrelated:base=1ms,cap=1s,retries=100,timeout=1.000001s",
  };
  for (const char* spec : specs) {
    Result<RetryPolicy> p = ParseRetryPolicy(spec);
    ASSERT_TRUE(p.ok()) << spec << ": " << p.status().ToString();
    const std::string formatted = FormatRetryPolicy(*p);
    Result<RetryPolicy> again = ParseRetryPolicy(formatted);
    ASSERT_TRUE(again.ok()) << formatted << ": " << again.status().ToString();
    EXPECT_EQ(*again, *p) << spec << " -> " << formatted;
    EXPECT_EQ(FormatRetryPolicy(*again), formatted);
  }
  // Policies built in code from a kind's defaults round-trip too.
  for (RetryKind kind : kAllKinds) {
    RetryPolicy p = DefaultRetryPolicy(kind);
    p.max_retries = 7;
    p.total_timeout_micros = 3 * kSec;
    if (kind != RetryKind::kNone) p.base_micros = 40 * kMs;
    if (kind != RetryKind::kNone && kind != RetryKind::kFixed) p.cap_micros = 4 * kSec;
    Result<RetryPolicy> again = ParseRetryPolicy(FormatRetryPolicy(p));
    ASSERT_TRUE(again.ok()) << FormatRetryPolicy(p);
    EXPECT_EQ(*again, p) << FormatRetryPolicy(p);
  }
}

TEST(RetryParseTest, ErrorsNameTheProblem) {
  const std::string kinds = "none, fixed, exponential, paimon, iceberg, full-jitter, equal-jitter, decorrelated";
  const struct {
    const char* spec;
    std::string message;
  } cases[] = {
      {"expo", "retry policy \"expo\": unknown policy name \"expo\" (expected one of " + kinds + ")"},
      {"", "retry policy \"\": unknown policy name \"\" (expected one of " + kinds + ")"},
      {"Paimon", "retry policy \"Paimon\": unknown policy name \"Paimon\" (expected one of " + kinds + ")"},
      {"fixed:base=ten",
       "retry policy \"fixed:base=ten\": bad duration \"ten\" for key base (expected a number with "
       "us, ms, s, min, h or d)"},
      {"fixed:base=10",
       "retry policy \"fixed:base=10\": bad duration \"10\" for key base (expected a number with "
       "us, ms, s, min, h or d)"},
      {"exponential:cap=-1s",
       "retry policy \"exponential:cap=-1s\": bad duration \"-1s\" for key cap (expected a number "
       "with us, ms, s, min, h or d)"},
      {"iceberg:timeout=forever",
       "retry policy \"iceberg:timeout=forever\": bad duration \"forever\" for key timeout "
       "(expected a number with us, ms, s, min, h or d, or none)"},
      {"paimon:jitter=1.5",
       "retry policy \"paimon:jitter=1.5\": bad value \"1.5\" for key jitter (expected a number "
       "between 0 and 1)"},
      {"paimon:jitter=nan",
       "retry policy \"paimon:jitter=nan\": bad value \"nan\" for key jitter (expected a number "
       "between 0 and 1)"},
      {"paimon:retries=-2",
       "retry policy \"paimon:retries=-2\": bad value \"-2\" for key retries (expected an integer "
       ">= 0, or -1 or unlimited)"},
      {"paimon:retries=3.5",
       "retry policy \"paimon:retries=3.5\": bad value \"3.5\" for key retries (expected an "
       "integer >= 0, or -1 or unlimited)"},
      {"exponential:foo=1",
       "retry policy \"exponential:foo=1\": unknown key \"foo\" (expected one of base, cap, "
       "jitter, retries, timeout)"},
      {"exponential:base", "retry policy \"exponential:base\": expected key=value, got \"base\""},
      {"exponential:", "retry policy \"exponential:\": expected key=value, got \"\""},
      {"exponential:base=1ms,", "retry policy \"exponential:base=1ms,\": expected key=value, got \"\""},
      {"exponential:base=1ms,base=2ms", "retry policy \"exponential:base=1ms,base=2ms\": key base given twice"},
      {"fixed:cap=1s",
       "retry policy \"fixed:cap=1s\": key cap does not apply to fixed (its keys are base, "
       "retries, timeout)"},
      {"none:base=1ms",
       "retry policy \"none:base=1ms\": key base does not apply to none (its keys are retries, "
       "timeout)"},
      {"decorrelated:jitter=0.1",
       "retry policy \"decorrelated:jitter=0.1\": key jitter does not apply to decorrelated (its "
       "keys are base, cap, retries, timeout)"},
      {"exponential:base=5s,cap=1s", "retry policy \"exponential:base=5s,cap=1s\": cap 1s is below base 5s"},
      {"decorrelated:cap=1ms", "retry policy \"decorrelated:cap=1ms\": cap 1ms is below base 5ms"},
      {"paimon:base=1500us",
       "retry policy \"paimon:base=1500us\": base 1500us is not a whole number of milliseconds "
       "(paimon waits in whole milliseconds)"},
      {"iceberg:cap=2.0005s",
       "retry policy \"iceberg:cap=2.0005s\": cap 2000500us is not a whole number of "
       "milliseconds (iceberg waits in whole milliseconds)"},
  };
  for (const auto& c : cases) {
    Result<RetryPolicy> p = ParseRetryPolicy(c.spec);
    ASSERT_FALSE(p.ok()) << c.spec;
    EXPECT_EQ(p.status().code(), Code::kInvalidArgument) << c.spec;
    EXPECT_EQ(p.status().message(), c.message);
  }
}

}  // namespace
}  // namespace commitlab

namespace commitlab {
namespace {

// The wait as a reader of a lost race is told it: the policy's own arithmetic, from its parts.
TEST(ExplainWaitTest, SaysHowEachPolicyMadeItsWait) {
  const RetryPolicy paimon = PaimonDefaultPolicy();
  EXPECT_EQ(ExplainWait(paimon, 1, {.base_micros = 10'000, .jitter_micros = 1'000, .wait_micros = 11'000}),
            "11 ms = 10 ms × 2^0 + 1 ms jitter");
  EXPECT_EQ(ExplainWait(paimon, 3, {.base_micros = 40'000, .jitter_micros = 0, .wait_micros = 40'000}),
            "40 ms = 10 ms × 2^2 + 0 ms jitter");
  EXPECT_EQ(ExplainWait(paimon, 20, {.base_micros = 10'000'000, .jitter_micros = 1'500'000, .wait_micros = 11'500'000}),
            "11.5 s = 10 s (the cap) + 1.5 s jitter");
  // Every wait NextWait makes is explained by its own policy, never as a foreign one.
  Rng rng(7);
  for (RetryKind kind :
       {RetryKind::kNone, RetryKind::kFixed, RetryKind::kExponential, RetryKind::kPaimon, RetryKind::kIceberg,
        RetryKind::kFullJitter, RetryKind::kEqualJitter, RetryKind::kDecorrelated}) {
    const RetryPolicy p = DefaultRetryPolicy(kind);
    for (int n = 1; n <= 12; ++n) {
      const RetryWait w = NextWait(p, n, 0, rng);
      const std::string text = ExplainWait(p, n, w);
      const std::string_view says = kind == RetryKind::kNone           ? "none"
                                    : kind == RetryKind::kFixed        ? "fixed"
                                    : kind == RetryKind::kDecorrelated ? "decorrelated"
                                                                       : "2^";
      EXPECT_TRUE(text.find(says) != std::string::npos || text.find("(the cap)") != std::string::npos)
          << RetryKindName(kind) << " n=" << n << ": " << text;
    }
  }
  EXPECT_EQ(ExplainWait(DefaultRetryPolicy(RetryKind::kExponential), 2,
                        {.base_micros = 20'000, .jitter_micros = 0, .wait_micros = 20'000}),
            "20 ms = 5 ms × 2^2");
}

TEST(ExplainWaitTest, PartsThatOverflowAreToldAsTheyAre) {
  // A hand-edited history: base + jitter does not fit in 64 bits (no signed overflow under UBSan).
  const RetryWait w{.base_micros = 10'000, .jitter_micros = INT64_MAX, .wait_micros = INT64_MAX};
  EXPECT_TRUE(ExplainWait(PaimonDefaultPolicy(), 1, w).starts_with("9223372036854.775 s = 10 ms + "));
}

TEST(ExplainWaitTest, AWaitAnotherPolicyMadeIsToldByItsParts) {
  EXPECT_EQ(ExplainWait(PaimonDefaultPolicy(), 1, {.base_micros = 50'000, .jitter_micros = 500, .wait_micros = 50'500}),
            "50.5 ms = 50 ms + 0.5 ms jitter");
}

}  // namespace
}  // namespace commitlab
