#include "lab/lecture_notes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "commitlab/core/retry_policy.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/history_fields.h"
#include "commitlab/sim/language.h"
#include "commitlab/sim/text_width.h"
#include "lab/commit_lock.h"

namespace commitlab::cli {
namespace {

constexpr int kSeeds = 20;

// The notes' language: sim::Say takes it.
sim::Language In(bool zh) { return zh ? sim::Language::kChinese : sim::Language::kEnglish; }

const scenarios::WriterReport* WriterOf(const scenarios::RunReport& r, const std::string& name) {
  for (const scenarios::WriterReport& w : r.writers)
    if (w.name == name) return &w;
  return nullptr;
}

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

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Every latency at its distribution's mean: what jitter does when storage does not stagger.
sim::LatencyModel Fixed(sim::LatencyModel m) {
  auto mean = [](sim::Distribution& d) {
    const double ms = d.kind == sim::Distribution::Kind::kUniform ? (d.a + d.b) / 2 : d.a;
    d = sim::Distribution{.kind = sim::Distribution::Kind::kConstant, .a = ms, .b = 0};
  };
  for (sim::Distribution& d : m.request) mean(d);
  for (sim::Distribution& d : m.response) mean(d);
  return m;
}

struct RaceRun {
  double lost = 0;
  double ms = 0;       // virtual time to the last commit
  double wait_ms = 0;  // retry waits (or, under the lock, waits for it)
};

// The race once more, simulated under `policy`, with `latency` when given and the lock when asked.
std::optional<RaceRun> Race(scenarios::Scenario s, const RetryPolicy& policy, int seed,
                            const std::optional<sim::LatencyModel>& latency, bool locked) {
  s.retry = scenarios::RetrySetting{.pos = {}, .spec = FormatRetryPolicy(policy), .policy = policy};
  scenarios::RunOptions o;
  o.seed = static_cast<uint64_t>(seed);
  o.sched = "random";
  o.latency = latency;
  NullEventSink quiet;
  o.events = &quiet;
  sim::History history;  // the lock is an effect gate, which a run with a history consults
  CommitLock lock;
  o.history = &history;
  if (locked) o.effect_gate = &lock;
  Result<scenarios::RunReport> r = scenarios::RunScenario(s, o);
  // Every commit landed and nothing broke; the file's own expectation of lost races is not the
  // lock's to meet.
  if (!r.ok() || !r->invariants_ok() || !r->run_errors.empty()) return std::nullopt;
  for (const scenarios::WriterReport& w : r->writers)
    if (w.outcome != scenarios::Outcome::kOk) return std::nullopt;
  RaceRun out{.lost = static_cast<double>(r->tally.atomic_failures),
              .ms = static_cast<double>(r->virtual_micros) / 1000.0,
              .wait_ms = static_cast<double>(lock.waited_micros()) / 1000.0};
  if (!locked) {
    for (const std::string& line : history.lines()) {
      const sim::Json e = sim::Json::parse(line);
      if (sim::StringField(e, "type") == "retry_wait")
        out.wait_ms += static_cast<double>(sim::IntField(e, "wait_us", 0)) / 1000.0;
    }
  }
  return out;
}

std::optional<JitterRuns> MeasureJitter(const scenarios::Scenario& s) {
  const RetryPolicy with = s.retry->policy;
  RetryPolicy without = with;
  without.jitter = 0;
  Result<scenarios::RunPlan> plan = scenarios::PlanRun(s, scenarios::RunOptions{.sched = "random"});
  if (!plan.ok()) return std::nullopt;
  const sim::LatencyModel fixed = Fixed(plan->latency);
  std::vector<double> a, b, c, d;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    auto r1 = Race(s, with, seed, std::nullopt, false), r2 = Race(s, without, seed, std::nullopt, false);
    auto r3 = Race(s, with, seed, fixed, false), r4 = Race(s, without, seed, fixed, false);
    if (!r1 || !r2 || !r3 || !r4) return std::nullopt;
    a.push_back(r1->lost), b.push_back(r2->lost), c.push_back(r3->lost), d.push_back(r4->lost);
  }
  return JitterRuns{.seeds = kSeeds,
                    .jitter = with.jitter,
                    .with = Median(a),
                    .without = Median(b),
                    .fixed_with = Median(c),
                    .fixed_without = Median(d)};
}

std::optional<LockRuns> MeasureLock(const scenarios::Scenario& s, int commits) {
  std::vector<double> occ_ms, occ_lost, occ_wait, lock_ms, lock_wait;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    auto occ = Race(s, s.retry->policy, seed, std::nullopt, false);
    auto locked = Race(s, s.retry->policy, seed, std::nullopt, true);
    if (!occ || !locked) return std::nullopt;
    occ_ms.push_back(occ->ms), occ_lost.push_back(occ->lost), occ_wait.push_back(occ->wait_ms);
    lock_ms.push_back(locked->ms), lock_wait.push_back(locked->wait_ms);
  }
  return LockRuns{.seeds = kSeeds,
                  .commits = commits,
                  .occ_ms = Median(occ_ms),
                  .occ_lost = Median(occ_lost),
                  .occ_wait_ms = Median(occ_wait),
                  .lock_ms = Median(lock_ms),
                  .lock_wait_ms = Median(lock_wait)};
}

