// The timeline page's stepper (sim/timeline.h): the history's events grouped into steps (one
// scheduler step each, one event each on OS threads), with what each said and the rows of the
// state panel it changed, from a RunState fed event by event.
#ifndef COMMITLAB_SIM_SRC_TIMELINE_STEPS_H_
#define COMMITLAB_SIM_SRC_TIMELINE_STEPS_H_

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "commitlab/sim/run_state.h"
#include "commitlab/sim/timeline.h"

namespace commitlab::sim {

class StepRecorder {
 public:
  // `lanes`: writer -> lane. Writes out->steps (steps[0]: every row before the first event) and
  // out->steps_total.
  StepRecorder(const Json& header, Language language, const std::map<std::string, size_t>& lanes, size_t max_steps,
               Timeline* out);
  // The next event (or the footer), at x on the drawing's axis.
  void Add(const Json& e, double x);
  void Finish();

 private:
  void Close();

  RunState state_;
  const std::map<std::string, size_t>& lanes_;
  const size_t max_steps_;
  Timeline* const out_;
  std::vector<std::string> writer_rows_;  // per lane, as last shown
  std::vector<std::string> table_rows_;
  bool open_ = false;   // a step is being gathered
  bool keyed_ = false;  // ... by its scheduler step
  int64_t key_ = -1;
  TimelineStep current_;
};

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_SRC_TIMELINE_STEPS_H_
