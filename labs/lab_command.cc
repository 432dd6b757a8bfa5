// `commitlab lab paimon`: the lecture's experiments (S2-5, Paimon's concurrent commits), narrated.
// Each scenario is a file under scenarios/; the lab runs it and tells it the way the lecture does:
// the writers' log lines, the table's snapshots as they appear, a refusal's first lines, and the
// summary lines, then a verdict per scenario. The race runs on OS threads (like the lecture's Java
// run; --sched random --seed N reproduces one); the scripted scenarios are ordered by their order
// lines and print the same thing every run.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli.h"
#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/runner.h"
#include "lecture.h"
#include "log_printer.h"
#include "protocol_labs.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;
using scenarios::RunReport;

constexpr std::string_view kCommand = "lab";

struct LabFile {
  std::string file;   // under scenarios/
  std::string intro;  // what the lecture showed, or asked
};

struct LabScenario {
  std::string key;  // --scenario
  int number;       // the numbering: 1 race, 2 conflict, 3 lsm, 4 idempotent, 5 unknown
  std::vector<LabFile> files;
};

const std::vector<LabScenario>& PaimonScenarios() {
  static const std::vector<LabScenario> kScenarios = {
      {"race", 1,
       {{"paimon_race.scn",
         "Two jobs append 30 commits each and race for snapshot ids. The lecture lost 25, 18 and 11 races in\n"
         "three runs, and every time all 60 commits landed: {job-A=30, job-B=30}."}}},
      {"conflict", 2,
       {{"paimon_conflict.scn",
         "Two compaction jobs compact the same three L0 files from snapshot 3. compact-job-1 commits first;\n"
         "compact-job-2's files are gone: a real conflict, refused and never retried."}}},
      {"lsm", 3,
       {{"paimon_lsm.scn",
         "The lecture's self-test: job-1 compacts L0 files 0 and 1, job-2 file 2, both into L5. No file is\n"
         "deleted twice, but the two L5 outputs' key ranges overlap (the lecture derived this, unrun)."},
        {"paimon_lsm_disjoint.scn",
         "The same two compactions over files with disjoint key ranges: the L5 outputs do not overlap."}}},
      {"idempotent", 4,
       {{"paimon_idempotent.scn",
         "A restarted job commits its checkpoint again: commit user + identifier filter it out; another\n"
         "job's identifier 5 is its own business."}}},
      {"unknown", 5,
       {{"paimon_unknown.scn",
         "The publish lands but the job is told it failed. Its next attempt first looks for its own\n"
         "snapshot (the idempotency check), finds it, and counts the commit as done."},
        {"paimon_unknown_no_check.scn",
         "The same with the idempotency check switched off: the retry commits the same data twice, and the\n"
         "invariant checker says so."}}},
  };
  return kScenarios;
}

// scenarios/ under the current directory, else under the binary's folder or one of its parents
// (build/commitlab -> ../scenarios, build/asan/commitlab -> ../../scenarios). Messages always say
// scenarios/NAME.scn, never where the machine keeps it.
Result<fs::path> FindScenarioDir() {
  const std::string probe = PaimonScenarios().front().files.front().file;
  if (fs::is_regular_file(fs::path("scenarios") / probe)) return fs::path("scenarios");
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (fs::path dir = exe.parent_path(); !dir.empty(); dir = dir.parent_path()) {
      if (fs::is_regular_file(dir / "scenarios" / probe)) return dir / "scenarios";
      if (dir == dir.parent_path()) break;
    }
  }
  return Status::NotFound(fmt::format(
      "cannot find the scenario files (scenarios/{}): looked in scenarios/ under the current directory and above "
      "the commitlab binary; run it from the project directory",
      probe));
}

Result<scenarios::Scenario> LoadScenario(const fs::path& dir, const std::string& file) {
  const std::string shown = "scenarios/" + file;
  std::ifstream in(dir / file, std::ios::binary);
  if (!in) return Status::InvalidArgument(fmt::format("cannot open scenario file {}", shown));
  std::ostringstream text;
  text << in.rdbuf();
  return scenarios::ParseScenario(text.str(), shown);
}

