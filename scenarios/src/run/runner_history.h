// What a run writes into its history (sim/history.h, docs/history.md), tapped per writer:
//   - every storage operation its engine brackets in the Env, as op_start / op_end spans, with what
//     the store, catalog or log said in between (the snapshot a read saw, a publish's outcome, the
//     file written) and when that took effect;
//   - its engine's events, with who won a lost race and who removed or added a conflicting file;
//   - its steps, the order gates it waited at, and the faults injected into it.
// "Who" is read directly from the table (TableLookup): looking on is not part of the run (no Env
// call, no scheduling point), so a history never changes the run it records. Each protocol's
// lookups, and the handles that note what its store, catalog or log said, are in its folder
// (protocols/<p>/<p>_history.h).
#ifndef COMMITLAB_SCENARIOS_RUNNER_HISTORY_H_
#define COMMITLAB_SCENARIOS_RUNNER_HISTORY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "commitlab/core/env_wrapper.h"
#include "commitlab/core/events.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/fault_spec.h"
#include "commitlab/sim/history.h"

namespace commitlab::scenarios::internal {

class TableLookup {
 public:
  virtual ~TableLookup() = default;

  // The commit user of Paimon snapshot, Iceberg metadata version or Delta log version `id`; ""
  // when the table cannot say (expired, never written).
  virtual std::string CommittedBy(int64_t id) = 0;

  struct Touch {
    int64_t snapshot = 0;  // Paimon snapshot id, Iceberg sequence number
    std::string user;
    bool added = false;  // else deleted
  };
  // The newest retained snapshot at or before `at_most` (Paimon's snapshot id, Delta's version;
  // Iceberg looks at every retained snapshot) that added or deleted `file`.
  virtual std::optional<Touch> LastTouch(const std::string& file, int64_t at_most) = 0;
};

// A publish's outcome as every protocol's op_end names it: "published", "lost", "unknown".
std::string_view PublishOutcomeNote(PublishOutcome o);
// The other way round; nullopt for another word.
std::optional<PublishOutcome> ParsePublishOutcomeNote(std::string_view note);

// One writer's taps. Used by that writer only (its fiber or thread); the history serializes.
class WriterHistory final : public EventSink {
 public:
  // `writer_of` names the writer of a commit user ("" when no writer has it).
  WriterHistory(sim::History* history, std::string writer, std::function<std::string(std::string_view)> writer_of);

  // The run's Env (for times), the writer's table (for "who") and the run's effect gate (may be
  // null) with the writer's index; set before the writer runs.
  void Attach(Env* env, TableLookup* lookup, EffectGate* gate, size_t index) {
    env_ = env;
    lookup_ = lookup;
    gate_ = gate;
    index_ = index;
  }

  void OnEvent(const Event& e) override;

  void OpStart(StorageOp op);
  void OpEnd(StorageOp op);
  // The store's side of the operation in flight: merged into its op_end, with the time it took
  // effect ("at_us"). Ignored outside an operation.
  void Note(sim::Json fields);
  // A read of the latest snapshot or a publish, just before it takes effect and with what it did:
  // noted as above, and told to the effect gate.
  void BeforeEffect(EffectGate::Effect effect) {
    if (gate_ != nullptr) gate_->Before(index_, effect);
  }
  void Read(int64_t saw, sim::Json more = sim::Json::object());
  void Published(int64_t snapshot, PublishOutcome outcome);

  void StepStart(const Step& step);
  void StepEnd(const Step& step, const StepResult& r);
  void GateWait(const OrderEdge& edge);
  void GateOpen(const OrderEdge& edge);
  void Fault(const sim::FiredFault& fired, const sim::FaultRule& rule);

 private:
  void Record(std::string_view type, const sim::Json& fields);
  sim::Json Who(std::string_view user, int64_t snapshot);

  sim::History* const history_;
  const std::string writer_;
  const std::function<std::string(std::string_view)> writer_of_;
  Env* env_ = nullptr;
  TableLookup* lookup_ = nullptr;
  EffectGate* gate_ = nullptr;
  size_t index_ = 0;
  bool in_op_ = false;
  sim::Json pending_;  // what the store noted for the operation in flight
};

// The writer's Env as the history sees it: op_start before an operation's request hop, op_end
// after its response hop.
class HistoryEnv final : public EnvWrapper {
 public:
  HistoryEnv(Env* target, WriterHistory* history) : EnvWrapper(target), history_(history) {}

  void BeginStorageOp(StorageOp op) override {
    history_->OpStart(op);
    EnvWrapper::BeginStorageOp(op);
  }
  void EndStorageOp(StorageOp op) override {
    EnvWrapper::EndStorageOp(op);
    history_->OpEnd(op);
  }

 private:
  WriterHistory* const history_;
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_RUNNER_HISTORY_H_