// 2.2's plain overwrite: the note says the loser re-applied and committed only when this run's
// last writer lost a swap and was told ok.
std::optional<std::string> UnvalidatedOverwriteNote(const scenarios::RunReport& report, bool zh) {
  if (report.tables.empty() || report.table().chain.empty()) return std::nullopt;
  const Snapshot& last = report.table().chain.back();
  const scenarios::WriterReport* loser = WriterOf(report, last.commit_user);
  if (loser == nullptr) return std::nullopt;
  const std::string head =
      sim::Say(In(zh),
               "「04 事务与并发控制」 2.2's sketch of an overwrite asks for no validation, and says "
               "the loser fails",
               "「04 事务与并发控制」2.2 的覆盖写入示意没有要求任何验证，却说输的一方会失败");
  const std::string spark =
      sim::Say(In(zh),
               " Spark's overwrite asks for validation (validateNoConflictingData), which is what "
               "refused same-2 in the run before.",
               "Spark 的覆盖写入会要求验证（validateNoConflictingData），上一次运行里拦下 same-2 的正是它。");
  if (loser->counters.atomic_failures > 0 && loser->outcome == scenarios::Outcome::kOk) {
    return head +
           sim::Say(
               In(zh),
               "; without validation it does not: this run's {0} lost {1} swap(s), re-applied its overwrite and "
               "committed, and the day holds {2} rows, its own only.",
               "；不做验证就不会失败：本次运行 {0} 落败 {1} 次后把覆盖写入重新叠加并提交成功，这一天只剩 {2} 行，全是它的。",
               last.commit_user, loser->counters.atomic_failures, last.total_records) +
           spark;
  }
  return head +
         sim::Say(In(zh),
                  "; this run's {0} lost no swap ({1}), so it shows neither a failure nor a silent replacement.",
                  "；本次运行 {0} 没有落败（{1}），所以既看不到失败，也看不到悄悄的替换。", last.commit_user,
                  scenarios::OutcomeName(loser->outcome)) +
         spark;
}

// The matrix's SCHEMA changes: how many lost when committed second, and to what.
std::string SchemaChangeNote(const scenarios::RunReport& report, bool zh) {
  // Writers LEVEL-WINNER-LOSER-l: the SCHEMA change committed second, and whether the winner
  // was a data commit that left the schema alone.
  int schema_lost = 0, schema_runs = 0, to_data = 0;
  for (const scenarios::WriterReport& w : report.writers) {
    if (!w.name.ends_with("-schema-l")) continue;
    ++schema_runs;
    const bool lost = w.outcome != scenarios::Outcome::kOk;
    schema_lost += lost;
    to_data += lost && !w.name.ends_with("-schema-schema-l");
  }
  return sim::Say(
      In(zh),
      "「无锁并发写入」, after the spec, has a schema change re-apply when the schema has not changed meanwhile; "
      "Iceberg Java's SchemaUpdate.commit does not retry at all: in this matrix the SCHEMA change committed second "
      "lost {0} of its {1} races, {2} of them to a data commit that left the schema as it was.",
      "「无锁并发写入」按规范说，schema 变更在这期间 schema 没变时可以重新叠加；Iceberg Java 的 SchemaUpdate.commit 根本"
      "不重试：本矩阵里后提交的 SCHEMA 变更 {1} 次竞争中输了 {0} 次，其中 {2} 次的对手是根本没动 schema 的数据提交。",
      schema_lost, schema_runs, to_data);
}

}  // namespace