std::vector<std::string> Lines(std::string_view text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos <= text.size()) {
    const size_t nl = text.find('\n', pos);
    out.emplace_back(text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return out;
}

// A refusal as the lecture quotes it: the headline paragraph, then from "Base commit user is" on
// (the base entries, the changes, the cause), without Paimon's "Don't panic!" advice in between.
void PrintRefusal(std::string_view message) {
  const std::vector<std::string> lines = Lines(message);
  size_t i = 0;
  for (; i < lines.size() && !lines[i].empty(); ++i) fmt::print("         | {}\n", lines[i]);
  bool from_base = false;
  for (; i < lines.size(); ++i) {
    if (lines[i].starts_with("Base commit user is:")) {
      fmt::print("         | ...\n");
      from_base = true;
    }
    if (from_base && !lines[i].empty()) fmt::print("         | {}\n", lines[i]);
  }
}

// Narrates a scripted scenario: what each step did, each snapshot as it lands, a refusal.
class Narrator : public scenarios::RunObserver {
 public:
  void OnSnapshot(const scenarios::Table&, const Snapshot& s) override {
    fmt::print("           {}\n", scenarios::SnapshotLine(s));
  }
  void OnStep(const scenarios::Writer& writer, const scenarios::Step& step,
              const scenarios::StepResult& result) override {
    // A commit speaks through its log lines and snapshots; the other steps are told here.
    if (!std::holds_alternative<scenarios::CommitOp>(step.op))
      fmt::print("         [{}] {}\n", writer.name, result.detail);
    if (result.status == scenarios::StepStatus::kFailed) {
      fmt::print("         [{}] {}:\n", writer.name, scenarios::OutcomeName(result.outcome));
      PrintRefusal(result.error);
    }
  }
};

void PrintSummary(const RunReport& r) {
  std::string per_writer, failed;
  int failed_jobs = 0;
  for (const scenarios::WriterReport& w : r.writers) {
    per_writer += fmt::format("{}{} {}", per_writer.empty() ? "" : ", ", w.name, w.counters.atomic_failures);
    if (w.outcome == scenarios::Outcome::kOk) continue;
    ++failed_jobs;
    failed += fmt::format("{}{} {}", failed.empty() ? " (" : ", ", w.name, scenarios::OutcomeName(w.outcome));
  }
  fmt::print("\natomic commit failures: {} ({})\n", r.tally.atomic_failures, per_writer);
  fmt::print("conflicts: {}; unknown outcomes: {}; idempotent matches: {}\n", r.tally.conflicts,
             r.tally.unknown_outcomes, r.tally.idempotent_matches);
  fmt::print("failed jobs: {}{}\n", failed_jobs, failed.empty() ? "" : failed + ")");
  fmt::print("latest snapshot id: {}\n", r.latest_snapshot());
  fmt::print("snapshots per commit user: {}\n", scenarios::PerUserLine(r));
  for (const std::string& line : scenarios::InvariantLines(r)) fmt::print("{}\n", line);
  for (const std::string& e : r.run_errors) fmt::print("ERROR {}\n", e);
  for (const scenarios::ExpectationResult& e : r.expectations)
    if (!e.passed) fmt::print("{}\n", scenarios::ExpectationLine(e));
  fmt::print("expectations: {} of {} held ({})\n", r.expectations_passed(), r.expectations.size(), r.scenario);
}

// "PASS  scenarios/x.scn  latest snapshot 6 {..}; compact-job-2 refused: File deletion ..."
std::string Verdict(const LabScenario& lab, const RunReport& r) {
  std::string what = fmt::format("latest snapshot {} {}", r.latest_snapshot(), scenarios::PerUserLine(r));
  if (r.tally.atomic_failures > 0) what += fmt::format(", {} atomic failures", r.tally.atomic_failures);
  for (const scenarios::WriterReport& w : r.writers) {
    if (w.outcome == scenarios::Outcome::kOk) continue;
    what += fmt::format("; {} {}: {}", w.name, scenarios::OutcomeName(w.outcome), Lines(w.error).front());
  }
  std::string found;
  for (const scenarios::ViolationReport& v : r.violations)
    found += fmt::format("{}{}{}", found.empty() ? "" : ", ", v.violation.kind, v.expected ? " (expected)" : "");
  if (!found.empty()) what += "; the checker found " + found;
  return fmt::format("{}. {:<10} {}  {}: {}", lab.number, lab.key, r.ok() ? "PASS" : "FAIL", r.scenario, what);
}

struct LabFlags {
  std::string sched;  // "" : the lab's default
  std::optional<uint64_t> seed;
  bool verbose = false;
};

// Runs one file; returns its verdict line, or an input error.
Result<std::string> RunOne(const LabScenario& lab, const fs::path& dir, const LabFile& file, const LabFlags& flags,
                           bool* ok) {
  Result<scenarios::Scenario> scenario = LoadScenario(dir, file.file);
  if (!scenario.ok()) return scenario.status();
  const bool race = lab.key == "race";
  scenarios::RunOptions options;
  options.seed = flags.seed;
  if (!flags.sched.empty()) {
    options.sched = flags.sched;
  } else if (race) {
    options.sched = "free";  // as the lecture ran it
  }
  if (race) {
    Result<sim::LatencyModel> latency = sim::ParseLatencyModel(kLectureLatency);
    if (!latency.ok()) return latency.status();
    options.latency = *latency;
  }
  Result<scenarios::RunPlan> plan = scenarios::PlanRun(*scenario, options);
  if (!plan.ok()) return plan.status();

  fmt::print("\n== {}. {} ==\n{}\n", lab.number, scenario->title, file.intro);
  fmt::print("({}: {}{})\n\n", scenario->file_name,
             plan->free ? "OS threads and the real clock, as the lecture ran it"
                        : fmt::format("simulated, seed={} sched={}", plan->seed, plan->strategy),
             race ? ", lecture latency" : "");
  LogPrinter printer(stdout, flags.verbose);
  Narrator narrator;
  options.events = &printer;
  if (!race) options.observer = &narrator;
  Result<RunReport> report = scenarios::RunScenario(*scenario, options);
  if (!report.ok()) return report.status();
  PrintSummary(*report);
  *ok = *ok && report->ok();
  return Verdict(lab, *report);
}

}  // namespace

