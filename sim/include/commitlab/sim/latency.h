// LatencyModel: how long each hop of a storage operation takes in a simulated run. An operation
// is a request hop (it takes effect when the request arrives) and a response hop (its caller
// resumes when the response arrives), as with a remote catalog or object store and as in
// Brooker's backoff simulator. Parameters are in milliseconds; draws are whole microseconds from
// the run's random stream with commitlab::Rng's own distributions.
//
// Spec: pieces separated by ';', each KEY=DIST.
//   KEY  = OP | OP.request | OP.response        OP = read-latest | read-snapshot | write-manifest |
//                                                    publish | write-data | check-data | * (every operation)
//   DIST = const:MS | uniform:LO,HI | normal:MEAN,SD (folded at 0: |x|) | exp:MEAN
// A key without a hop sets both hops. The most specific key wins whatever the order:
// OP.hop > OP > *.hop > *. Example: "publish=normal:10,2;read-latest=const:1;*=uniform:0,2".
// The default model is all zero: pure scheduling, no draws.
#ifndef COMMITLAB_SIM_LATENCY_H_
#define COMMITLAB_SIM_LATENCY_H_

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "commitlab/core/env.h"
#include "commitlab/core/rng.h"
#include "commitlab/core/status.h"

namespace commitlab::sim {

// Storage latency that makes a write-and-commit cycle (a Parquet file, then a few milliseconds of
// manifests and the rename) take about as long as S2 第 5 讲's Java job (docs/lectures.md#s2-5-race),
// so that writers contend as they did there: `commitlab race` and the formats sweep run it.
inline constexpr std::string_view kLectureLatencySpec =
    "read-latest=uniform:0.2,1;read-snapshot=uniform:0.2,1;write-manifest=uniform:1,4;publish=uniform:0.5,2;"
    "write-data=uniform:4,10";

struct Distribution {
  enum class Kind { kConstant, kUniform, kNormal, kExponential };
  Kind kind = Kind::kConstant;
  double a = 0;  // ms: the constant, uniform's low end, normal's mean, exponential's mean
  double b = 0;  // ms: uniform's high end, normal's standard deviation

  // A constant draws nothing from the stream. Inline: a simulated sweep draws four per attempt.
  int64_t DrawMicros(Rng& rng) const {
    switch (kind) {
      case Kind::kConstant: return ToMicros(a);
      case Kind::kUniform: return rng.Between(ToMicros(a), ToMicros(b));
      case Kind::kNormal: return ToMicros(std::fabs(rng.Normal(a, b)));
      case Kind::kExponential: return ToMicros(rng.Exponential(a));
    }
    return 0;
  }
  // Rounds to the nearest microsecond. Every draw is >= 0 (folded, exponential, bounds checked), so
  // adding one half and truncating is exact and avoids a libm call on the hot path.
  static int64_t ToMicros(double millis) { return static_cast<int64_t>(millis * 1000.0 + 0.5); }
  bool operator==(const Distribution&) const = default;
};

// "const:1", "uniform:0,2", "normal:10,2", "exp:5".
std::string FormatDistribution(const Distribution& d);
Result<Distribution> ParseDistribution(std::string_view text);

struct LatencyModel {
  std::array<Distribution, kStorageOpCount> request{};   // by StorageOp
  std::array<Distribution, kStorageOpCount> response{};  // by StorageOp

  int64_t RequestMicros(StorageOp op, Rng& rng) const { return request[static_cast<size_t>(op)].DrawMicros(rng); }
  int64_t ResponseMicros(StorageOp op, Rng& rng) const { return response[static_cast<size_t>(op)].DrawMicros(rng); }
  bool operator==(const LatencyModel&) const = default;
};

// Errors name the spec piece and what was expected. "" is the all-zero model.
Result<LatencyModel> ParseLatencyModel(std::string_view spec);
// The canonical spec: ParseLatencyModel(FormatLatencyModel(m)) == m.
std::string FormatLatencyModel(const LatencyModel& m);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_LATENCY_H_