// Two medians of lost races differ when they are two races or more and a fifth apart: less is
// what one seed more or less moves them by.
bool Differ(double a, double b) { return std::fabs(a - b) >= std::max(2.0, 0.2 * std::max(a, b)); }

std::string JitterNote(const JitterRuns& r, bool zh) {
  const std::string head =
      sim::Say(In(zh), "「S2 第 5 讲」 credits the 0-20 % jitter with keeping the two jobs from colliding again",
               "「S2 第 5 讲」说 0~20% 的随机抖动让两个作业错开、不再一直撞车");
  if (r.jitter <= 0)
    return head + sim::Say(In(zh), "; this run's retry policy has no jitter, so there is nothing to compare.",
                           "；本次运行的重试策略没有抖动，无从比较。");
  const std::string numbers = sim::Say(
      In(zh),
      "; simulated over seeds 1..{0}, the race's median lost races were {1:g} with jitter and {2:g} without; with "
      "every storage latency fixed at its mean, {3:g} and {4:g}",
      "；模拟 seed 1..{0}，抢号失败次数的中位数：有抖动 {1:g} 次，无抖动 {2:g} 次；把每种存储延迟固定为平均值时，{3:g} 次和 "
      "{4:g} 次",
      r.seeds, r.with, r.without, r.fixed_with, r.fixed_without);
  std::string conclusion;
  if (Differ(r.with, r.without)) {
    conclusion = r.with < r.without ? sim::Say(In(zh), ": here the jitter does stagger them, {0:g} fewer lost races.",
                                               "：这里抖动确实把它们错开了，少了 {0:g} 次。", r.without - r.with)
                                    : sim::Say(In(zh), ": here the jitter costs {0:g} more lost races.",
                                               "：这里抖动反而多了 {0:g} 次。", r.with - r.without);
  } else if (Differ(r.fixed_with, r.fixed_without)) {
    conclusion = sim::Say(In(zh),
                          ": at two writers the jitter changes nothing while storage latency varies, and matters only "
                          "once it is fixed.",
                          "：两个写入方时，存储延迟有随机性就显不出抖动的作用，延迟固定后抖动才起作用。");
  } else {
    conclusion = sim::Say(
        In(zh),
        ": at two writers the jitter changes nothing, whether the storage latency varies or is "
        "fixed: the loser's own backoff wait (10 ms × 2^n) already puts it behind the winner.",
        "：两个写入方时抖动没有作用，无论存储延迟是随机的还是固定的：输的一方自己的退避等待（10 ms × 2^n）就已经把它"
        "排在赢家之后了。");
  }
  return head + numbers + conclusion;
}

