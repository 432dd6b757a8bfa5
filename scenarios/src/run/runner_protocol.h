// ProtocolWriter: how one writer runs its steps on its table's engine: Paimon's committer
// (runner_paimon.cc), Iceberg's (runner_iceberg.cc) or Delta's transactions (runner_delta.cc).
// WriterRun keeps the script (gates, failures, outcomes) and hands each step to it.
#ifndef COMMITLAB_SCENARIOS_RUNNER_PROTOCOL_H_
#define COMMITLAB_SCENARIOS_RUNNER_PROTOCOL_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "commitlab/core/commit_stats.h"
#include "commitlab/core/env.h"
#include "commitlab/core/events.h"
#include "commitlab/core/mutex.h"
#include "commitlab/core/paimon/store.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/core/status.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/step_access.h"

namespace commitlab::scenarios::internal {

class IcebergTableRun;
class DeltaTableRun;
class WriterHistory;

// Saved committables, by checkpoint name. Any writer may commit a checkpoint another saved, so
// they are shared (and locked, for OS threads).
class Checkpoints {
 public:
  void Save(const std::string& name, Committable c);
  std::optional<Committable> Get(const std::string& name) const;

 private:
  mutable Mutex mu_;
  std::map<std::string, Committable> saved_ GUARDED_BY(mu_);
};

// What a protocol writer is given. `script_error` turns a mistake of the script that only a run
// can find into the step's error (and marks it as a run error).
struct ProtocolContext {
  const Scenario* scenario = nullptr;
  const Writer* writer = nullptr;
  Env* env = nullptr;  // the writer's PointEnv
  EventSink* events = nullptr;
  WriterHistory* history = nullptr;  // null when the run keeps no history
  RetryPolicy retry = {};
  bool idempotency_check = true;
  // Paimon: the writer's handle on its table's store, and the run's saved checkpoints.
  SnapshotStore* store = nullptr;
  Checkpoints* checkpoints = nullptr;
  std::function<Status(std::string)> script_error = {};
  // Before touching state shared with other writers outside the storage brackets (which Iceberg
  // counters are initialised): Scheduler::OpaqueStep in a simulated run; may be empty.
  std::function<void(sim::StepAccess)> opaque_step = {};
};

class ProtocolWriter {
 public:
  virtual ~ProtocolWriter() = default;
  // Runs one step of the writer's script (parsed for this protocol).
  virtual Status Run(const Step& step, StepResult* r) = 0;
  // The writer's counters so far, without orphan files.
  virtual Counters counters() const = 0;
};

std::unique_ptr<ProtocolWriter> MakePaimonWriter(ProtocolContext ctx);
std::unique_ptr<ProtocolWriter> MakeIcebergWriter(ProtocolContext ctx, IcebergTableRun* table);
std::unique_ptr<ProtocolWriter> MakeDeltaWriter(ProtocolContext ctx, DeltaTableRun* table);

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_RUNNER_PROTOCOL_H_
