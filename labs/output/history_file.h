// A run's --trace FILE: its history (sim/history.h, docs/history.md) written to a file. The header
// records the build, the command with its settings as typed values, and the scenario text with
// its SHA-256, so that `commitlab replay` can run exactly what ran; Finish writes the footer and
// says so when the file could not be written whole (a full disk, no permission).
#ifndef COMMITLAB_LABS_HISTORY_FILE_H_
#define COMMITLAB_LABS_HISTORY_FILE_H_

#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/replay.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/history.h"

namespace commitlab::cli {

// The header's fields after type, format and version:
//   commitlab {version, git}, command, argv, settings (the command's own options, typed), plan
//   (what the run resolved them to), scenario {file, sha256, text}.
sim::Json HistoryHeader(std::string_view command, const std::vector<std::string>& argv, sim::Json settings,
                        sim::Json plan, const scenarios::Scenario& scenario);

class HistoryFile {
 public:
  // Opens (truncates) `path` and writes `header` (HistoryHeader's fields), flushed: a file that
  // cannot be written fails here, before the run. InvalidArgument "--trace: cannot write PATH:
  // <reason>", IOError "--trace: writing PATH failed: <reason>".
  static Result<std::unique_ptr<HistoryFile>> Create(const std::string& path, const sim::Json& header);

  sim::History* history() { return &history_; }
  // Writes the footer and closes the file. IOError "--trace: writing PATH failed: <reason>"; the
  // partial file is removed then, so nobody mistakes it for a whole history.
  Status Finish(const sim::Json& footer);
  // A history never finished (the run could not run as recorded) is removed too.
  ~HistoryFile();

 private:
  explicit HistoryFile(std::string path) : path_(std::move(path)), history_(&file_) {}
  // The error for a failed write; removes the partial file.
  Status Failed(int err);

  std::string path_;
  std::ofstream file_;
  sim::History history_;
  bool finished_ = false;
};

// "h.jsonl:1: not a commitlab history" for a message about line N ("line 1: ..."), else
// "h.jsonl: <message>".
std::string HistoryWhere(const std::string& path, std::string_view message);
// The lines of a history file, parsed; InvalidArgument "PATH:N: ..." for a line that is not JSON
// or not a history line, and for a file that is missing, not a file, too large or empty.
Result<std::vector<sim::Json>> ReadHistoryFile(const std::string& path);
// The same one line at a time (header included, with its 1-based number), so that a reader of a
// large history holds one line, not all of them; stops at the first error `each` returns.
Status ForEachHistoryLine(const std::string& path, const std::function<Status(sim::Json, size_t)>& each);
// Only the first line, parsed.
Result<sim::Json> ReadHistoryHeader(const std::string& path);

// A history file read one line at a time (a streamed replay holds one line, not the history).
class HistoryFileLines final : public scenarios::RecordedLines {
 public:
  // InvalidArgument as ReadHistoryFile's for a file that is missing or not a regular file.
  static Result<std::unique_ptr<HistoryFileLines>> Open(const std::string& path);
  ~HistoryFileLines() override;
  HistoryFileLines(const HistoryFileLines&) = delete;
  HistoryFileLines& operator=(const HistoryFileLines&) = delete;

  // InvalidArgument "line N: ..." for a line longer than any history writes, or a failed read.
  Result<bool> Next(std::string* line) override;
  size_t line_number() const override { return line_number_; }

 private:
  explicit HistoryFileLines(std::FILE* file) : file_(file) {}

  std::FILE* const file_;
  std::string buffer_;  // read, not yet returned: buffer_[at_, end)
  size_t at_ = 0;
  bool eof_ = false;
  size_t line_number_ = 0;
};

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_HISTORY_FILE_H_
