// WriterRun: one writer's script, run step by step on its own fiber or thread: the order gates
// before each step, the protocol writer (protocols/protocol.h) that runs it on the table's engine,
// how each step and the script ended, and a failure's skip to the next step that resumes (Paimon's
// restart).
#ifndef COMMITLAB_SCENARIOS_RUNNER_WRITER_H_
#define COMMITLAB_SCENARIOS_RUNNER_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/env.h"
#include "commitlab/core/events.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/step_access.h"
#include "protocols/protocol.h"
#include "run/runner_gates.h"
#include "run/runner_history.h"
#include "run/runner_point_env.h"

namespace commitlab::scenarios::internal {

// Forwards a writer's events and notes whether one at ERROR level went by: a step that failed
// without one (a refusal of the runner's, a reader's FileNotFoundException) gets one.
class ErrorWatch final : public EventSink {
 public:
  explicit ErrorWatch(EventSink* to) : to_(to) {}
  void OnEvent(const Event& e) override {
    saw_error_ = saw_error_ || e.level == Level::kError;
    to_->OnEvent(e);
  }
  bool wants_messages() const override { return to_->wants_messages(); }
  bool wants_events() const override { return to_->wants_events(); }
  // Whether an ERROR event went by since the last call.
  bool TakeSawError() { return std::exchange(saw_error_, false); }

 private:
  EventSink* const to_;
  bool saw_error_ = false;
};

// What a writer needs from the world it runs in.
struct WriterEnv {
  const Scenario* scenario = nullptr;
  const RunPlan* plan = nullptr;
  Env* env = nullptr;
  Gates* gates = nullptr;
  TableRun* table = nullptr;         // the writer's table
  EventSink* events = nullptr;       // the writer's table's sinks
  WriterHistory* history = nullptr;  // null when the run keeps no history
  // May be empty: see World::set_opaque_hooks.
  std::function<void(sim::StepAccess)> opaque_step = {};
  std::function<void(bool)> mark_opaque = {};
  // Called first thing in the writer's body, and after every step that ran.
  std::function<void()> on_start = {};
  std::function<void(size_t writer, size_t step, const StepResult&)> on_step = {};
};

class WriterRun {
 public:
  WriterRun(size_t index, WriterEnv env);

  // The writer's body: every step in order, waiting at order gates; stops at a failure, or skips
  // to the next restart after a crash.
  void Run();

  // The report without orphan files (the world counts those), moved out: call once, after Run.
  WriterReport TakeReport();
  // Once its table has reported: the files this writer wrote that no snapshot references.
  int64_t orphan_files() const { return protocol_->orphan_files(); }
  // Errors that mean the script could not go on as written (see RunReport::run_errors).
  const std::vector<std::string>& run_errors() const { return run_errors_; }

 private:
  Status RunStep(const Step& step, size_t index, StepResult* r);

  // A mistake of the script only a run can find: the writer stops and the run fails.
  Status ScriptError(std::string message);
  // PointEnv's hook: holds the writer at its step's first publish while `W.L.publish` gates say so.
  Status BeforePublish();
  // Ends the script: records how, and tells the gates that its remaining steps will not run.
  void Stop(Outcome outcome, std::string error);

  const size_t index_;
  const Writer& writer_;
  WriterEnv env_;
  std::unique_ptr<HistoryEnv> history_env_;  // with a history: its storage-operation spans
  PointEnv point_env_;                       // what every engine of this writer runs on
  TeeEventSink sinks_;                       // the table's sinks and the writer's history
  ErrorWatch events_;                        // what the engine reports to
  std::unique_ptr<ProtocolWriter> protocol_;
  const Step* current_ = nullptr;  // the step running (Run's copy)
  size_t current_index_ = 0;
  bool published_ = false;   // the current step has passed its publish point
  std::string point_error_;  // a publish gate that can never open
  bool script_error_ = false;
  std::vector<std::string> run_errors_;
  WriterReport report_;
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_RUNNER_WRITER_H_
