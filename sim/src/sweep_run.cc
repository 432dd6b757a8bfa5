// One simulated run of each sweep experiment: the real Committer on SimEnv, a fresh MemoryStore.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "commitlab/core/committer.h"
#include "commitlab/core/events.h"
#include "commitlab/core/memory_store.h"
#include "commitlab/sim/race.h"
#include "commitlab/sim/scheduler.h"
#include "commitlab/sim/sim_env.h"
#include "commitlab/sim/strategy.h"
#include "commitlab/sim/sweep.h"

namespace commitlab::sim {
namespace {

// SimEnv without the scheduling points that cannot change a sweep's outcome: a sweep injects no
// faults, so a fault point is only a yield, and a hop that takes no time (the manifest write, in
// Brooker's two-call model) is only a yield too. Skipping them halves the steps of an attempt;
// ties between writers due at the same instant are still broken by the strategy at the next timed
// hop or wait.
class SweepEnv final : public SimEnv {
 public:
  SweepEnv(Scheduler* scheduler, const LatencyModel& latency) : SimEnv(scheduler, latency) {}

  void BeginStorageOp(StorageOp op) override { SleepIfAny(latency().RequestMicros(op, rng())); }
  void EndStorageOp(StorageOp op) override { SleepIfAny(latency().ResponseMicros(op, rng())); }
  Status FaultPoint(std::string_view) override { return Status::OK(); }

 private:
  void SleepIfAny(int64_t micros) {
    if (micros > 0) SleepMicros(micros);
  }
};

// What one writer did; written only by its own fiber.
struct WriterTally {
  int64_t commits_ok = 0;
  bool gave_up = false;
  int64_t last_success_micros = 0;
  int64_t stopped_micros = 0;
  std::vector<int64_t> latencies_micros;
};

Committable OneFileAppend(int writer, int64_t identifier) {
  DataFile f{.name = fmt::format("data-{}-{}.parquet", writer, identifier),
             .min_key = identifier,
             .max_key = identifier,
             .row_count = 1};
  return Committable{.identifier = identifier, .append_changes = {{ChangeKind::kAdd, f}}};
}

// Runs `writers` writers, each making `commits` commits (after writing its data file when
// `write_data`), and tallies them. Random scheduling breaks ties between writers due at the same
// instant without favouring low indices.
RunOutcome RunWriters(int writers, int commits, bool write_data, const CommitOptions& options, uint64_t seed,
                      const LatencyModel& latency) {
  Scheduler scheduler(MakeRandomStrategy(), seed);
  SweepEnv env(&scheduler, latency);
  MemoryStore store;
  NullEventSink sink;  // no messages are formatted for it
  std::vector<Committer> committers;
  committers.reserve(static_cast<size_t>(writers));
  std::vector<WriterTally> tallies(static_cast<size_t>(writers));
  for (int i = 0; i < writers; ++i) {
    committers.emplace_back(WriterName(i), options, &env, &store, &sink);
    Committer* c = &committers.back();
    WriterTally* t = &tallies[static_cast<size_t>(i)];
    t->latencies_micros.reserve(static_cast<size_t>(commits));
    scheduler.AddWriter(c->commit_user(), [c, t, i, commits, write_data, &env, &store] {
      for (int64_t id = 1; id <= commits; ++id) {
        Committable committable = OneFileAppend(i, id);
        if (write_data) {
          env.BeginStorageOp(StorageOp::kWriteData);
          Status written = store.WriteDataFile(committable.append_changes.front().file);
          env.EndStorageOp(StorageOp::kWriteData);
          if (!written.ok()) break;
        }
        const int64_t start = env.NowMicros();
        Result<int> r = c->Commit(committable);
        if (!r.ok()) {
          t->gave_up = r.status().code() == Code::kRetriesExhausted;
          break;
        }
        ++t->commits_ok;
        t->last_success_micros = env.NowMicros();
        t->latencies_micros.push_back(t->last_success_micros - start);
      }
      t->stopped_micros = env.NowMicros();
    });
  }

  RunOutcome out;
  out.status = scheduler.Run();
  out.latencies_micros.reserve(static_cast<size_t>(writers) * static_cast<size_t>(commits));
  for (int i = 0; i < writers; ++i) {
    const WriterTally& t = tallies[static_cast<size_t>(i)];
    out.calls += committers[static_cast<size_t>(i)].stats().attempts;
    out.commits_ok += t.commits_ok;
    out.gave_up += t.gave_up ? 1 : 0;
    out.finish_micros = std::max(out.finish_micros, t.stopped_micros);
    out.completion_micros = std::max(out.completion_micros, t.last_success_micros);
    out.latencies_micros.insert(out.latencies_micros.end(), t.latencies_micros.begin(), t.latencies_micros.end());
  }
  return out;
}

}  // namespace

RunOutcome RunBrookerOnce(int writers, const RetryPolicy& policy, uint64_t seed, const LatencyModel& latency) {
  CommitOptions options;
  options.table = "brooker";
  options.retry = policy;
  // Brooker's client makes exactly two calls per attempt; the scan would add snapshot reads.
  options.idempotency_check = false;
  return RunWriters(writers, /*commits=*/1, /*write_data=*/false, options, seed, latency);
}

RunOutcome RunAppendersOnce(int writers, int commits, const RetryPolicy& policy, uint64_t seed,
                            const LatencyModel& latency) {
  CommitOptions options;
  options.table = "race_log";
  options.retry = policy;
  return RunWriters(writers, commits, /*write_data=*/true, options, seed, latency);
}

}  // namespace commitlab::sim
