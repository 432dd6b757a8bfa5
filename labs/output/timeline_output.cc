#include "output/timeline_output.h"

#include <unistd.h>

#include <fmt/format.h>

#include <filesystem>

#include "commitlab/core/file_write.h"
#include "output/history_file.h"

namespace commitlab::cli {

TemporaryFile::~TemporaryFile() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove(path_, ec);
}

bool TimelineExtensionOk(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  return ext == ".html" || ext == ".svg";
}

std::string RunHistoryPath(const std::string& trace, const std::string& timeline) {
  if (!trace.empty() || timeline.empty()) return trace;
  return fmt::format("{}.history.tmp-{}", timeline, ::getpid());
}

Result<std::string> DrawTimeline(std::string_view command, const std::string& history_path, const std::string& out,
                                 sim::TimelineAxis axis) {
  COMMITLAB_ASSIGN_OR_RETURN(std::vector<sim::Json> lines, ReadHistoryFile(history_path));
  return DrawTimeline(command, lines, history_path, out, axis);
}

Result<std::string> DrawTimeline(std::string_view command, const std::vector<sim::Json>& lines,
                                 const std::string& history_path, const std::string& out, sim::TimelineAxis axis) {
  Result<sim::Timeline> t = sim::BuildTimeline(lines, axis);
  if (!t.ok()) return Status::InvalidArgument(HistoryWhere(history_path, t.status().message()));
  const bool svg = std::filesystem::path(out).extension() == ".svg";
  // A failed write leaves no half-written picture behind.
  COMMITLAB_RETURN_IF_ERROR(WriteFileAtomically(out, svg ? sim::TimelineSvg(*t) : sim::TimelineHtml(*t)));
  for (const std::string& w : t->warnings)
    fmt::print(stderr, "commitlab {}: warning: {}: {}\n", command, history_path, w);
  return fmt::format("{}: {} writer(s), {} span(s), {} lost race(s) ({} with the winner drawn), {} snapshot(s)", out,
                     t->lanes.size(), t->spans.size(), t->lost_races, t->arrows.size(), t->chain.size());
}

}  // namespace commitlab::cli
