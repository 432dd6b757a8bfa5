// World: what one run of a scenario is made of. A TableRun per table (its protocol's:
// protocols/protocol.h), the fault plan, the sinks each engine reports to (the caller's, the
// table's own, the trace), and a WriterRun per writer. After the run each table reads its chain
// back, counts orphan files and checks its invariants, and the world builds the report.
#ifndef COMMITLAB_SCENARIOS_RUNNER_WORLD_H_
#define COMMITLAB_SCENARIOS_RUNNER_WORLD_H_

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commitlab/core/env.h"
#include "commitlab/core/events.h"
#include "commitlab/core/mutex.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/checker.h"
#include "commitlab/sim/fault_spec.h"
#include "commitlab/sim/real_env.h"
#include "commitlab/sim/step_access.h"
#include "protocols/protocol.h"
#include "run/runner_gates.h"
#include "run/runner_history.h"
#include "run/runner_writer.h"

namespace commitlab::scenarios::internal {

class World {
 public:
  World(const Scenario& s, const RunOptions& options, const RunPlan& plan);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // Opens each table's storage. InvalidArgument when one cannot be had (a directory that holds a
  // table already, a server that is not there).
  Status Open();
  // Null when there are no fault rules.
  sim::FaultPlan* faults() { return plan_.faults.empty() ? nullptr : &fault_plan_; }

  // Builds each writer on `env` and returns the bodies to run, in writer order. `drawn` tells
  // what the strategy drew (asked once the run has started).
  std::vector<sim::RealEnv::Writer> Writers(Env* env, Gates* gates, std::function<std::string()> drawn);
  // Simulated runs: the scheduler's hooks for lines that touch state shared outside the engine's
  // storage brackets (sim/step_access.h): `opaque_step` before such a line, `mark_opaque` around
  // one that does so throughout. Set before Writers().
  void set_opaque_hooks(std::function<void(sim::StepAccess)> opaque_step, std::function<void(bool)> mark_opaque) {
    opaque_step_ = std::move(opaque_step);
    mark_opaque_ = std::move(mark_opaque);
  }

  // After every writer has finished: the report, with expectations evaluated.
  RunReport Finish();

 private:
  class PublishWatcher;

  void OnStart();
  void OnStep(size_t writer, size_t step, const StepResult& r);
  // Shows the observer table t's snapshots up to `id` (the latest when nullopt) it has not seen.
  void ShowSnapshots(size_t table, std::optional<int64_t> id);

  const Scenario& s_;
  const RunOptions& options_;
  const RunPlan& plan_;
  std::map<Protocol, std::unique_ptr<ProtocolRunState>> shared_;  // per protocol with tables here
  std::vector<std::unique_ptr<TableRun>> tables_;
  sim::ScriptedFaultPlan fault_plan_;
  std::function<void(sim::StepAccess)> opaque_step_;
  std::function<void(bool)> mark_opaque_;
  std::vector<std::unique_ptr<PublishWatcher>> watchers_;  // per narrated table, with an observer
  std::vector<std::unique_ptr<TeeEventSink>> sinks_;       // per table
  std::vector<std::unique_ptr<TableLookup>> lookups_;      // per table, with a history
  std::vector<std::unique_ptr<WriterHistory>> histories_;  // per writer, with a history
  std::vector<std::unique_ptr<WriterRun>> writers_;
  std::function<std::string()> drawn_;

  Mutex observer_mu_;  // serializes the observer's calls
  bool started_ GUARDED_BY(observer_mu_) = false;
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_RUNNER_WORLD_H_
