#include "lab/lecture_notes.h"

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
                                      const scenarios::RunReport& report, bool chinese) {
  std::vector<std::string> notes;
  // The note in the lab's language; both forms take the same arguments ({0}, {1}, ...).
  auto say = [chinese](const char* en, const char* zh, auto&&... args) {
    return fmt::format(fmt::runtime(chinese ? zh : en), args...);
  };
  if (file == "iceberg_delete_isolation.scn") {
    const auto serial = OutcomeOf(report, "deleter");
    const auto snap = OutcomeOf(report, "snap-deleter");
    if (serial && snap) {
      auto outcome = [&](scenarios::Outcome o) {
        return o == scenarios::Outcome::kOk ? say("committed", "提交成功") : say("was refused", "被拒绝");
      };
      notes.push_back(say(
          "「04 事务与并发控制」 gives Iceberg Snapshot Isolation only, weaker than Serializable; 「无锁并发写入」 and "
          "upstream (IsolationLevel SERIALIZABLE, the default of write.delete.isolation-level) have serializable too. "
          "This run: the DELETE under serializable {0}, under snapshot {1}.",
          "「04 事务与并发控制」说 Iceberg 只有 Snapshot Isolation、比 Serializable 略弱；「无锁并发写入」和上游代码"
          "（IsolationLevel SERIALIZABLE，write.delete.isolation-level 的默认值）都有 serializable。本次运行："
          "serializable 下的 DELETE {0}，snapshot 下的 DELETE {1}。",
          outcome(*serial), outcome(*snap)));
    }
  } else if (file == "iceberg_append_race.scn") {
    notes.push_back(say(
        "「04 事务与并发控制」 3.3 tells Delta apart by every writer racing for one log version; Iceberg's appends "
        "race the same way, for the catalog pointer: this run lost {0} race(s), each re-applied on the new metadata.",
        "「04 事务与并发控制」3.3 用“所有写入方争夺同一个日志版本号”来区分 Delta；Iceberg 的追加也一样在争夺 Catalog "
        "指针：本次运行抢号失败 {0} 次，每次都在新的 metadata 上重新应用。",
        report.tally.atomic_failures));
  } else if (file == "delta_conflict_matrix.scn") {
    int serializable = 0, write_serializable = 0;
    for (const std::string& t : RefusedTables(scenario, report)) {
      serializable += t.starts_with("ser-");
      write_serializable += t.starts_with("ws-");
    }
    notes.push_back(say(
        "「04 事务与并发控制」 3.3 calls WriteSerializable Delta's default: it is Databricks' (and the code's "
        "IsolationLevel.DEFAULT), but open-source delta.isolationLevel defaults to and accepts only Serializable "
        "(DeltaConfig.ISOLATION_LEVEL). This matrix: {0} of its 25 cells refused under Serializable, {1} under "
        "WriteSerializable.",
        "「04 事务与并发控制」3.3 说 Delta 默认是 WriteSerializable：那是 Databricks 的默认（也是代码里的 "
        "IsolationLevel.DEFAULT），开源版的 delta.isolationLevel 默认且只接受 Serializable"
        "（DeltaConfig.ISOLATION_LEVEL）。本矩阵：Serializable 下 25 格中 {0} 格被拒绝，WriteSerializable 下 {1} 格。",
        serializable, write_serializable));
  } else if (file == "paimon_race.scn" && scenario.retry) {
    RetryPolicy without = scenario.retry->policy;
    without.jitter = 0;
    const std::optional<double> with_jitter = MeanLostRaces(scenario, scenario.retry->policy);
    const std::optional<double> no_jitter = MeanLostRaces(scenario, without);
    if (with_jitter && no_jitter) {
      notes.push_back(say(
          "「S2 第 5 讲」 credits the 0-20 % jitter with keeping the two jobs from colliding again; simulated over "
          "seeds 1..{0}, the race lost {1:.1f} races on average with it and {2:.1f} with jitter=0: at two writers the "
          "storage latency already staggers them.",
          "「S2 第 5 讲」说 0~20% 的随机抖动让两个作业错开、不再一直撞车；模拟 seed 1..{0}，有抖动平均抢号失败 "
          "{1:.1f} 次，jitter=0 时 {2:.1f} 次：两个写入方时，存储延迟本身已经把它们错开了。",
          kJitterSeeds, *with_jitter, *no_jitter));
    }
  }
  return notes;
}

}  // namespace commitlab::cli
