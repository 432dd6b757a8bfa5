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
                                 const sim::TimelineOptions& options) {
  // The header first (the drawing's plan needs it), then the events, twice.
  COMMITLAB_ASSIGN_OR_RETURN(const sim::Json header, ReadHistoryHeader(history_path));
  const sim::HistoryEvents events = [&history_path](const std::function<Status(const sim::Json&, size_t)>& each) {
    return ForEachHistoryLine(history_path,
                              [&each](sim::Json line, size_t n) { return n == 1 ? Status::OK() : each(line, n); });
  };
  Result<sim::Timeline> t = sim::BuildTimeline(header, events, options);
  if (!t.ok()) {
    const std::string message(t.status().message());
    // A line the reader refused already names the file.
    if (message.starts_with(history_path)) return t.status();
    return Status::InvalidArgument(HistoryWhere(history_path, message));
  }
  const bool svg = std::filesystem::path(out).extension() == ".svg";
  // A failed write leaves no half-written picture behind.
  COMMITLAB_RETURN_IF_ERROR(WriteFileAtomically(out, svg ? sim::TimelineSvg(*t) : sim::TimelineHtml(*t)));
  for (const std::string& w : t->warnings)
    fmt::print(stderr, "commitlab {}: warning: {}: {}\n", command, history_path, w);
  return sim::Say(options.language,
                  "{0}: {1} writer(s), {2} span(s), {3} lost race(s) ({4} with the winner drawn), {5} snapshot(s){6}",
                  "{0}：{1} 个写入方，{2} 个区间，{3} 次竞争落败（其中 {4} 次画出了赢家），{5} 个快照{6}", out,
                  t->lanes.size(), t->spans_total, t->lost_races, t->arrows.size(), t->chain.size(),
                  !t->aggregated ? std::string()
                  : options.language == sim::Language::kChinese
                      ? fmt::format("，按区间汇总（每个写入方 {} 格）", t->bins)
                      : fmt::format(", binned ({} bins a lane)", t->bins));
}

}  // namespace commitlab::cli
