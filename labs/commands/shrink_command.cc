// `commitlab shrink FILE|HISTORY`: a failing run reduced to the smallest scenario that still shows
// the same invariant violation (scenarios/shrink.h), written as a regression test.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cstdio>
#include <filesystem>

#include "commands/cli.h"
#include "commitlab/core/file_read.h"
#include "commitlab/core/file_write.h"
#include "commitlab/report/replace_files.h"
#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/replay.h"
#include "commitlab/scenarios/shrink.h"
#include "commitlab/sim/fault_spec.h"
#include "output/history_file.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

constexpr std::string_view kCommand = "shrink";

std::string Size(const scenarios::ShrinkSize& s) {
  return fmt::format("{} writer{}, {} step{}, {} fault rule{}, {} line{}", s.writers, s.writers == 1 ? "" : "s",
                     s.steps, s.steps == 1 ? "" : "s", s.faults, s.faults == 1 ? "" : "s", s.lines,
                     s.lines == 1 ? "" : "s");
}

bool IsHistory(const std::string& path) {
  Result<std::string> head = ReadRegularFilePrefix(path, 16);
  return head.ok() && head->starts_with("{\"type\":\"header\"");
}

}  // namespace

int RunShrink(const std::vector<std::string>& args) {
  po::options_description options("commitlab shrink FILE.scn|HISTORY.jsonl [options]");
  std::string path, output, kind;
  uint64_t seed = scenarios::kDefaultSeed;
  std::vector<std::string> fault_specs;
  scenarios::ShrinkOptions shrink;
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("input", po::value(&path), "a scenario file, or a history written with --trace")
      ("seed", po::value(&seed)->default_value(scenarios::kDefaultSeed),
       "the failing run's seed (a scenario file; default: its seed line, else 1)")
      ("fault", po::value(&fault_specs)->composing(), "WRITER:POINT:TRIGGER:EFFECT added to the file's (repeatable)")
      ("kind", po::value(&kind), "the violation to keep (lost, duplicate, lost_update, ...); default: the run's first")
      ("output,o", po::value(&output), "where to write the small scenario (default: INPUT-STEM.min.scn here)")
      ("max-tests", po::value(&shrink.max_tests)->default_value(5'000), "try at most this many candidate files")
      ("quiet,q", "do not list each reduction as it is kept");
  // clang-format on
  po::positional_options_description positional;
  positional.add("input", 1);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print(
        "{}\n\nReduces a failing run while the same invariant violation still occurs: faults pinned to the\n"
        "hits that fired, then fewer writers, fewer repeats, fewer lines. Then the explorer finds the\n"
        "shortest interleaving that shows it and adds order lines when they can force it. Writes the\n"
        "result with `expect invariant-violation KIND`: `commitlab run` passes while the bug is there.\n",
        fmt::streamed(options));
    return kExitOk;
  }
  if (path.empty()) return UsageError(kCommand, "missing the scenario file or history to shrink");
  if (shrink.max_tests < 1) return UsageError(kCommand, "--max-tests must be >= 1");

  scenarios::Scenario scenario;
  scenarios::RunOptions run;
  if (IsHistory(path)) {
    if (vm.count("fault") || !vm["seed"].defaulted())
      return UsageError(kCommand, "a history carries its own seed and faults: drop --seed and --fault");
    Result<std::vector<sim::Json>> lines = ReadHistoryFile(path);
    if (!lines.ok()) return UsageError(kCommand, lines.status().message());
    if (Status st = scenarios::CheckHistoryHeader(lines->front()); !st.ok())
      return UsageError(kCommand, HistoryWhere(path, st.message()));
    Result<scenarios::RunOptions> recorded = scenarios::RecordedRunOptions(lines->front());
    if (!recorded.ok()) return UsageError(kCommand, HistoryWhere(path, recorded.status().message()));
    Result<scenarios::Scenario> s = scenarios::RecordedScenario(lines->front());
    if (!s.ok()) return UsageError(kCommand, s.status().message());
    scenario = std::move(*s);
    run = std::move(*recorded);
    if (run.sched && *run.sched == "free")
      return UsageError(kCommand, "the history ran on OS threads: shrink a simulated run (--sched random)");
    seed = run.seed.value_or(scenarios::kDefaultSeed);
    run.seed.reset();
  } else {
    Result<scenarios::Scenario> s = scenarios::LoadScenarioFile(path);
    if (!s.ok()) return UsageError(kCommand, s.status().message());
    scenario = std::move(*s);
    for (const std::string& spec : fault_specs) {
      Result<sim::FaultRule> rule = sim::ParseFaultRule(spec);
      if (!rule.ok()) return UsageError(kCommand, fmt::format("--fault: {}", rule.status().message()));
      run.faults.push_back(*rule);
    }
  }
  if (output.empty()) output = fs::path(path).stem().string() + ".min.scn";
  std::error_code ec;
  if (fs::equivalent(output, path, ec)) return UsageError(kCommand, "--output would overwrite the input");
  // Before the search, not after it: a device node or a symbolic link there is never replaced.
  if (Status st = CheckReplaceable(output); !st.ok()) return UsageError(kCommand, st.message());

  // The file's `seed` line decides unless --seed is given, as for `commitlab run`.
  if (vm["seed"].defaulted() && scenario.seed && !IsHistory(path)) seed = *scenario.seed;
  shrink.seed = seed;
  shrink.kind = kind;
  if (!vm.count("quiet")) shrink.progress = [](const std::string& what) { WriteText(stdout, "  " + what + "\n"); };
  fmt::print("shrink {} (seed {}): keeping the violation while the run gets smaller\n", path, seed);
  std::fflush(stdout);
  Result<scenarios::ShrinkResult> r = scenarios::Shrink(scenario, run, shrink);
  if (!r.ok()) return UsageError(kCommand, r.status().message());

  fmt::print("\nviolation kept: {}\n  {}\n", r->kind, r->detail);
  fmt::print("before: {}\nafter:  {}  ({} candidate files run)\n", Size(r->before), Size(r->after), r->tests);
  if (!r->schedule.empty()) fmt::print("shortest interleaving that shows it: {}\n", r->schedule);
  if (!r->order_lines.empty()) {
    fmt::print("order lines added, from that interleaving:\n");
    for (const std::string& l : r->order_lines) fmt::print("  {}\n", l);
  } else if (!r->order_note.empty()) {
    fmt::print("order lines: {}\n", r->order_note);
  }
  fmt::print("the small file shows it on {} of seeds 1..{}{}\n", r->failing_seeds, r->checked_seeds,
             r->pinned_seed ? ": it carries a seed line that does" : "");
  const report::FileText file{output, r->text};
  if (Status st = report::ReplaceFiles({&file, 1}); !st.ok()) return UsageError(kCommand, st.message());
  if (r->tests >= shrink.max_tests)
    fmt::print("stopped after --max-tests {}: the file may shrink further with more\n", shrink.max_tests);
  if (r->passes) {
    fmt::print("wrote {} (commitlab run {} passes while the violation happens)\n", output, output);
  } else {
    fmt::print(
        "wrote {}; note: commitlab run {} does not pass as written (its run differs on the seed it "
        "would use)\n",
        output, output);
  }
  return kExitOk;
}

}  // namespace commitlab::cli
