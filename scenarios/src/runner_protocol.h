// ProtocolWriter: how one writer of an Iceberg or a Delta table runs its steps. WriterRun keeps
// the script (gates, failures, outcomes) and hands each step to it; Paimon steps stay in
// WriterRun itself.
#ifndef COMMITLAB_SCENARIOS_RUNNER_PROTOCOL_H_
#define COMMITLAB_SCENARIOS_RUNNER_PROTOCOL_H_

#include <functional>
#include <memory>
#include <string>

#include "commitlab/core/committer.h"
#include "commitlab/core/env.h"
#include "commitlab/core/events.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/core/status.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"

namespace commitlab::scenarios::internal {

class IcebergTableRun;
class DeltaTableRun;

// What a protocol writer is given. `script_error` turns a mistake of the script that only a run
// can find into the step's error (and marks it as a run error).
class WriterHistory;

struct ProtocolContext {
  const Writer* writer = nullptr;
  Env* env = nullptr;  // the writer's PointEnv
  EventSink* events = nullptr;
  WriterHistory* history = nullptr;  // null when the run keeps no history
  RetryPolicy retry = {};
  std::function<Status(std::string)> script_error = {};
};

class ProtocolWriter {
 public:
  virtual ~ProtocolWriter() = default;
  // Runs one step of the writer's script (parsed for this protocol).
  virtual Status Run(const Step& step, StepResult* r) = 0;
  // The writer's counters so far, without orphan files.
  virtual Counters counters() const = 0;
};

// A writer's counters from what a Paimon or an Iceberg committer counted (CommitStats).
inline Counters CountersOf(const CommitStats& s) {
  Counters c;
  c.committed = s.snapshots;
  c.attempts = s.attempts;
  c.atomic_failures = s.atomic_failures;
  c.conflicts = s.conflicts;
  c.unknown_outcomes = s.unknown_outcomes;
  c.idempotent_matches = s.idempotent_matches;
  c.gave_up = s.gave_up;
  return c;
}

std::unique_ptr<ProtocolWriter> MakeIcebergWriter(ProtocolContext ctx, IcebergTableRun* table);
std::unique_ptr<ProtocolWriter> MakeDeltaWriter(ProtocolContext ctx, DeltaTableRun* table);

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_RUNNER_PROTOCOL_H_
