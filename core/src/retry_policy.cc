#include "commitlab/core/retry_policy.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <system_error>
#include <utility>

#include "commitlab/core/check.h"
#include "commitlab/core/spec_parse.h"

namespace commitlab {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

struct KindName {
  RetryKind kind;
  std::string_view name;
};
constexpr std::array<KindName, 8> kKindNames = {{
    {RetryKind::kNone, "none"},
    {RetryKind::kFixed, "fixed"},
    {RetryKind::kExponential, "exponential"},
    {RetryKind::kPaimon, "paimon"},
    {RetryKind::kIceberg, "iceberg"},
    {RetryKind::kFullJitter, "full-jitter"},
    {RetryKind::kEqualJitter, "equal-jitter"},
    {RetryKind::kDecorrelated, "decorrelated"},
}};
constexpr std::string_view kKindList =
    "none, fixed, exponential, paimon, iceberg, full-jitter, equal-jitter, decorrelated";

// The spec keys, in canonical order.
enum Key { kBase, kCap, kJitter, kRetries, kTimeout, kNumKeys };
constexpr std::array<std::string_view, kNumKeys> kKeyNames = {"base", "cap", "jitter", "retries", "timeout"};

bool KeyApplies(RetryKind kind, Key key) {
  switch (key) {
    case kRetries:
    case kTimeout: return true;
    case kBase: return kind != RetryKind::kNone;
    case kCap: return kind != RetryKind::kNone && kind != RetryKind::kFixed;
    case kJitter: return kind == RetryKind::kPaimon || kind == RetryKind::kIceberg;
    case kNumKeys: break;
  }
  return false;
}

std::string KeysOf(RetryKind kind) {
  std::string out;
  for (int k = 0; k < kNumKeys; ++k) {
    if (!KeyApplies(kind, static_cast<Key>(k))) continue;
    if (!out.empty()) out += ", ";
    out += kKeyNames[static_cast<size_t>(k)];
  }
  return out;
}

// base * 2^n, or cap once that would exceed cap; never overflows, whatever n.
int64_t CappedDoubling(int64_t base, int n, int64_t cap) {
  COMMITLAB_CHECK(n >= 0, "a doubling count is never negative (a shift by it would be undefined)");
  if (base <= 0) return 0;
  if (n >= 63 || base > (cap >> n)) return cap;  // base * 2^n > cap, tested without multiplying
  return base << n;
}

// Java's RetryWaiter / Tasks arithmetic in whole milliseconds: d = min(base * 2^exp, cap), then
// d + nextInt(max(1, (int) (d * jitter))).
inline RetryWait JavaStyleWait(const RetryPolicy& p, int exp, Rng& rng) {
  const int64_t base_ms = std::max<int64_t>(0, p.base_micros) / 1000;
  const int64_t cap_ms = std::max<int64_t>(0, p.cap_micros) / 1000;
  const int64_t d = CappedDoubling(base_ms, exp, cap_ms);
  // Compare before converting: a double outside int64's range has no defined conversion.
  const double scaled = static_cast<double>(d) * p.jitter;
  const int64_t bound = scaled >= 1.0 ? static_cast<int64_t>(std::min(scaled, 0x1p62)) : 1;
  const int64_t jitter_ms = static_cast<int64_t>(rng.Below(static_cast<uint64_t>(bound)));
  auto micros = [](int64_t ms) { return ms > kInt64Max / 1000 ? kInt64Max : ms * 1000; };
  const int64_t wait_ms = d > kInt64Max - jitter_ms ? kInt64Max : d + jitter_ms;
  return {.base_micros = micros(d), .jitter_micros = micros(jitter_ms), .wait_micros = micros(wait_ms)};
}

int64_t UnitMicros(std::string_view unit) {
  if (unit == "us") return 1;
  if (unit == "ms") return 1'000;
  if (unit == "s") return 1'000'000;
  if (unit == "min") return 60'000'000;
  if (unit == "h") return 3'600'000'000;
  if (unit == "d") return 86'400'000'000;
  return 0;
}

bool IsDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

template <typename T>
std::optional<T> ParseWhole(std::string_view s) {
  T v{};
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> ParseFraction(std::string_view s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !(v >= 0.0 && v <= 1.0)) return std::nullopt;
  return v;
}

}  // namespace

