#include "commitlab/sim/race.h"

#include <fmt/format.h>

#include "commitlab/core/committer.h"
#include "commitlab/sim/real_env.h"

namespace commitlab::sim {

std::string WriterName(int index) {
  if (index < 26) return fmt::format("job-{}", static_cast<char>('A' + index));
  return fmt::format("job-{}", index + 1);
}

namespace {

// One writer's script: M single-file appends with identifiers 1..M, stopping at the first failure.
void AppendLoop(Committer& committer, SnapshotStore* store, Env* env, int commits, WriterReport* report) {
  const std::string uuid = RandomUuid(env->rng());
  for (int i = 1; i <= commits; ++i) {
    DataFile f{.name = fmt::format("data-{}-{}.parquet", uuid, i - 1), .min_key = i, .max_key = i, .row_count = 1};
    if (Status st = store->WriteDataFile(f); !st.ok()) {
      report->error = st.ToString();
      return;
    }
    Result<int> r = committer.Commit(Committable{.identifier = i, .append_changes = {{ChangeKind::kAdd, f}}});
    if (!r.ok()) {
      report->error = r.status().message();
      return;
    }
    ++report->commits_ok;
  }
}

}  // namespace

RaceReport RunThreadRace(const RaceConfig& config, SnapshotStore* store, EventSink* events) {
  RealEnv env(config.seed);
  RaceReport report;
  report.writers.resize(static_cast<size_t>(config.writers));
  std::vector<Committer> committers;
  committers.reserve(report.writers.size());
  std::vector<RealEnv::Writer> bodies;
  for (int i = 0; i < config.writers; ++i) {
    WriterReport* w = &report.writers[static_cast<size_t>(i)];
    w->name = WriterName(i);
    CommitOptions options;
    options.table = config.table;
    options.retry = config.policy;
    committers.emplace_back(w->name, options, &env, store, events);
    Committer* c = &committers.back();
    bodies.push_back({w->name, [c, store, &env, &config, w] { AppendLoop(*c, store, &env, config.commits, w); }});
  }
  env.RunThreads(std::move(bodies));

  for (size_t i = 0; i < committers.size(); ++i) {
    WriterReport& w = report.writers[i];
    w.attempts = committers[i].stats().attempts;
    w.atomic_failures = committers[i].stats().atomic_failures;
    w.unknown_outcomes = committers[i].stats().unknown_outcomes;
    report.atomic_failures += w.atomic_failures;
    report.failed_jobs += w.error.empty() ? 0 : 1;
  }
  Result<std::optional<Snapshot>> latest = store->LatestSnapshot();
  if (!latest.ok()) {
    report.violations.push_back(latest.status().ToString());
    return report;
  }
  report.latest_snapshot = latest->has_value() ? (*latest)->id : 0;
  for (int64_t id = 1; id <= report.latest_snapshot; ++id) {
    Result<Snapshot> s = store->ReadSnapshot(id);
    if (!s.ok()) {
      report.violations.push_back(s.status().ToString());
      continue;
    }
    ++report.snapshots_per_user[s->commit_user];
  }
  return report;
}

}  // namespace commitlab::sim
