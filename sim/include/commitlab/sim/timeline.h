// A run's timeline, drawn from its history (docs/history.md), after Jepsen's timeline.html: one
// lane per writer, grouped by the table it writes, with its storage operations as spans (a publish
// green when it won, red when it lost, with an arrow from the publish that took its snapshot),
// retry waits as hatched spans, `order` gates as dashed arrows, refusals, crashes and faults as
// marks, and under each table's lanes the chain of its published snapshots coloured by commit user.
// A refusal is linked to the snapshot that caused it, a lost update drawn as the stale read and the
// overwrite. Every element carries its history event, shown on hover and click. The page also
// steps through the run event by event, as a TLA+ trace explorer does, showing each table's
// latest snapshot and live files and each writer's phase and what it waits for (sim/run_state.h).
// Past a few thousand spans in a lane the lanes are drawn as bins that the page merges or splits
// as it zooms, so a run of 10^5 commits is a page of a few MB drawn in bounded memory.
#ifndef COMMITLAB_SIM_TIMELINE_H_
#define COMMITLAB_SIM_TIMELINE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/language.h"

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
  size_t table = 0;         // index into Timeline::tables
  std::string writer = {};  // who published it
};

// The tables of the run, each with the lanes of the writers that write it (in lane order).
struct TimelineTable {
  std::string name = {};
  std::string protocol = {};
  std::vector<size_t> lanes = {};
};

// A refusal and the snapshot that caused it (the conflict event's culprit).
struct TimelineCause {
  size_t mark = 0;      // index into marks
  size_t snapshot = 0;  // index into chain
  std::string label = {};
};

// A lost update (the checker's lost_update): a counter commit built on a stale read overwrote a
// commit it never saw.
struct TimelineLostUpdate {
  size_t lane = 0;         // the overwriting writer's
  double read_x = 0;       // where it read the stale value
  size_t overwrite = 0;    // index into chain: its commit
  size_t overwritten = 0;  // index into chain: the commit it overwrote unseen
  std::string read_tip = {};
  std::string label = {};
  std::string event = {};  // its stale read (a step_end)
};

// A lane's activity in one bin of the x axis, for a run drawn aggregated.
struct TimelineBin {
  uint32_t ops = 0;    // storage operations that ended in it
  uint32_t won = 0;    // publishes that took effect
  uint32_t lost = 0;   // publishes that found their id taken
  uint32_t waits = 0;  // retry waits that began in it
  double busy = 0;     // the share of the bin covered by operations, 0..1
  double waiting = 0;  // the share covered by retry waits
};
struct TimelineChainBin {
  uint32_t count = 0;
  int64_t first = 0;
  int64_t last = 0;
};

// One step of the page's stepper: every event of one scheduler step (each event on OS threads),
// what they said, and the rows of the state panel they changed.
struct TimelineStep {
  double x = 0;
  int64_t step = -1;                                         // the scheduler's, -1 on OS threads
  std::vector<std::string> said = {};                        // one line per event
  std::vector<std::pair<size_t, std::string>> writers = {};  // writer row (lane) -> its text now
  std::vector<std::pair<size_t, std::string>> tables = {};   // table -> "latest ...; live files ..."
};

struct TimelineOptions {
  TimelineAxis axis = TimelineAxis::kAuto;
  Language language = Language::kEnglish;
  // Past this many spans in one lane, or 20 times as many in all, the lanes are binned.
  size_t detail_spans_per_lane = 3000;
  size_t bins = 8192;        // bins across the x axis when binned (at most 2,000,000 over all lanes)
  size_t max_steps = 20000;  // the stepper covers the run's first steps up to this many
  size_t max_marks = 5000;
};

struct Timeline {
  std::string title = {};
  Language language = Language::kEnglish;
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
  std::vector<TimelineTable> tables = {};  // every lane is in exactly one
  std::vector<TimelineCause> causes = {};
  std::vector<TimelineLostUpdate> lost_updates = {};
  // Binned (aggregated): spans and arrows are left empty, each lane's activity is in lane_bins and
  // each table's snapshots in chain_bins, `bins` of them across [0, x_max].
  bool aggregated = false;
  size_t bins = 0;
  std::vector<std::vector<TimelineBin>> lane_bins = {};
  std::vector<std::vector<TimelineChainBin>> chain_bins = {};
  size_t spans_total = 0;  // drawn or binned
  size_t marks_total = 0;  // past max_marks only counted
  // The stepper: steps[0] is the state before the first event (every row).
  std::vector<TimelineStep> steps = {};
  size_t steps_total = 0;  // more than steps.size() - 1 when the stepper stops early
};

// A history read line by line: calls `each` with every line after the header, in order, with its
// 1-based line number, and stops at the first error `each` returns. May be called more than once.
using HistoryEvents = std::function<Status(const std::function<Status(const Json& line, size_t number)>& each)>;

// The timeline of a whole history (header, events, footer). InvalidArgument "line N: ..." when a
// line is not what the format says.
Result<Timeline> BuildTimeline(const std::vector<Json>& history, TimelineAxis axis = TimelineAxis::kAuto);
Result<Timeline> BuildTimeline(const std::vector<Json>& history, const TimelineOptions& options);
// The same from a history read twice, line by line, so that memory stays bounded by the drawing
// (bins, marks, the stepper's first steps), not the history.
Result<Timeline> BuildTimeline(const Json& header, const HistoryEvents& events, const TimelineOptions& options);

// One self-contained SVG document (tooltips as <title>), for slides and papers.
std::string TimelineSvg(const Timeline& t);
// One self-contained HTML page: the SVG, a zoom control and a pane that shows the history event
// of the element clicked. No network at view time.
std::string TimelineHtml(const Timeline& t);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_TIMELINE_H_
