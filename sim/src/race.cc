#include "commitlab/sim/race.h"

#include <fmt/format.h>

#include "commitlab/core/committer.h"
#include "commitlab/sim/checker.h"
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

Status ReadChain(SnapshotStore* store, std::vector<Snapshot>* chain) {
  Result<std::optional<Snapshot>> latest = store->LatestSnapshot();
  if (!latest.ok()) return latest.status();
  const int64_t last = latest->has_value() ? (*latest)->id : 0;
  for (int64_t id = 1; id <= last; ++id) {
    Result<Snapshot> s = store->ReadSnapshot(id);
    if (!s.ok()) return s.status();
    chain->push_back(std::move(*s));
  }
  return Status::OK();
}

RaceReport RunThreadRace(const RaceConfig& config, SnapshotStore* store, EventSink* events) {
  RealEnv env(config.seed);
  OutcomeRecorder recorder;
  TeeEventSink sinks({events, &recorder});
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
    committers.emplace_back(w->name, options, &env, store, &sinks);
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
  std::vector<Snapshot> chain;
  Status read = ReadChain(store, &chain);
  if (!read.ok()) report.violations.push_back(read.ToString());
  report.latest_snapshot = chain.empty() ? 0 : chain.back().id;
  for (const Snapshot& s : chain) ++report.snapshots_per_user[s.commit_user];
  for (const Violation& v : CheckInvariants(chain, recorder.records())) report.violations.push_back(v.ToString());
  return report;
}

}  // namespace commitlab::sim