std::string_view RetryKindName(RetryKind k) {
  for (const KindName& kn : kKindNames)
    if (kn.kind == k) return kn.name;
  return "?";
}

RetryPolicy DefaultRetryPolicy(RetryKind kind) {
  switch (kind) {
    case RetryKind::kPaimon: return PaimonDefaultPolicy();
    case RetryKind::kIceberg: return IcebergDefaultPolicy();
    case RetryKind::kNone:
      return {.kind = kind,
              .base_micros = 0,
              .cap_micros = 0,
              .jitter = 0.0,
              .max_retries = -1,
              .total_timeout_micros = -1};
    case RetryKind::kFixed:
      return {.kind = kind,
              .base_micros = 5'000,
              .cap_micros = 0,
              .jitter = 0.0,
              .max_retries = -1,
              .total_timeout_micros = -1};
    case RetryKind::kExponential:
    case RetryKind::kFullJitter:
    case RetryKind::kEqualJitter:
    case RetryKind::kDecorrelated: break;
  }
  // Brooker's simulator: base 5 ms, cap 2 s, and each client retries until it succeeds.
  return {.kind = kind,
          .base_micros = 5'000,
          .cap_micros = 2'000'000,
          .jitter = 0.0,
          .max_retries = -1,
          .total_timeout_micros = -1};
}

RetryPolicy PaimonDefaultPolicy() {
  // CoreOptions: commit.min-retry-wait 10 ms, commit.max-retry-wait 10 s, commit.max-retries 10,
  // commit.timeout unset; RetryWaiter adds up to 20%.
  return {.kind = RetryKind::kPaimon,
          .base_micros = 10'000,
          .cap_micros = 10'000'000,
          .jitter = 0.2,
          .max_retries = 10,
          .total_timeout_micros = -1};
}

