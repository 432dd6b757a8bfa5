// `commitlab replay HISTORY`: runs again, in this process, exactly what a history recorded (the
// scenario text in its header, with the recorded settings), and compares the two histories event
// by event as JSON values. A simulated run must come back identical; at the first difference it
// prints the recorded and the replayed event, who and where, with the events just before.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <optional>

#include "commands/cli.h"
#include "commitlab/core/file_read.h"
#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/replay.h"
#include "commitlab/sim/history_diff.h"
#include "output/history_file.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kCommand = "replay";
constexpr size_t kContext = 3;

// "scenarios/x.scn changed since the recording": the file on disk is not the text that ran.
void WarnIfChanged(const sim::Json& scenario, bool using_file) {
  const std::string file = scenario["file"].get<std::string>();
  Result<std::string> read = ReadRegularFile(file, scenarios::kMaxFileBytes);
  if (!read.ok()) return;
  const std::string& text = *read;
  const std::string now = sim::Sha256Hex(text);
  // A run with --ignore-order recorded the text without its order lines.
  auto unordered = [&] {
    Result<scenarios::Scenario> s = scenarios::ParseScenario(text, file);
    if (s.ok()) s = scenarios::WithoutOrderLines(*s);
    return s.ok() && sim::Sha256Hex(s->text) == scenario.value("sha256", "");
  };
  if (now != scenario.value("sha256", "") && !unordered()) {
    fmt::print("warning: {} has changed since the recording (sha256 {}… now {}…); replaying {}\n", file,
               scenario.value("sha256", "").substr(0, 12), now.substr(0, 12),
               using_file ? "the file as it is now" : "the recorded text");
  }
}

// `before`: the recorded lines just before the difference, oldest first.
void PrintDifference(const std::vector<sim::Json>& before, const sim::HistoryDifference& d, const std::string& path) {
  fmt::print("replay differs from {} at event {} (line {}):\n", path, d.index + 1, d.index + 2);
  for (const sim::Json& line : before) fmt::print("  same:     {}\n", sim::DescribeHistoryLine(line));
  fmt::print("  recorded: {}\n", d.recorded ? sim::DescribeHistoryLine(*d.recorded) : "<end of history>");
  fmt::print("  replayed: {}\n", d.replayed ? sim::DescribeHistoryLine(*d.replayed) : "<end of history>");
  if (d.recorded && d.replayed) fmt::print("  changed:  {}\n", sim::DescribeChangedMembers(*d.recorded, *d.replayed));
}

// A history recorded on OS threads: read whole (its run was bounded by the wall clock), replayed
// in the simulator with its reads and publishes as constraints.
int ReplayThreads(const std::string& path, const scenarios::ReplayOptions& replay) {
  Result<std::vector<sim::Json>> lines = ReadHistoryFile(path);
  if (!lines.ok()) return UsageError(kCommand, lines.status().message());
  Result<scenarios::ReplayOutcome> r = scenarios::ReplayHistory(*lines, replay);
  if (!r.ok()) return UsageError(kCommand, HistoryWhere(path, r.status().message()));
  if (!r->threads_problem.empty()) {
    fmt::print("replay of the OS-thread run {} did not reproduce it: {}\n", path, r->threads_problem);
    return kExitFailed;
  }
  fmt::print("replay reproduced the OS-thread run in the simulator: the same reads, publishes and outcome as `{}`\n",
             r->command);
  return kExitOk;
}

}  // namespace

int RunReplay(const std::vector<std::string>& args) {
  po::options_description options("commitlab replay HISTORY_FILE [options]");
  std::string path;
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("history", po::value(&path), "a history written with --trace")
      ("use-file", "run the scenario file as it is now instead of the recorded text, to see where an edit changes "
                   "the run");
  // clang-format on
  po::positional_options_description positional;
  positional.add("history", 1);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print(
        "{}\n\nRuns the recorded scenario text again with the recorded settings, in this process, and\n"
        "compares the two histories event by event. A history recorded on OS threads (--sched free)\n"
        "is replayed in the simulator with its recorded reads and publishes as order constraints,\n"
        "and its outcome compared.\n",
        fmt::streamed(options));
    return kExitOk;
  }
  if (path.empty()) return UsageError(kCommand, "missing the history file to replay");
  // The history is read a line at a time: the header now, each event as the run reaches it.
  Result<std::unique_ptr<HistoryFileLines>> file = HistoryFileLines::Open(path);
  if (!file.ok()) return UsageError(kCommand, file.status().message());
  std::string first;
  Result<bool> has_header = (*file)->Next(&first);
  if (!has_header.ok()) return UsageError(kCommand, HistoryWhere(path, has_header.status().message()));
  if (!*has_header) return UsageError(kCommand, fmt::format("{}: empty file, not a history", path));
  Result<sim::Json> header = sim::ParseHistoryLine(first, 1);
  if (!header.ok()) return UsageError(kCommand, HistoryWhere(path, header.status().message()));
  if (Status st = scenarios::CheckHistoryHeader(*header); !st.ok())
    return UsageError(kCommand, HistoryWhere(path, st.message()));
  const sim::Json& recorded_scenario = (*header)["scenario"];
  scenarios::ReplayOptions replay;
  if (vm.count("use-file")) {
    const std::string file_name = recorded_scenario["file"].get<std::string>();
    Result<std::string> text = ReadRegularFile(file_name, scenarios::kMaxFileBytes);
    if (!text.ok()) {
      return UsageError(kCommand, fmt::format("--use-file: cannot read {}", text.status().code() == Code::kNotFound
                                                                                ? file_name + ": no such file"
                                                                                : text.status().message()));
    }
    replay.scenario_text = std::move(*text);
  }
  WarnIfChanged(recorded_scenario, vm.count("use-file") > 0);
  // CheckHistoryHeader made sure "plan" is an object; "sched" may still be anything.
  const sim::Json& plan = (*header)["plan"];
  const auto sched = plan.find("sched");
  if (sched != plan.end() && sched->is_string() && *sched == "free") return ReplayThreads(path, replay);
  Result<scenarios::StreamedReplay> r = scenarios::ReplayHistoryStreamed(*header, file->get(), replay, kContext);
  if (!r.ok()) return UsageError(kCommand, HistoryWhere(path, r.status().message()));
  if (r->difference) {
    PrintDifference(r->before, *r->difference, path);
    return kExitFailed;
  }
  fmt::print("replay identical: {} events of `{}`\n", r->events, r->command);
  return kExitOk;
}

}  // namespace commitlab::cli