std::string TableLockNote(const LockRuns& r, bool zh) {
  const double occ_rate = r.occ_ms > 0 ? r.commits / (r.occ_ms / 1000.0) : 0;
  const double lock_rate = r.lock_ms > 0 ? r.commits / (r.lock_ms / 1000.0) : 0;
  std::string text = sim::Say(
      In(zh),
      "「无锁并发写入」 argues against a table lock: the slowest job would make every other wait. The race with a lock "
      "held from reading the latest snapshot to the publish (simulated, seeds 1..{0}, medians): 0 lost races, {1} "
      "commits in {2:.0f} ms ({3:.0f}/s), {4:.0f} ms spent waiting for the lock; optimistic: {5:g} lost races, "
      "{6:.0f} ms ({7:.0f}/s), {8:.0f} ms of retry waits",
      "「无锁并发写入」反对给整张表加锁：最慢的作业会让所有作业都停下来。同样的竞争，若从读最新快照到发布一直持有表锁（模拟 "
      "seed 1..{0}，中位数）：抢号失败 0 次，{1} 次提交用时 {2:.0f} ms（每秒 {3:.0f} 次），等锁共 {4:.0f} ms；乐观提交：抢号失败 "
      "{5:g} 次，用时 {6:.0f} ms（每秒 {7:.0f} 次），重试等待共 {8:.0f} ms",
      r.seeds, r.commits, r.lock_ms, lock_rate, r.lock_wait_ms, r.occ_lost, r.occ_ms, occ_rate, r.occ_wait_ms);
  const double faster = std::fabs(occ_rate - lock_rate) / std::max(1e-9, std::min(occ_rate, lock_rate));
  if (faster < 0.05) {
    text += sim::Say(In(zh), ": the two are within 5 % of each other here.", "：两者相差不到 5%。");
  } else if (lock_rate > occ_rate) {
    text += sim::Say(
        In(zh),
        ": with two writers and commits of a few ms the lock is {0:.0f} % faster, its queue cheaper than the "
        "backoff; the lecture's case is a slow holder, whose every millisecond each other writer waits too.",
        "：两个写入方、每次提交只要几毫秒时，表锁快 {0:.0f}%，排队比退避便宜；讲义说的是持锁者很慢的情形，它的每一毫秒"
        "其他写入方都得一起等。",
        faster * 100);
  } else {
    text += sim::Say(In(zh), ": optimistic commits are {0:.0f} % faster: their writers never queue.",
                     "：乐观提交快 {0:.0f}%：写入方从不排队。", faster * 100);
  }
  return text;
}