RetryPolicy IcebergDefaultPolicy() {
  // TableProperties commit.retry.*: 4 retries, 100 ms, 60 s, 30 min; Tasks adds up to 10%.
  return {.kind = RetryKind::kIceberg,
          .base_micros = 100'000,
          .cap_micros = 60'000'000,
          .jitter = 0.1,
          .max_retries = 4,
          .total_timeout_micros = 1'800'000'000};
}

namespace {

// NextWait's arithmetic, inlined into both callers: NextWaitMicros, on a sweep's hot path, keeps
// only the wait and the compiler drops the rest.
inline RetryWait ComputeWaitUnchecked(const RetryPolicy& p, int failures, int64_t prev_wait_micros, Rng& rng) {
  const int n = std::max(failures, 1);
  const int64_t base = std::max<int64_t>(0, p.base_micros);
  const int64_t cap = std::max<int64_t>(0, p.cap_micros);
  auto fixed = [](int64_t wait) { return RetryWait{.base_micros = wait, .jitter_micros = 0, .wait_micros = wait}; };
  switch (p.kind) {
    case RetryKind::kNone: return fixed(0);
    case RetryKind::kFixed: return fixed(base);
    case RetryKind::kExponential: return fixed(CappedDoubling(base, n, cap));
    case RetryKind::kPaimon:
    case RetryKind::kIceberg:
      // Paimon's retryWait(retryCount) and Iceberg's delay after attempt k both double from the
      // base on the first retry: the exponent is one less than the failure count.
      return JavaStyleWait(p, n - 1, rng);
    case RetryKind::kFullJitter: {
      const int64_t drawn = rng.Between(0, CappedDoubling(base, n, cap));
      return {.base_micros = 0, .jitter_micros = drawn, .wait_micros = drawn};
    }
    case RetryKind::kEqualJitter: {
      const int64_t v = CappedDoubling(base, n, cap);
      const int64_t drawn = rng.Between(0, v - v / 2);
      return {.base_micros = v / 2, .jitter_micros = drawn, .wait_micros = v / 2 + drawn};
    }
    case RetryKind::kDecorrelated: {
      // Brooker's simulator starts from sleep = base; the committer passes 0 before the first
      // retry.
      const int64_t prev = std::max(prev_wait_micros, base);
      const int64_t hi = prev > kInt64Max / 3 ? kInt64Max : 3 * prev;
      const int64_t drawn = rng.Between(base, hi);
      return {.base_micros = base, .jitter_micros = drawn - base, .wait_micros = std::min(cap, drawn)};
    }
  }
  return fixed(0);
}

// The kinds whose every wait is at most the cap (paimon and iceberg add jitter above it; fixed has none).
constexpr bool CappedKind(RetryKind k) {
  return k == RetryKind::kNone || k == RetryKind::kExponential || k == RetryKind::kFullJitter ||
         k == RetryKind::kEqualJitter || k == RetryKind::kDecorrelated;
}

inline RetryWait ComputeWait(const RetryPolicy& p, int failures, int64_t prev_wait_micros, Rng& rng) {
  const RetryWait w = ComputeWaitUnchecked(p, failures, prev_wait_micros, rng);
  COMMITLAB_CHECK(w.wait_micros >= 0 && (!CappedKind(p.kind) || w.wait_micros <= std::max<int64_t>(0, p.cap_micros)),
                  "a retry wait lies in its policy's bounds: never negative, never past the cap of a capped kind");
  return w;
}

}  // namespace

RetryWait NextWait(const RetryPolicy& p, int failures, int64_t prev_wait_micros, Rng& rng) {
  const RetryWait w = ComputeWait(p, failures, prev_wait_micros, rng);
  int64_t sum = 0;
  const bool saturated = __builtin_add_overflow(w.base_micros, w.jitter_micros, &sum) || w.wait_micros == kInt64Max;
  COMMITLAB_CHECK(w.base_micros >= 0 && w.jitter_micros >= 0 &&
                      (saturated || p.kind == RetryKind::kDecorrelated || w.wait_micros == sum),
                  "a wait is its base plus its jitter (decorrelated then caps it; a huge one saturates)");
  return w;
}

int64_t NextWaitMicros(const RetryPolicy& p, int failures, int64_t prev_wait_micros, Rng& rng) {
  return ComputeWait(p, failures, prev_wait_micros, rng).wait_micros;
}

namespace {

// "11 ms", "0.5 ms", "10.44 s": a wait as a reader says it, to the millisecond from a second on.
std::string Spoken(int64_t micros) {
  const bool seconds = micros >= 1'000'000;
  std::string text = seconds ? fmt::format("{:.3f}", static_cast<double>(micros) / 1e6)
                             : fmt::format("{:.3f}", static_cast<double>(micros) / 1e3);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text + (seconds ? " s" : " ms");
}

// "10 ms × 2^3", or "10 s (the cap)" once the doubling reached it.
std::string Doubling(int64_t base, int exp, int64_t value, int64_t cap) {
  if (value == cap && (exp >= 63 || base == 0 || (cap >> exp) < base)) return Spoken(cap) + " (the cap)";
  return fmt::format("{} × 2^{}", Spoken(base), exp);
}

}  // namespace

std::string ExplainWait(const RetryPolicy& p, int failures, const RetryWait& w) {
  const int n = std::max(failures, 1);
  Rng unused(0);
  const RetryWait expected = ComputeWait(p, n, 0, unused);
  const std::string total = Spoken(w.wait_micros);
  // A wait this policy would not have made (a writer with its own policy): its parts only.
  int64_t sum = 0;
  if (expected.base_micros != w.base_micros || __builtin_add_overflow(w.base_micros, w.jitter_micros, &sum) ||
      sum < w.wait_micros)
    return ExplainWait(w);
  const int64_t base = std::max<int64_t>(0, p.base_micros);
  const int64_t cap = std::max<int64_t>(0, p.cap_micros);
  switch (p.kind) {
    case RetryKind::kNone: return "0 ms (none: at once)";
    case RetryKind::kFixed: return fmt::format("{} (fixed)", total);
    case RetryKind::kExponential: return fmt::format("{} = {}", total, Doubling(base, n, w.base_micros, cap));
    case RetryKind::kPaimon:
    case RetryKind::kIceberg:
      return fmt::format("{} = {} + {} jitter", total,
                         Doubling(base / 1000 * 1000, n - 1, w.base_micros, cap / 1000 * 1000),
                         Spoken(w.jitter_micros));
    case RetryKind::kFullJitter:
      return fmt::format("{}, drawn from [0, {}]", total, Doubling(base, n, CappedDoubling(base, n, cap), cap));
    case RetryKind::kEqualJitter:
      return fmt::format("{} = {} (half of {}) + {} jitter", total, Spoken(w.base_micros),
                         Doubling(base, n, CappedDoubling(base, n, cap), cap), Spoken(w.jitter_micros));
    case RetryKind::kDecorrelated:
      return fmt::format("{} = {} + {} drawn (decorrelated, at most 3 × the last wait, capped at {})", total,
                         Spoken(w.base_micros), Spoken(w.jitter_micros), Spoken(cap));
  }
  return total;
}

std::string ExplainWait(const RetryWait& w) {
  const std::string total = Spoken(w.wait_micros);
  return w.jitter_micros == 0
             ? total
             : fmt::format("{} = {} + {} jitter", total, Spoken(w.base_micros), Spoken(w.jitter_micros));
}

std::string FormatDurationMicros(int64_t micros) {
  if (micros == 0) return "0s";
  if (micros % 60'000'000 == 0) return fmt::format("{}min", micros / 60'000'000);
  if (micros % 1'000'000 == 0) return fmt::format("{}s", micros / 1'000'000);
  if (micros % 1'000 == 0) return fmt::format("{}ms", micros / 1'000);
  return fmt::format("{}us", micros);
}

Result<int64_t> ParseDurationMicros(std::string_view text) {
  const auto bad = [&] {
    return Status::InvalidArgument(
        fmt::format("bad duration \"{}\" (expected a number with us, ms, s, min, h or d)", text));
  };
  const size_t unit_at = text.find_first_not_of("0123456789.");
  if (unit_at == std::string_view::npos) return bad();
  const int64_t unit = UnitMicros(text.substr(unit_at));
  const std::string_view number = text.substr(0, unit_at);
  const size_t dot = number.find('.');
  const std::string_view whole = number.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? "" : number.substr(dot + 1);
  if (unit == 0 || !IsDigits(whole) || (dot != std::string_view::npos && !IsDigits(frac)) || frac.size() > 9) {
    return bad();
  }
  // Exact decimal arithmetic: "1.5s" is 1'500'000 us, and "1.5us" is an error, not 1 or 2.
  int64_t frac_micros = 0;
  if (!frac.empty()) {
    int64_t scale = 1;
    for (size_t i = 0; i < frac.size(); ++i) scale *= 10;
    // frac * unit / scale, exactly and without overflow (frac * unit passes int64 for days):
    // with g = gcd(unit, scale) it is (frac / (scale / g)) * (unit / g), and it is whole only when
    // scale / g divides frac. The result stays below unit.
    const int64_t f = *ParseWhole<int64_t>(frac);
    const int64_t g = std::gcd(unit, scale);
    if (f % (scale / g) != 0) return bad();
    frac_micros = f / (scale / g) * (unit / g);
  }
  const std::optional<int64_t> w = ParseWhole<int64_t>(whole);
  if (!w || *w > (kInt64Max - frac_micros) / unit) return bad();
  return *w * unit + frac_micros;
}

Result<RetryPolicy> ParseRetryPolicy(std::string_view spec) {
  const auto error = [&](std::string what) {
    return Status::InvalidArgument(fmt::format("retry policy \"{}\": {}", spec, what));
  };
  const Cut name_and_keys = CutAtFirst(spec, ':');
  const std::string_view name = name_and_keys.head;
  const auto kn = std::find_if(kKindNames.begin(), kKindNames.end(), [&](const KindName& k) { return k.name == name; });
  if (kn == kKindNames.end())
    return error(fmt::format("unknown policy name \"{}\" (expected one of {})", name, kKindList));
  RetryPolicy p = DefaultRetryPolicy(kn->kind);
  if (!name_and_keys.tail) return p;

  const auto bad = [](std::string what) { return Status::InvalidArgument(std::move(what)); };
  const Status items = ForEachKeyValue(*name_and_keys.tail, [&](std::string_view key_name, std::string_view value) {
    const auto key_it = std::find(kKeyNames.begin(), kKeyNames.end(), key_name);
    if (key_it == kKeyNames.end()) {
      return bad(fmt::format("unknown key \"{}\" (expected one of base, cap, jitter, retries, timeout)", key_name));
    }
    const Key key = static_cast<Key>(key_it - kKeyNames.begin());
    if (!KeyApplies(p.kind, key)) {
      return bad(fmt::format("key {} does not apply to {} (its keys are {})", key_name, name, KeysOf(p.kind)));
    }
    switch (key) {
      case kBase:
      case kCap: {
        const Result<int64_t> d = ParseDurationMicros(value);
        if (!d.ok()) {
          return bad(fmt::format("bad duration \"{}\" for key {} (expected a number with us, ms, s, min, h or d)",
                                 value, key_name));
        }
        (key == kBase ? p.base_micros : p.cap_micros) = *d;
        break;
      }
      case kJitter: {
        const std::optional<double> j = ParseFraction(value);
        if (!j) {
          return bad(fmt::format("bad value \"{}\" for key jitter (expected a number between 0 and 1)", value));
        }
        p.jitter = *j;
        break;
      }
      case kRetries: {
        const std::optional<int> r = value == "unlimited" ? std::optional<int>(-1) : ParseWhole<int>(value);
        if (!r || *r < -1) {
          return bad(
              fmt::format("bad value \"{}\" for key retries (expected an integer >= 0, or -1 or unlimited)", value));
        }
        p.max_retries = *r;
        break;
      }
      case kTimeout: {
        const Result<int64_t> d = value == "none" ? Result<int64_t>(int64_t{-1}) : ParseDurationMicros(value);
        if (!d.ok()) {
          return bad(
              fmt::format("bad duration \"{}\" for key timeout (expected a number with us, ms, s, min, h or d, or "
                          "none)",
                          value));
        }
        p.total_timeout_micros = *d;
        break;
      }
      case kNumKeys: break;
    }
    return Status::OK();
  });
  if (!items.ok()) return error(items.message());

  if (KeyApplies(p.kind, kCap) && p.cap_micros < p.base_micros) {
    return error(fmt::format("cap {} is below base {}", FormatDurationMicros(p.cap_micros),
                             FormatDurationMicros(p.base_micros)));
  }
  if (p.kind == RetryKind::kPaimon || p.kind == RetryKind::kIceberg) {
    // Their options are Java millisecond values; a finer base would be silently truncated.
    for (const Key key : {kBase, kCap}) {
      const int64_t micros = key == kBase ? p.base_micros : p.cap_micros;
      if (micros % 1000 == 0) continue;
      return error(
          fmt::format("{} {} is not a whole number of milliseconds ({} waits in whole "
                      "milliseconds)",
                      kKeyNames[key], FormatDurationMicros(micros), name));
    }
  }
  return p;
}

std::string FormatRetryPolicy(const RetryPolicy& p) {
  const RetryPolicy d = DefaultRetryPolicy(p.kind);
  std::string out(RetryKindName(p.kind));
  char sep = ':';
  const auto add = [&](Key key, const std::string& value) {
    if (!KeyApplies(p.kind, key)) return;
    out += sep;
    out += kKeyNames[key];
    out += '=';
    out += value;
    sep = ',';
  };
  if (p.base_micros != d.base_micros) add(kBase, FormatDurationMicros(p.base_micros));
  if (p.cap_micros != d.cap_micros) add(kCap, FormatDurationMicros(p.cap_micros));
  // fmt prints the shortest text that reads back as the same double.
  if (p.jitter != d.jitter) add(kJitter, fmt::format("{}", p.jitter));
  if (p.max_retries != d.max_retries)
    add(kRetries, p.max_retries < 0 ? std::string("unlimited") : fmt::format("{}", p.max_retries));
  if (p.total_timeout_micros != d.total_timeout_micros) {
    add(kTimeout, p.total_timeout_micros < 0 ? std::string("none") : FormatDurationMicros(p.total_timeout_micros));
  }
  return out;
}

}  // namespace commitlab
