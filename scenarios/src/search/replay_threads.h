// Replaying a history recorded on OS threads. The recorded interleaving cannot be replayed step by
// step (threads have no steps), but what made the outcome can: which snapshot each read of the
// latest one saw, and which publishes won or lost. ThreadReplay holds each simulated writer at
// its next read or publish until the table is where the recording says it was then:
//   a read that saw S        waits until snapshot S is the latest;
//   a publish of N that won  waits until N-1 is the latest and every recorded read of N-1 has read;
//   a publish of N that lost waits until N exists.
// Other operations interleave freely. When a writer's next operation is not the recorded one, or
// no order can satisfy the recording, Problem() says which recorded event could not be forced and
// why; otherwise it compares the outcomes (latest snapshot, tallies, verdicts).
#ifndef COMMITLAB_SCENARIOS_REPLAY_THREADS_H_
#define COMMITLAB_SCENARIOS_REPLAY_THREADS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/scheduler.h"

namespace commitlab::scenarios::internal {

class ThreadReplay final : public EffectGate {
 public:
  // `header` and `recorded` (the lines after it) of a history. InvalidArgument when it names
  // writers the scenario does not have, or its plan has a fault that fires by chance (p=): on
  // threads it drew from each thread's stream, and no order of the simulator can force its draws.
  static Result<std::unique_ptr<ThreadReplay>> Make(const Scenario& s, const sim::Json& header,
                                                    const std::vector<sim::Json>& recorded);

  void Attach(sim::Scheduler* scheduler) override { scheduler_ = scheduler; }
  void Before(size_t writer, Effect effect) override;
  void After(size_t writer, Effect effect, int64_t snapshot, PublishOutcome outcome) override;

  // "" when the replay reproduced the recording; else the first event it could not force, or the
  // outcome that differs.
  std::string Problem(const std::vector<sim::Json>& replayed) const;
  // The first event that could not be forced, "" while there is none.
  const std::string& first_problem() const { return problem_; }

 private:
  struct Op {
    Effect effect = Effect::kRead;
    int64_t snapshot = 0;                                 // a read: the snapshot it saw; a publish: the one it tried
    PublishOutcome outcome = PublishOutcome::kPublished;  // a publish's
    size_t line = 0;                                      // in the history file
  };

  explicit ThreadReplay(const Scenario& s) : s_(s) {}
  bool MayGo(size_t writer, const Op& op);
  void Fail(std::string why);
  std::string Describe(size_t writer, const Op& op) const;

  const Scenario& s_;
  sim::Scheduler* scheduler_ = nullptr;
  std::vector<std::vector<Op>> ops_;                    // per writer, in its order
  std::vector<size_t> next_;                            // per writer: its next recorded op
  std::vector<bool> waiting_;                           // per writer
  std::vector<int64_t> latest_;                         // per table: the newest snapshot published in the replay
  std::vector<std::map<int64_t, int64_t>> reads_left_;  // per table: saw -> recorded reads not replayed
  std::vector<std::map<int64_t, int>> winners_;         // per table: snapshot -> recorded winning publishes
  sim::Json recorded_footer_;
  std::string problem_;  // the first
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_REPLAY_THREADS_H_
