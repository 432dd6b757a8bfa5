// Writing a run's timeline (sim/timeline.h) to a file: `commitlab timeline` and the --timeline
// flag of run and race.
#ifndef COMMITLAB_LABS_TIMELINE_OUTPUT_H_
#define COMMITLAB_LABS_TIMELINE_OUTPUT_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/sim/timeline.h"

namespace commitlab::cli {

// Whether `path` ends in .html or .svg, the two things a timeline is written as.
bool TimelineExtensionOk(const std::string& path);

// The history file a run writes: --trace's, or with --timeline alone a scratch one beside the
// drawing (remove it with TemporaryFile); "" when neither is asked for.
std::string RunHistoryPath(const std::string& trace, const std::string& timeline);

// Draws the history file into `out` (HTML or SVG by its extension), through a temporary file
// renamed into place, and prints what the history lacks to stderr as "commitlab COMMAND:
// warning: ...". Returns "OUT: N writer(s), ..."; errors name the history ("PATH:N: ...").
// The history is read twice, a line at a time: memory holds the drawing, not the history.
Result<std::string> DrawTimeline(std::string_view command, const std::string& history_path, const std::string& out,
                                 const sim::TimelineOptions& options = {});

// Removes `path` (unless empty) when it goes out of scope: a history kept only for a drawing.
class TemporaryFile {
 public:
  explicit TemporaryFile(std::string path) : path_(std::move(path)) {}
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

 private:
  std::string path_;
};

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_TIMELINE_OUTPUT_H_
