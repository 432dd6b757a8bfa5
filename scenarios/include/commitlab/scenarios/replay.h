// Replaying a history (sim/history.h): run again, in this process, what its header recorded (the
// scenario text and the command's settings) and compare the new history with the recorded one
// event by event. A simulated run comes back identical. A run recorded on OS threads (sched free)
// is replayed in the simulator with its recorded reads and publishes as order constraints
// (replay_threads.cc), so that the same outcome comes back.
#ifndef COMMITLAB_SCENARIOS_REPLAY_H_
#define COMMITLAB_SCENARIOS_REPLAY_H_

#include <optional>
#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/history_diff.h"

namespace commitlab::scenarios {

struct ReplayOptions {
  // Set: run this scenario text instead of the recorded one (a file edited since the recording),
  // to see where its history departs.
  std::optional<std::string> scenario_text = {};
};

struct ReplayOutcome {
  std::string command;                                    // "commitlab run scenarios/x.scn --seed 5", as recorded
  bool threads = false;                                   // recorded on OS threads: outcomes compared, not events
  std::vector<sim::Json> recorded;                        // the lines after the header
  std::vector<sim::Json> replayed;                        // the same for the new run
  std::optional<sim::HistoryDifference> difference = {};  // the first one; none: identical
  // Threaded replays: the outcome that did not come back, or the recorded event the simulator
  // could not force and why.
  std::string threads_problem = {};
};

// `lines` is the whole history, header first. InvalidArgument ("line N: ...") when it is not one
// this build can replay, or the recorded run cannot run again.
Result<ReplayOutcome> ReplayHistory(const std::vector<sim::Json>& lines, const ReplayOptions& options = {});

// A recorded history's lines after its header, read one at a time.
class RecordedLines {
 public:
  virtual ~RecordedLines() = default;
  // The next line, without its newline, into `*line`; false past the last. InvalidArgument
  // ("line N: ...") when it cannot be read.
  virtual Result<bool> Next(std::string* line) = 0;
  // The line number, from 1 for the header, of the line Next gave last.
  virtual size_t line_number() const = 0;
};

struct StreamedReplay {
  std::string command;                                    // as ReplayOutcome's
  size_t events = 0;                                      // recorded lines compared, the footer not counted
  std::optional<sim::HistoryDifference> difference = {};  // the first one; none: identical
  std::vector<sim::Json> before = {};                     // the recorded lines just before it (at most `context`)
};

// ReplayHistory for a simulated recording, streamed: each line of the new run is compared with
// the next recorded one as the run writes it (the same bytes, or else the same JSON value), so a
// replay holds one recorded line and the `context` before it, however long the history.
// InvalidArgument as ReplayHistory's, and for a recorded line that is not a JSON object; a history
// recorded on OS threads is ReplayHistory's to replay.
Result<StreamedReplay> ReplayHistoryStreamed(const sim::Json& header, RecordedLines* recorded,
                                             const ReplayOptions& options = {}, size_t context = 3);

// The parts of a header replay uses, checked: "line 1: ..." errors.
Status CheckHistoryHeader(const sim::Json& header);
// The recorded command's options, as RunScenario takes them.
Result<RunOptions> RecordedRunOptions(const sim::Json& header);
// The recorded scenario (or `text` instead of it), parsed as the header names it.
Result<Scenario> RecordedScenario(const sim::Json& header, const std::optional<std::string>& text = {});

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_REPLAY_H_
