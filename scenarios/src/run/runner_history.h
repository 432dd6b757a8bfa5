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
  // The store's side of the operation in flight, as members of its op_end, after the time it took
  // effect ("at_us", taken at the first note). A key noted again keeps its place and takes the
  // new value. Ignored outside an operation.
  void NoteInt(std::string_view key, int64_t value);
  void NoteStr(std::string_view key, std::string_view value);
  void NoteBool(std::string_view key, bool value);
  // A read of the latest snapshot or a publish, just before it takes effect and with what it did:
  // noted as above, and told to the effect gate.
  void BeforeEffect(EffectGate::Effect effect) {
    if (gate_ != nullptr) gate_->Before(index_, effect);
  }
  // `sequence_number`: Iceberg's, when the table has a snapshot (noted before "saw").
  void Read(int64_t saw, std::optional<int64_t> sequence_number = std::nullopt);
  void Published(int64_t snapshot, PublishOutcome outcome);

  void StepStart(const Step& step);
  void StepEnd(const Step& step, const StepResult& r);
  void GateWait(const OrderEdge& edge);
  void GateOpen(const OrderEdge& edge);
  void Fault(const sim::FiredFault& fired, const sim::FaultRule& rule);

 private:
  // A member of the op_end to come: its key (a literal) and its value, written as JSON.
  struct NoteMember {
    std::string_view key;
    std::string value;
  };
  // The line of an event of this writer at the Env's time now, with its members to add.
  sim::JsonWriter Begin(std::string_view type) { return Begin(type, env_->NowMicros()); }
  sim::JsonWriter Begin(std::string_view type, int64_t t_us) {
    return history_->BeginQuoted(&line_, type, t_us, writer_json_);
  }
  void End(sim::JsonWriter& w) { history_->End(w); }
  // The value slot of `key` in the op_end to come (cleared), or nullptr outside an operation.
  std::string* NoteSlot(std::string_view key);
  void AppendWho(std::string_view user, int64_t snapshot, sim::JsonWriter* w);

  sim::History* const history_;
  const std::string writer_;
  const std::string writer_json_;  // writer_ as a JSON string, written into every line
  const std::function<std::string(std::string_view)> writer_of_;
  Env* env_ = nullptr;
  TableLookup* lookup_ = nullptr;
  EffectGate* gate_ = nullptr;
  size_t index_ = 0;
  bool in_op_ = false;
  // What the store noted for the operation in flight: notes_[0, notes_size_). The strings keep
  // their capacity from one operation to the next, as line_ does from one line to the next.
  std::vector<NoteMember> notes_;
  size_t notes_size_ = 0;
  std::string line_;
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
