// The engine of `commitlab step`: a simulated scenario run one scheduling point at a time, with the
// user choosing who runs next. Every state is the run replayed from its start along the picks made
// so far and stopped where the strategy would choose next, so undo is a shorter replay and any
// state can be reached again from its pick string. What a state shows is read from the run's
// history (docs/history.md) by sim::RunState, as the timeline page's stepper reads it: each
// table's latest snapshot as the store has it, each writer's phase and what it waits for, what
// the last pick did, and why when it was refused.
#ifndef COMMITLAB_SCENARIOS_STEPPER_H_
#define COMMITLAB_SCENARIOS_STEPPER_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/language.h"

namespace commitlab::scenarios {

struct StepperWriter {
  std::string name = {};
  std::string symbol = {};           // its letter in a schedule string: a, b, ...
  bool runnable = false;             // may run at this point
  std::string phase = {};            // "claims snapshot #5 (rename)", "held at order line 31", "finished", ...
  std::string waits_for = {};        // what must happen before it goes on: "waits for writer to reach loaded"
  std::optional<int64_t> base = {};  // the snapshot (version) its current attempt builds on
  std::string base_name = {};        // that snapshot in the run's language: "快照 #2", "版本 3", ...
  int attempt = 0;                   // its current attempt, 0 before the first
  bool failed = false;               // its last step failed (refused, gave up, crashed)
  bool changed = false;              // its row is not what it was before the last pick
};

struct StepperTable {
  std::string name = {};
  std::string state = {};  // "latest snapshot #5 (COMPACT compact-job-1); 1 live file(s): ..."
  bool changed = false;
};

struct StepperState {
  int64_t step = 0;       // picks made so far
  bool finished = false;  // nobody is left to pick: the run is over
  std::vector<StepperWriter> writers = {};
  std::vector<StepperTable> tables = {};
  std::optional<int64_t> latest = {};    // the first table's latest snapshot (version), as its store has it
  int64_t now_micros = 0;                // the run's clock
  std::vector<std::string> events = {};  // what the last pick did, one line per event
  std::vector<std::string> why = {};     // why it went so, when an event of the last pick needs it
  int seed_pick = -1;                    // whom the run's own strategy would pick next
  std::string picks = {};                // the picks so far, as a schedule string's letters
  std::optional<RunReport> report = {};  // once finished
};

class Stepper {
 public:
  // REQUIRES: the scenario runs simulated (not `sched free`). `options` chooses seed and strategy
  // as for RunScenario; its history, events, observer and wrap_strategy are the stepper's.
  static Result<std::unique_ptr<Stepper>> Create(const Scenario& scenario, RunOptions options,
                                                 sim::Language language = sim::Language::kEnglish);

  // The run after the picks so far.
  const StepperState& state() const { return state_; }
  // Runs `writer` next. InvalidArgument when it cannot run now, saying why (its phase, what it
  // waits for, and the clock).
  Status Pick(int writer);
  // Lets the run's own strategy choose, as an unattended run would.
  Status PickAsTheSeedWould();
  // Takes back the last pick; false at the start.
  Result<bool> Undo();
  // The whole run's schedule string: the picks so far, then the run's own strategy to the end.
  // `commitlab run FILE --seed N --schedule S` replays it.
  Result<std::string> CompleteSchedule() const;

 private:
  Stepper(const Scenario& scenario, RunOptions options, sim::Language language)
      : scenario_(scenario), options_(std::move(options)), language_(language) {}
  Status Replay();
  // The state a replay stopped at: paused at a point (with who may run and whom the seed picks),
  // or finished with `report`.
  StepperState Read(const sim::History& history, bool paused, const std::vector<int>& runnable, int seed_pick,
                    RunReport* report) const;
  std::vector<std::string> WhyNow(const std::vector<sim::Json>& parsed, size_t first, size_t last) const;

  const Scenario& scenario_;
  RunOptions options_;
  const sim::Language language_;
  std::vector<int> picks_;
  StepperState state_;
};

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_STEPPER_H_
