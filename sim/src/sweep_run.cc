// One simulated run of each sweep experiment: the real Committer on SimEnv, a fresh MemoryStore.
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/events.h"
#include "commitlab/core/memory_store.h"
#include "commitlab/core/paimon/committer.h"
#include "commitlab/core/paimon/data_writer.h"
#include "commitlab/sim/scheduler.h"
#include "commitlab/sim/sim_env.h"
#include "commitlab/sim/strategy.h"
#include "commitlab/sim/sweep.h"
#include "commitlab/sim/writer_name.h"

namespace commitlab::sim {
namespace {

// SimEnv with lazy time. A sweep injects no faults and its data files and manifests have unique
// names, so the only effects whose order matters are reading the latest snapshot and publishing.
// Every other delay (a response hop, a backoff wait, a data or manifest write) only moves the
// writer's own clock: it is added to the writer's pending time, and the writer sleeps it off in one
// piece right before its next ordered effect, which then happens at exactly the virtual time it
// would have without the shortcut. An attempt thus costs two scheduling points instead of four or
// more; ties between writers due at the same instant are still broken by the strategy.
class SweepEnv final : public SimEnv {
 public:
  SweepEnv(Scheduler* scheduler, const LatencyModel& latency, int writers)
      : SimEnv(scheduler, latency), pending_micros_(static_cast<size_t>(writers), 0) {}

  // The writer's own clock: the scheduler's plus what it has yet to sleep off.
  int64_t NowMicros() override { return SimEnv::NowMicros() + pending(); }
  void SleepMicros(int64_t micros) override { Defer(micros); }
  void BeginStorageOp(StorageOp op) override {
    Defer(latency().RequestMicros(op, rng()));
    if (op == StorageOp::kReadLatest || op == StorageOp::kReadSnapshot || op == StorageOp::kPublish) {
      SimEnv::SleepMicros(std::exchange(pending(), 0));
    }
  }
  void EndStorageOp(StorageOp op) override { Defer(latency().ResponseMicros(op, rng())); }
  Status FaultPoint(std::string_view) override { return Status::OK(); }

 private:
  int64_t& pending() { return pending_micros_[static_cast<size_t>(scheduler()->current())]; }
  void Defer(int64_t micros) {
    if (micros > 0) pending() += micros;
  }

  std::vector<int64_t> pending_micros_;  // per writer; touched only by that writer's fiber
};

// What one writer did; written only by its own fiber.
struct WriterTally {
  int64_t commits_ok = 0;
  bool gave_up = false;
  int64_t last_success_micros = 0;
  int64_t stopped_micros = 0;
};

// A short name (in std::string's inline buffer): the file's name is copied into every snapshot
// that carries it, and a sweep's runs create millions of them.
Committable OneFileAppend(int writer, int64_t identifier) {
  std::string name = "data-";
  AppendDecimal(writer, &name);
  name += '-';
  AppendDecimal(identifier, &name);
  DataFile f{.name = std::move(name), .min_key = identifier, .max_key = identifier, .row_count = 1};
  return Committable{.identifier = identifier, .append_changes = {{ChangeKind::kAdd, f}}};
}

// One run: `writers` writers, each making `commits` commits (after writing its data file when
// `write_data`), tallied. Random scheduling breaks ties between writers due at the same instant
// without favouring low indices.
class WritersRun {
 public:
  WritersRun(int writers, int commits, bool write_data, const paimon::CommitOptions& options, uint64_t seed,
             const LatencyModel& latency)
      : commits_(commits),
        write_data_(write_data),
        scheduler_(MakeRandomStrategy(), seed),
        env_(&scheduler_, latency, writers),
        tallies_(static_cast<size_t>(writers)) {
    scheduler_.set_record_schedule(false);  // a sweep never replays a run
    committers_.reserve(static_cast<size_t>(writers));
    latencies_micros_.reserve(static_cast<size_t>(writers) * static_cast<size_t>(commits));
    for (int i = 0; i < writers; ++i) {
      committers_.emplace_back(WriterName(i), options, &env_, &store_, &sink_);
      // Two words of capture: std::function keeps them inline, with no allocation per writer.
      scheduler_.AddWriter(committers_.back().commit_user(), [this, i] { Write(i); });
    }
  }

  RunOutcome Run() {
    RunOutcome out;
    out.status = scheduler_.Run();
    for (size_t i = 0; i < tallies_.size(); ++i) {
      const WriterTally& t = tallies_[i];
      out.calls += committers_[i].stats().attempts;
      out.commits_ok += t.commits_ok;
      out.gave_up += t.gave_up ? 1 : 0;
      out.finish_micros = std::max(out.finish_micros, t.stopped_micros);
      out.completion_micros = std::max(out.completion_micros, t.last_success_micros);
    }
    out.latencies_micros = std::move(latencies_micros_);
    return out;
  }

 private:
  void Write(int i) {
    paimon::Committer& c = committers_[static_cast<size_t>(i)];
    WriterTally& t = tallies_[static_cast<size_t>(i)];
    for (int64_t id = 1; id <= commits_; ++id) {
      Committable committable = OneFileAppend(i, id);
      if (write_data_ && !paimon::WriteDataFile(&env_, &store_, committable.append_changes.front().file).ok()) break;
      const int64_t start = env_.NowMicros();
      Result<int> r = c.Commit(committable);
      if (!r.ok()) {
        t.gave_up = r.status().code() == Code::kRetriesExhausted;
        break;
      }
      ++t.commits_ok;
      t.last_success_micros = env_.NowMicros();
      latencies_micros_.push_back(t.last_success_micros - start);  // fibers take turns: no race
    }
    t.stopped_micros = env_.NowMicros();
  }

  const int commits_;
  const bool write_data_;
  Scheduler scheduler_;
  SweepEnv env_;
  MemoryStore store_{MemoryStore::Threads::kOne};  // every writer is a fiber of this thread
  NullEventSink sink_;                             // no events are built for it
  std::vector<paimon::Committer> committers_;
  std::vector<WriterTally> tallies_;
  std::vector<int64_t> latencies_micros_;  // of every commit, in the order they landed
};

}  // namespace

RunOutcome RunBrookerOnce(int writers, const RetryPolicy& policy, uint64_t seed, const LatencyModel& latency) {
  paimon::CommitOptions options;
  options.table = "brooker";
  options.retry = policy;
  // Brooker's client makes exactly two calls per attempt; the scan would add snapshot reads.
  options.idempotency_check = false;
  return WritersRun(writers, /*commits=*/1, /*write_data=*/false, options, seed, latency).Run();
}

RunOutcome RunAppendersOnce(int writers, int commits, const RetryPolicy& policy, uint64_t seed,
                            const LatencyModel& latency) {
  paimon::CommitOptions options;
  options.table = "race_log";
  options.retry = policy;
  return WritersRun(writers, commits, /*write_data=*/true, options, seed, latency).Run();
}

}  // namespace commitlab::sim
