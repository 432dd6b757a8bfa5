#include "lecture_notes.h"

#include <fmt/format.h>

#include <optional>

#include "commitlab/core/retry_policy.h"

namespace commitlab::cli {
namespace {

constexpr int kJitterSeeds = 20;

// The writers a run refused or stopped, by their table's name.
std::vector<std::string> RefusedTables(const scenarios::Scenario& s, const scenarios::RunReport& r) {
  std::vector<std::string> out;
  for (const scenarios::WriterReport& w : r.writers) {
    if (w.outcome == scenarios::Outcome::kOk) continue;
    for (const scenarios::Writer& sw : s.writers)
      if (sw.name == w.name && sw.table < s.tables.size()) out.push_back(s.tables[sw.table].name);
  }
  return out;
}

std::optional<scenarios::Outcome> OutcomeOf(const scenarios::RunReport& r, const std::string& writer) {
  for (const scenarios::WriterReport& w : r.writers)
    if (w.name == writer) return w.outcome;
  return std::nullopt;
}

// Mean lost races of the race over seeds 1..kJitterSeeds, simulated, under `policy`.
std::optional<double> MeanLostRaces(scenarios::Scenario s, const RetryPolicy& policy) {
  s.retry = scenarios::RetrySetting{.pos = {}, .spec = FormatRetryPolicy(policy), .policy = policy};
  int64_t lost = 0;
  for (int seed = 1; seed <= kJitterSeeds; ++seed) {
    scenarios::RunOptions o;
    o.seed = static_cast<uint64_t>(seed);
    o.sched = "random";
    Result<scenarios::RunReport> r = scenarios::RunScenario(s, o);
    if (!r.ok()) return std::nullopt;
    lost += r->tally.atomic_failures;
  }
  return static_cast<double>(lost) / kJitterSeeds;
}

}  // namespace

std::vector<std::string> LectureNotes(const std::string& file, const scenarios::Scenario& scenario,
                                      const scenarios::RunReport& report) {
  std::vector<std::string> notes;
  if (file == "iceberg_delete_isolation.scn") {
    const auto serial = OutcomeOf(report, "deleter");
    const auto snap = OutcomeOf(report, "snap-deleter");
    if (serial && snap) {
      notes.push_back(fmt::format(
          "「04 事务与并发控制」 gives Iceberg Snapshot Isolation only, weaker than Serializable; 「无锁并发写入」 and "
          "upstream (IsolationLevel SERIALIZABLE, the default of write.delete.isolation-level) have serializable too. "
          "This run: the DELETE under serializable {}, under snapshot {}.",
          *serial == scenarios::Outcome::kOk ? "committed" : "was refused",
          *snap == scenarios::Outcome::kOk ? "committed" : "was refused"));
    }
  } else if (file == "iceberg_append_race.scn") {
    notes.push_back(fmt::format(
        "「04 事务与并发控制」 3.3 tells Delta apart by every writer racing for one log version; Iceberg's appends "
        "race the same way, for the catalog pointer: this run lost {} race(s), each re-applied on the new metadata.",
        report.tally.atomic_failures));
  } else if (file == "delta_conflict_matrix.scn") {
    int serializable = 0, write_serializable = 0;
    for (const std::string& t : RefusedTables(scenario, report)) {
      serializable += t.starts_with("ser-");
      write_serializable += t.starts_with("ws-");
    }
    notes.push_back(fmt::format(
        "「04 事务与并发控制」 3.3 calls WriteSerializable Delta's default: it is Databricks' (and the code's "
        "IsolationLevel.DEFAULT), but open-source delta.isolationLevel defaults to and accepts only Serializable "
        "(DeltaConfig.ISOLATION_LEVEL). This matrix: {} of its 25 cells refused under Serializable, {} under "
        "WriteSerializable.",
        serializable, write_serializable));
  } else if (file == "paimon_race.scn" && scenario.retry) {
    RetryPolicy without = scenario.retry->policy;
    without.jitter = 0;
    const std::optional<double> with_jitter = MeanLostRaces(scenario, scenario.retry->policy);
    const std::optional<double> no_jitter = MeanLostRaces(scenario, without);
    if (with_jitter && no_jitter) {
      notes.push_back(fmt::format(
          "「S2 第 5 讲」 credits the 0-20 % jitter with keeping the two jobs from colliding again; simulated over "
          "seeds 1..{}, the race lost {:.1f} races on average with it and {:.1f} with jitter=0: at two writers the "
          "storage latency already staggers them.",
          kJitterSeeds, *with_jitter, *no_jitter));
    }
  }
  return notes;
}

}  // namespace commitlab::cli
