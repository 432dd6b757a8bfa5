// A run's timeline, drawn from its history (docs/history.md), after Jepsen's timeline.html: one
// lane per writer with its storage operations as spans (a publish green when it won, red when it
// lost, with an arrow from the publish that took its snapshot), retry waits as hatched spans,
// `order` gates as dashed arrows, refusals, crashes and faults as marks, and the chain of published snapshots coloured
// by commit user along the bottom. Every element carries its history event, shown on hover and click.
#ifndef COMMITLAB_SIM_TIMELINE_H_
#define COMMITLAB_SIM_TIMELINE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/sim/history.h"

namespace commitlab::sim {

enum class TimelineAxis {
  kAuto,  // time when most storage operations took some, else scheduler steps
  kTime,  // milliseconds of the Env's clock
  kStep,  // scheduler steps (event order on OS threads)
};

struct TimelineSpan {
  size_t lane = 0;
  double x0 = 0;
  double x1 = 0;
  std::string kind = {};     // read-latest, read-snapshot, write-data, check-data, write-manifest, publish, wait,
                             // gate (held at an `order` line)
  std::string outcome = {};  // publish: published, lost, unknown; any: unfinished (no op_end)
  std::string label = {};    // drawn inside: "saw 4", "#5", "11 ms"
  std::string tip = {};      // one line for a reader
  std::string event = {};    // the history line that ended it
  std::optional<int64_t> snapshot = {};  // publish: the snapshot it tried
};

struct TimelineMark {
  size_t lane = 0;
  double x = 0;
  std::string kind = {};  // conflict, gave_up, crashed, unknown_outcome, fault, idempotent_match, error;
                          // an imported history's findings: finding (a problem), note
  std::string tip = {};
  std::string event = {};
};

// A lost publish and the publish that took its snapshot.
struct TimelineArrow {
  size_t winner = 0;  // index into spans
  size_t loser = 0;
  std::string label = {};  // "#5 taken by job-A"
  std::string event = {};  // the loser's atomic_commit_failed, with lost_to
};

// An `order` line's edge: the writer that reached the first point lets the gated one go on.
struct TimelineGate {
  size_t from_lane = 0;
  size_t to_lane = 0;
  double x = 0;            // where the gated writer went on
  std::string label = {};  // "order writer.loaded -> compact-job-2.plan (line 31)"
  std::string event = {};  // the gate_open
};

// A publish that storage recorded (also one whose writer was told it failed).
struct TimelineSnapshot {
  double x = 0;
  int64_t id = 0;
  std::string user = {};  // the commit user of the writer that published it
  std::string event = {};
};

struct Timeline {
  std::string title = {};
  bool by_step = false;                    // the x axis counts scheduler steps, not milliseconds
  bool wall_clock = false;                 // an OS-thread run: milliseconds of the wall clock, not virtual
  std::string clock_origin = {};           // an imported history: x is wall-clock ms since this time (UTC)
  size_t lost_races = 0;                   // atomic commit failures, drawn as arrows when the winner is known
  std::vector<std::string> warnings = {};  // e.g. a history without its footer
  double x_max = 0;
  std::vector<std::string> lanes = {};  // writers, in order of first appearance
  std::vector<TimelineSpan> spans = {};
  std::vector<TimelineMark> marks = {};
  std::vector<TimelineArrow> arrows = {};
  std::vector<TimelineGate> gates = {};
  std::vector<TimelineSnapshot> chain = {};
};

// The timeline of a whole history (header, events, footer). InvalidArgument "line N: ..." when a
// line is not what the format says.
Result<Timeline> BuildTimeline(const std::vector<Json>& history, TimelineAxis axis = TimelineAxis::kAuto);

// One self-contained SVG document (tooltips as <title>), for slides and papers.
std::string TimelineSvg(const Timeline& t);
// One self-contained HTML page: the SVG, a zoom control and a pane that shows the history event
// of the element clicked. No network at view time.
std::string TimelineHtml(const Timeline& t);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_TIMELINE_H_
