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

// The command's flags, as parsed.
struct ShrinkFlags {
  std::string path, output, kind;
  uint64_t seed = scenarios::kDefaultSeed;
  std::vector<std::string> fault_specs;
  scenarios::ShrinkOptions shrink;
};

void AddShrinkOptions(po::options_description* options, ShrinkFlags* f) {
  // clang-format off
  options->add_options()
      ("help,h", "show this help")
      ("input", po::value(&f->path), "a scenario file, or a history written with --trace")
      ("seed", po::value(&f->seed)->default_value(scenarios::kDefaultSeed),
       "the failing run's seed (a scenario file; default: its seed line, else 1)")
      ("fault", po::value(&f->fault_specs)->composing(), "WRITER:POINT:TRIGGER:EFFECT added to the file's (repeatable)")
      ("kind", po::value(&f->kind), "the violation to keep (lost, duplicate, lost_update, ...); default: the run's first")
      ("output,o", po::value(&f->output), "where to write the small scenario (default: INPUT-STEM.min.scn here)")
      ("max-tests", po::value(&f->shrink.max_tests)->default_value(5'000), "try at most this many candidate files")
      ("quiet,q", "do not list each reduction as it is kept");
  // clang-format on
}

// A history carries the scenario, its seed and its faults; the seed becomes the one to shrink.
Status LoadHistory(const po::variables_map& vm, ShrinkFlags* f, scenarios::Scenario* scenario,
                   scenarios::RunOptions* run) {
  const std::string& path = f->path;
  if (vm.count("fault") || !vm["seed"].defaulted())
    return Status::InvalidArgument("a history carries its own seed and faults: drop --seed and --fault");
  COMMITLAB_ASSIGN_OR_RETURN(std::vector<sim::Json> lines, ReadHistoryFile(path));
  if (Status st = scenarios::CheckHistoryHeader(lines.front()); !st.ok())
    return Status::InvalidArgument(HistoryWhere(path, st.message()));
  Result<scenarios::RunOptions> recorded = scenarios::RecordedRunOptions(lines.front());
  if (!recorded.ok()) return Status::InvalidArgument(HistoryWhere(path, recorded.status().message()));
  COMMITLAB_ASSIGN_OR_RETURN(scenarios::Scenario s, scenarios::RecordedScenario(lines.front()));
  *scenario = std::move(s);
  *run = std::move(*recorded);
  if (run->sched && *run->sched == "free")
    return Status::InvalidArgument("the history ran on OS threads: shrink a simulated run (--sched random)");
  f->seed = run->seed.value_or(scenarios::kDefaultSeed);
  run->seed.reset();
  return Status::OK();
}

// A scenario file, and the --fault rules added to its own.
Status LoadScenario(const ShrinkFlags& f, scenarios::Scenario* scenario, scenarios::RunOptions* run) {
  COMMITLAB_ASSIGN_OR_RETURN(scenarios::Scenario s, scenarios::LoadScenarioFile(f.path));
  *scenario = std::move(s);
  for (const std::string& spec : f.fault_specs) {
    Result<sim::FaultRule> rule = sim::ParseFaultRule(spec);
    if (!rule.ok()) return Status::InvalidArgument(fmt::format("--fault: {}", rule.status().message()));
    run->faults.push_back(*rule);
  }
  return Status::OK();
}

// The output file: by default beside us, named after the input; never the input itself, and
// checked before the search, not after it: a device node or a symbolic link there is never replaced.
Status PlaceOutput(ShrinkFlags* f) {
  if (f->output.empty()) f->output = fs::path(f->path).stem().string() + ".min.scn";
  std::error_code ec;
  if (fs::equivalent(f->output, f->path, ec)) return Status::InvalidArgument("--output would overwrite the input");
  return CheckReplaceable(f->output);
}

// What the search kept, the small file's sizes and how often it shows the violation.
void PrintShrinkResult(const scenarios::ShrinkResult& r) {
  fmt::print("\nviolation kept: {}\n  {}\n", r.kind, r.detail);
  fmt::print("before: {}\nafter:  {}  ({} candidate files run)\n", Size(r.before), Size(r.after), r.tests);
  if (!r.schedule.empty()) fmt::print("shortest interleaving that shows it: {}\n", r.schedule);
  if (!r.order_lines.empty()) {
    fmt::print("order lines added, from that interleaving:\n");
    for (const std::string& l : r.order_lines) fmt::print("  {}\n", l);
  } else if (!r.order_note.empty()) {
    fmt::print("order lines: {}\n", r.order_note);
  }
  fmt::print("the small file shows it on {} of seeds 1..{}{}\n", r.failing_seeds, r.checked_seeds,
             r.pinned_seed ? ": it carries a seed line that does" : "");
}

}  // namespace

int RunShrink(const std::vector<std::string>& args) {
  po::options_description options("commitlab shrink FILE.scn|HISTORY.jsonl [options]");
  ShrinkFlags f;
  AddShrinkOptions(&options, &f);
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
  if (f.path.empty()) return UsageError(kCommand, "missing the scenario file or history to shrink");
  if (f.shrink.max_tests < 1) return UsageError(kCommand, "--max-tests must be >= 1");

  scenarios::Scenario scenario;
  scenarios::RunOptions run;
  const bool history = IsHistory(f.path);
  if (Status st = history ? LoadHistory(vm, &f, &scenario, &run) : LoadScenario(f, &scenario, &run); !st.ok())
    return UsageError(kCommand, st.message());
  if (Status st = PlaceOutput(&f); !st.ok()) return UsageError(kCommand, st.message());

  // The file's `seed` line decides unless --seed is given, as for `commitlab run`.
  if (vm["seed"].defaulted() && scenario.seed && !history) f.seed = *scenario.seed;
  scenarios::ShrinkOptions& shrink = f.shrink;
  shrink.seed = f.seed;
  shrink.kind = f.kind;
  if (!vm.count("quiet")) shrink.progress = [](const std::string& what) { WriteText(stdout, "  " + what + "\n"); };
  fmt::print("shrink {} (seed {}): keeping the violation while the run gets smaller\n", f.path, f.seed);
  std::fflush(stdout);
  Result<scenarios::ShrinkResult> r = scenarios::Shrink(scenario, run, shrink);
  if (!r.ok()) return UsageError(kCommand, r.status().message());

  PrintShrinkResult(*r);
  const report::FileText file{f.output, r->text};
  if (Status st = report::ReplaceFiles({&file, 1}); !st.ok()) return UsageError(kCommand, st.message());
  if (r->tests >= shrink.max_tests)
    fmt::print("stopped after --max-tests {}: the file may shrink further with more\n", shrink.max_tests);
  if (r->passes) {
    fmt::print("wrote {} (commitlab run {} passes while the violation happens)\n", f.output, f.output);
  } else {
    fmt::print(
        "wrote {}; note: commitlab run {} does not pass as written (its run differs on the seed it "
        "would use)\n",
        f.output, f.output);
  }
  return kExitOk;
}

}  // namespace commitlab::cli