std::vector<std::string> LectureNotes(const std::string& file, const scenarios::Scenario& scenario,
                                      const scenarios::RunReport& report, bool zh) {
  std::vector<std::string> notes;
  if (file == "iceberg_delete_isolation.scn") {
    const scenarios::WriterReport* serial = WriterOf(report, "deleter");
    const scenarios::WriterReport* snap = WriterOf(report, "snap-deleter");
    if (serial && snap) {
      auto outcome = [&](scenarios::Outcome o) {
        return o == scenarios::Outcome::kOk ? sim::Say(In(zh), "committed", "提交成功")
                                            : sim::Say(In(zh), "was refused", "被拒绝");
      };
      notes.push_back(sim::Say(
          In(zh),
          "「04 事务与并发控制」 gives Iceberg Snapshot Isolation only, weaker than Serializable; 「无锁并发写入」 and "
          "upstream (IsolationLevel SERIALIZABLE, the default of write.delete.isolation-level) have serializable too. "
          "This run: the DELETE under serializable {0}, under snapshot {1}.",
          "「04 事务与并发控制」说 Iceberg 只有 Snapshot Isolation、比 Serializable 略弱；「无锁并发写入」和上游代码"
          "（IsolationLevel SERIALIZABLE，write.delete.isolation-level 的默认值）都有 serializable。本次运行："
          "serializable 下的 DELETE {0}，snapshot 下的 DELETE {1}。",
          outcome(serial->outcome), outcome(snap->outcome)));
    }
  } else if (file == "iceberg_append_race.scn") {
    notes.push_back(sim::Say(
        In(zh),
        "「04 事务与并发控制」 3.3 tells Delta apart by every writer racing for one log version; Iceberg's appends "
        "race the same way, for the catalog pointer: this run lost {0} race(s), each re-applied on the new metadata.",
        "「04 事务与并发控制」3.3 用“所有写入方争夺同一个日志版本号”来区分 Delta；Iceberg 的追加也一样在争夺 Catalog "
        "指针：本次运行在条件式替换中落败 {0} 次，每次都在新的元数据上重新叠加。",
        report.tally.atomic_failures));
    // 2.2's timeline has B's failed swap go "v41 → v43"; B built on v41 as A did, so it aimed at v42.
    for (const scenarios::WriterReport& w : report.writers) {
      if (w.counters.atomic_failures == 0 || report.tables.empty() || report.table().chain.size() < 2) continue;
      const auto& chain = report.table().chain;
      const Snapshot& mine = chain.back();
      const Snapshot& theirs = chain[chain.size() - 2];
      notes.push_back(sim::Say(
          In(zh),
          "「04 事务与并发控制」 2.2 writes the loser's failed swap as v41 → v43; a writer that read v41 builds v42, as the "
          "winner did. This run: {0} and {1} both built on v{2}; {1}'s swap to v{3} landed, {0}'s attempt at v{3} "
          "lost, and its retry made v{4}.",
          "「04 事务与并发控制」2.2 把输的一方失败的替换写成 v41 → v43；读的是 v41 的写入方，生成的是 v42，和赢家一样。"
          "本次运行：{0} 和 {1} 都基于 v{2}；{1} 换到 v{3} 成功，{0} 换到 v{3} 落败，重试后生成 v{4}。",
          w.name, theirs.commit_user, theirs.parent_id, theirs.id, mine.id));
      break;
    }
  } else if (file == "iceberg_overwrite_unvalidated.scn") {
    if (std::optional<std::string> note = UnvalidatedOverwriteNote(report, zh)) notes.push_back(*note);
  } else if (file == "iceberg_counter.scn") {
    if (const scenarios::WriterReport* b = WriterOf(report, "worker-b")) {
      notes.push_back(sim::Say(
          In(zh),
          "「无锁并发写入」 has the loser first lose the conditional swap and be stopped by validation on its retry; "
          "here worker-b began its commit after worker-a's had landed: {0} lost swap(s), refused by validation on "
          "attempt {1}, with the same ValidationException.",
          "「无锁并发写入」里输的一方先在条件式替换中落败，重试时才被验证拦下；这里 worker-b 在 worker-a 的提交生效之后才开始"
          "提交：落败 {0} 次，第 {1} 次尝试就被验证拦下，异常同样是 ValidationException。",
          b->counters.atomic_failures, b->counters.attempts));
    }
  } else if (file == "iceberg_conflict_matrix.scn") {
    notes.push_back(SchemaChangeNote(report, zh));
  } else if (file == "delta_conflict_matrix.scn") {
    int serializable = 0, write_serializable = 0;
    for (const std::string& t : RefusedTables(scenario, report)) {
      serializable += t.starts_with("ser-");
      write_serializable += t.starts_with("ws-");
    }
    notes.push_back(sim::Say(
        In(zh),
        "「04 事务与并发控制」 3.3 calls WriteSerializable Delta's default: it is Databricks' (and the code's "
        "IsolationLevel.DEFAULT), but open-source delta.isolationLevel defaults to and accepts only Serializable "
        "(DeltaConfig.ISOLATION_LEVEL). This matrix: {0} of its 25 cells refused under Serializable, {1} under "
        "WriteSerializable.",
        "「04 事务与并发控制」3.3 说 Delta 默认是 WriteSerializable：那是 Databricks 的默认（也是代码里的 "
        "IsolationLevel.DEFAULT），开源版的 delta.isolationLevel 默认且只接受 Serializable"
        "（DeltaConfig.ISOLATION_LEVEL）。本矩阵：Serializable 下 25 格中 {0} 格被拒绝，WriteSerializable 下 {1} 格。",
        serializable, write_serializable));
  } else if (file == "paimon_race.scn" && scenario.retry) {
    if (std::optional<JitterRuns> j = MeasureJitter(scenario)) notes.push_back(JitterNote(*j, zh));
    int64_t commits = 0;
    for (const scenarios::WriterReport& w : report.writers) commits += w.counters.committed;
    if (std::optional<LockRuns> l = MeasureLock(scenario, static_cast<int>(commits)))
      notes.push_back(TableLockNote(*l, zh));
  }
  return notes;
}

}  // namespace commitlab::cli