int RunLab(const std::vector<std::string>& args) {
  // The Iceberg and Delta labs have their own files and options.
  if (!args.empty() && args[0] == "iceberg") return RunIcebergLab(args);
  if (!args.empty() && args[0] == "delta") return RunDeltaLab(args);
  po::options_description options("commitlab lab paimon [options]");
  std::string lab, only;
  LabFlags flags;
  uint64_t seed = 0;
  options.add_options()
      ("help,h", "show this help")
      ("lab", po::value(&lab), "the lab: paimon (iceberg and delta have their own options)")
      ("scenario", po::value(&only), "race | conflict | lsm | idempotent | unknown (default: all five)")
      ("sched", po::value(&flags.sched),
       "free | random | pct | round-robin (default: free for the race, the simulator for the others)")
      ("seed", po::value(&seed), "seed of a simulated run (default: the scenario file's)")
      ("verbose", "also print attempts and retry waits");
  po::positional_options_description positional;
  positional.add("lab", 1);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  if (lab.empty()) return UsageError(kCommand, "missing the lab to run (expected one of paimon, iceberg, delta)");
  if (lab != "paimon")
    return UsageError(kCommand, fmt::format("unknown lab '{}' (expected one of paimon, iceberg, delta)", lab));
  if (vm.count("seed")) flags.seed = seed;
  flags.verbose = vm.count("verbose") > 0;
  std::vector<const LabScenario*> chosen;
  std::string keys;
  for (const LabScenario& s : PaimonScenarios()) {
    keys += (keys.empty() ? "" : ", ") + s.key;
    if (only.empty() || only == s.key) chosen.push_back(&s);
  }
  if (chosen.empty()) return UsageError(kCommand, fmt::format("--scenario '{}' is not one of {}", only, keys));
  Result<fs::path> dir = FindScenarioDir();
  if (!dir.ok()) return UsageError(kCommand, dir.status().message());

  fmt::print("Paimon lab (lecture S2-5): concurrent commits, optimistic locking, conflict detection, retries\n");
  bool ok = true;
  std::vector<std::string> verdicts;
  for (const LabScenario* s : chosen) {
    for (const LabFile& file : s->files) {
      Result<std::string> verdict = RunOne(*s, *dir, file, flags, &ok);
      if (!verdict.ok()) {
        fmt::print(stderr, "commitlab lab: {}\n", verdict.status().message());
        return kExitUsage;
      }
      verdicts.push_back(std::move(*verdict));
    }
  }
  fmt::print("\n== Verdicts ==\n");
  for (const std::string& v : verdicts) fmt::print("{}\n", v);
  return ok ? kExitOk : kExitFailed;
}

}  // namespace commitlab::cli
