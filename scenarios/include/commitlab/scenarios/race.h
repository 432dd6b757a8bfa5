// The race of "S2 第 5 讲：并发提交——乐观锁、冲突检测、重试", scenario 1 (docs/lectures.md#s2-5-race), as a
// scenario built from `commitlab race`'s flags: N writers (sim::WriterName: job-A, job-B, ...) each append M
// single-file commits to table race_log and race for snapshot ids. The text is an ordinary
// scenario (one `repeat` line per writer), so the race runs through the one scenario runner and its
// history embeds what ran.
#ifndef COMMITLAB_SCENARIOS_RACE_H_
#define COMMITLAB_SCENARIOS_RACE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/scenario.h"

namespace commitlab::scenarios {

inline constexpr int kMaxRaceWriters = 1000;
inline constexpr int kMaxRaceCommits = 100'000;
// writers x commits: each commit is two steps (write, commit) held in memory for the run.
inline constexpr int64_t kMaxRaceTotalCommits = 1'000'000;
inline constexpr char kRaceFileName[] = "<race>";

struct RaceSpec {
  int writers = 2;
  int commits = 30;
  std::string policy = "paimon";  // a retry policy spec
  bool idempotency_check = true;
  std::string object_store = {};         // "" (memory or a directory) or a mode: "check-then-put", ...
  std::string latency = {};              // a latency spec; "" for none
  std::vector<std::string> faults = {};  // fault specs
};

// The scenario text. InvalidArgument when the counts are out of range.
Result<std::string> RaceScenarioText(const RaceSpec& spec);
// RaceScenarioText, parsed (with room for its steps).
Result<Scenario> RaceScenario(const RaceSpec& spec);

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_RACE_H_
