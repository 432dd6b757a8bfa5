// Writing a run's timeline (sim/timeline.h) to a file: `commitlab timeline` and the --timeline
// flag of run and race.
#ifndef COMMITLAB_LABS_TIMELINE_OUTPUT_H_
#define COMMITLAB_LABS_TIMELINE_OUTPUT_H_

#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/timeline.h"

namespace commitlab::cli {

// Whether `path` ends in .html or .svg, the two things a timeline is written as.
bool TimelineExtensionOk(const std::string& path);

// Draws `history` into `out` (HTML or SVG by its extension), through a temporary file renamed into
// place. `summary` gets "OUT: N writer(s), ..."; `warnings` what the history lacks.
Status WriteTimeline(const std::vector<sim::Json>& history, const std::string& out, sim::TimelineAxis axis,
                     std::string* summary, std::vector<std::string>* warnings);

// The same for a history file; errors name it ("PATH:N: ...").
Status WriteTimelineOfFile(const std::string& history_path, const std::string& out, sim::TimelineAxis axis,
                           std::string* summary, std::vector<std::string>* warnings);

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
