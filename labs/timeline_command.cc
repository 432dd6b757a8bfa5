// `commitlab timeline HISTORY -o run.html|run.svg`: the run's timeline (sim/timeline.h) as one
// self-contained HTML page or an SVG picture.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "cli.h"
#include "commitlab/sim/timeline.h"
#include "history_file.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kCommand = "timeline";

// Writes `text` to `path` through a temporary file renamed into place: a failed write leaves no
// half-written picture behind.
Status WriteWhole(const std::string& path, const std::string& text) {
  const std::string tmp = fmt::format("{}.tmp-{}", path, ::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::InvalidArgument(fmt::format("-o: cannot write {}: {}", path, std::strerror(errno)));
    out << text;
    out.flush();
    if (!out) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      return Status::IOError(fmt::format("-o: writing {} failed", path));
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    return Status::IOError(fmt::format("-o: cannot write {}: {}", path, ec.message()));
  }
  return Status::OK();
}

}  // namespace

int RunTimeline(const std::vector<std::string>& args) {
  po::options_description options("commitlab timeline HISTORY_FILE -o OUT.html|OUT.svg [options]");
  std::string path;
  std::string out;
  std::string axis = "auto";
  options.add_options()
      ("help,h", "show this help")
      ("history", po::value(&path), "a history written with --trace")
      ("output,o", po::value(&out), "the file to write: .html (an interactive page) or .svg (a picture)")
      ("axis", po::value(&axis), "auto, time or step: the x axis (auto: virtual time when the run took any)");
  po::positional_options_description positional;
  positional.add("history", 1);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n\nOne lane per writer: its reads, writes and publishes (green won, red lost, with an arrow\n"
               "from the publish that took its snapshot), retry waits hatched, refusals and faults as marks,\n"
               "and the published snapshots along the bottom. The page needs no network.\n",
               fmt::streamed(options));
    return kExitOk;
  }
  if (path.empty()) return UsageError(kCommand, "missing the history file to draw");
  if (out.empty()) return UsageError(kCommand, "missing -o OUT.html or -o OUT.svg");
  const std::string ext = std::filesystem::path(out).extension().string();
  if (ext != ".html" && ext != ".svg")
    return UsageError(kCommand, fmt::format("-o {}: expected a file ending in .html or .svg", out));
  sim::TimelineAxis a = sim::TimelineAxis::kAuto;
  if (axis == "time") {
    a = sim::TimelineAxis::kTime;
  } else if (axis == "step") {
    a = sim::TimelineAxis::kStep;
  } else if (axis != "auto") {
    return UsageError(kCommand, fmt::format("--axis '{}' is not one of auto, time, step", axis));
  }
  Result<std::vector<sim::Json>> lines = ReadHistoryFile(path);
  if (!lines.ok()) return UsageError(kCommand, lines.status().message());
  Result<sim::Timeline> t = sim::BuildTimeline(*lines, a);
  if (!t.ok()) return UsageError(kCommand, HistoryWhere(path, t.status().message()));
  if (Status st = WriteWhole(out, ext == ".svg" ? sim::TimelineSvg(*t) : sim::TimelineHtml(*t)); !st.ok())
    return UsageError(kCommand, st.message());
  for (const std::string& w : t->warnings) fmt::print(stderr, "commitlab timeline: warning: {}: {}\n", path, w);
  fmt::print("{}: {} writer(s), {} span(s), {} lost race(s) ({} with the winner drawn), {} snapshot(s)\n", out,
             t->lanes.size(), t->spans.size(), t->lost_races, t->arrows.size(), t->chain.size());
  return kExitOk;
}

}  // namespace commitlab::cli
