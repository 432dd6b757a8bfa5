// `commitlab timeline HISTORY -o run.html|run.svg`: the run's timeline (sim/timeline.h) as one
// self-contained HTML page or an SVG picture.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include "commands/cli.h"
#include "commitlab/sim/timeline.h"
#include "output/timeline_output.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kCommand = "timeline";

}  // namespace

int RunTimeline(const std::vector<std::string>& args) {
  po::options_description options("commitlab timeline HISTORY_FILE -o OUT.html|OUT.svg [options]");
  std::string path;
  std::string out;
  std::string axis = "auto";
  std::string lang = "en";
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("history", po::value(&path), "a history written with --trace")
      ("output,o", po::value(&out), "the file to write: .html (an interactive page) or .svg (a picture)")
      ("axis", po::value(&axis), "auto, time or step: the x axis (auto: virtual time when the run took any)")
      ("lang", po::value(&lang), "en or zh: the language of the page's own words (log lines stay in the engines' English)");
  // clang-format on
  po::positional_options_description positional;
  positional.add("history", 1);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print(
        "{}\n\nOne lane per writer, grouped by table: its reads, writes and publishes (green won, red lost,\n"
        "with an arrow from the publish that took its snapshot), retry waits hatched, refusals and faults\n"
        "as marks linked to the snapshot that caused them, and each table's snapshots under its lanes.\n"
        "The page steps through the run (slider, <- ->) showing each table's latest snapshot and live\n"
        "files and each writer's phase; past 3,000 spans in a lane the lanes are drawn binned. The page\n"
        "needs no network.\n",
        fmt::streamed(options));
    return kExitOk;
  }
  if (path.empty()) return UsageError(kCommand, "missing the history file to draw");
  if (out.empty()) return UsageError(kCommand, "missing -o OUT.html or -o OUT.svg");
  if (!TimelineExtensionOk(out))
    return UsageError(kCommand, fmt::format("-o {}: expected a file ending in .html or .svg", out));
  sim::TimelineAxis a = sim::TimelineAxis::kAuto;
  if (axis == "time") {
    a = sim::TimelineAxis::kTime;
  } else if (axis == "step") {
    a = sim::TimelineAxis::kStep;
  } else if (axis != "auto") {
    return UsageError(kCommand, fmt::format("--axis '{}' is not one of auto, time, step", axis));
  }
  if (lang != "en" && lang != "zh") return UsageError(kCommand, fmt::format("--lang '{}' is not one of en, zh", lang));
  Result<std::string> summary = DrawTimeline(
      kCommand, path, out,
      sim::TimelineOptions{.axis = a, .language = lang == "zh" ? sim::Language::kChinese : sim::Language::kEnglish});
  if (!summary.ok()) {
    const Status& st = summary.status();
    return UsageError(kCommand, st.code() == Code::kInvalidArgument ? st.message() : "-o: " + st.message());
  }
  fmt::print("{}\n", *summary);
  return kExitOk;
}

}  // namespace commitlab::cli
