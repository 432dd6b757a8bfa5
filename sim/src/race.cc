#include "commitlab/sim/race.h"

#include <fmt/format.h>

#include <memory>

#include "commitlab/core/committer.h"
#include "commitlab/sim/checker.h"
#include "commitlab/sim/real_env.h"
#include "commitlab/sim/scheduler.h"
#include "commitlab/sim/sim_env.h"
#include "commitlab/sim/trace.h"

namespace commitlab::sim {

std::string WriterName(int index) {
  std::string name = "job-";  // without fmt: a sweep names millions of short-lived writers
  if (index >= 0 && index < 26) return name += static_cast<char>('A' + index);
  AppendDecimal(int64_t{index} + 1, &name);
  return name;
}

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

namespace {

// One writer's script: M single-file appends with identifiers 1..M, stopping at the first failure.
void AppendLoop(Committer& committer, SnapshotStore* store, Env* env, int commits, WriterReport* report) {
  const std::string uuid = RandomUuid(env->rng());
  for (int i = 1; i <= commits; ++i) {
    DataFile f{.name = fmt::format("data-{}-{}.parquet", uuid, i - 1), .min_key = i, .max_key = i, .row_count = 1};
    env->BeginStorageOp(StorageOp::kWriteData);
    Status written = store->WriteDataFile(f);
    env->EndStorageOp(StorageOp::kWriteData);
    if (Status st = written; !st.ok()) {
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

// What both kinds of run share: writers, committers, sinks, and the report afterwards.
class RaceRun {
 public:
  RaceRun(const RaceConfig& config, SnapshotStore* store, EventSink* events, TraceWriter* trace)
      : config_(config), store_(store), plan_(config.faults), sinks_(Sinks(events, trace)) {
    report_.writers.resize(static_cast<size_t>(config.writers));
  }

  // Builds each writer's committer on `env` and returns the bodies to run.
  std::vector<RealEnv::Writer> Writers(Env* env) {
    committers_.reserve(report_.writers.size());
    std::vector<RealEnv::Writer> bodies;
    for (int i = 0; i < config_.writers; ++i) {
      WriterReport* w = &report_.writers[static_cast<size_t>(i)];
      w->name = WriterName(i);
      CommitOptions options;
      options.table = config_.table;
      options.retry = config_.policy;
      options.idempotency_check = config_.idempotency_check;
      committers_.emplace_back(w->name, options, env, store_, &sinks_);
      Committer* c = &committers_.back();
      bodies.push_back({w->name, [this, c, env, w] { AppendLoop(*c, store_, env, config_.commits, w); }});
    }
    return bodies;
  }

  FaultPlan* plan() { return config_.faults.empty() ? nullptr : &plan_; }

  RaceReport Finish() {
    for (size_t i = 0; i < committers_.size(); ++i) {
      WriterReport& w = report_.writers[i];
      w.attempts = committers_[i].stats().attempts;
      w.atomic_failures = committers_[i].stats().atomic_failures;
      w.unknown_outcomes = committers_[i].stats().unknown_outcomes;
      report_.atomic_failures += w.atomic_failures;
      report_.failed_jobs += w.error.empty() ? 0 : 1;
    }
    std::vector<Snapshot> chain;
    if (Status read = ReadChain(store_, &chain); !read.ok()) report_.violations.push_back(read.ToString());
    report_.latest_snapshot = chain.empty() ? 0 : chain.back().id;
    for (const Snapshot& s : chain) ++report_.snapshots_per_user[s.commit_user];
    for (const Violation& v : CheckInvariants(chain, recorder_.records())) report_.violations.push_back(v.ToString());
    for (const FiredFault& f : plan_.fired()) report_.fired_faults.push_back(FormatFiredFault(f));
    return std::move(report_);
  }

  RaceReport& report() { return report_; }

 private:
  std::vector<EventSink*> Sinks(EventSink* events, TraceWriter* trace) {
    std::vector<EventSink*> sinks = {events, &recorder_};
    if (trace != nullptr) sinks.push_back(trace);
    return sinks;
  }

  const RaceConfig& config_;
  SnapshotStore* const store_;
  ScriptedFaultPlan plan_;
  OutcomeRecorder recorder_;
  TeeEventSink sinks_;
  std::vector<Committer> committers_;
  RaceReport report_;
};

// A fault plan that forwards to one set later (or to none).
struct ForwardingPlan : FaultPlan {
  FaultDecision Check(std::string_view writer, std::string_view point, Rng& rng) override {
    return target != nullptr ? target->Check(writer, point, rng) : FaultDecision{};
  }
  FaultPlan* target = nullptr;
};

}  // namespace

RaceReport RunRace(const RaceConfig& config, SnapshotStore* store, EventSink* events, TraceWriter* trace) {
  // The caller keeps ownership: the run gets the store with a deleter that does nothing.
  return RunRace(
      config, [store](Env*) { return std::shared_ptr<SnapshotStore>(store, [](SnapshotStore*) {}); }, events, trace);
}

RaceReport RunRace(const RaceConfig& config, const StoreFactory& make_store, EventSink* events, TraceWriter* trace) {
  // The fault plan lives in the run, which needs the store, which needs the Env: the Env gets a
  // plan that forwards to the run's once it exists.
  ForwardingPlan plan;
  if (config.sched == "free") {
    RealEnv env(config.seed, &plan, config.latency);
    std::shared_ptr<SnapshotStore> store = make_store(&env);
    RaceRun run(config, store.get(), events, trace);
    plan.target = run.plan();
    env.RunThreads(run.Writers(&env));
    return run.Finish();
  }
  Result<std::unique_ptr<Strategy>> strategy = MakeStrategy(config.sched);
  if (!strategy.ok()) {
    RaceReport failed;
    failed.status = strategy.status();
    return failed;
  }
  Scheduler scheduler(std::move(*strategy), config.seed);
  SimEnv env(&scheduler, config.latency, &plan);
  std::shared_ptr<SnapshotStore> store = make_store(&env);
  RaceRun run(config, store.get(), events, trace);
  plan.target = run.plan();
  if (trace != nullptr) trace->set_step_source([&scheduler] { return scheduler.steps(); });
  for (RealEnv::Writer& w : run.Writers(&env)) scheduler.AddWriter(std::move(w.name), std::move(w.body));
  Status status = scheduler.Run();
  if (trace != nullptr) trace->set_step_source({});
  RaceReport report = run.Finish();
  report.status = std::move(status);
  report.schedule = scheduler.ScheduleString();
  report.virtual_micros = scheduler.now_micros();
  return report;
}

}  // namespace commitlab::sim
