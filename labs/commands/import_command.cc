// `commitlab import PATH`: a real table's commit log (Delta, Iceberg or Paimon) as a commitlab
// history that timeline, explain and check read, what the log itself shows wrong, and with
// --scenario the last K commits as a scenario file that run, step and explore take
// (sim/import/import.h, docs/import.md).
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <memory>

#include "commands/cli.h"
#include "commitlab/sim/import/import.h"
#include "commitlab/sim/import/import_scenario.h"
#include "commitlab/sim/import/import_sinks.h"
#include "output/output_file.h"
#include "version/version.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;
namespace imp = sim::import;

constexpr std::string_view kCommand = "import";
// A scenario of more commits than this would not be explored in any useful time.
constexpr int64_t kMaxScenarioCommits = 1000;

struct Options {
  std::string path;
  std::string format;
  std::string output;
  int64_t scenario = 0;
  std::string scenario_out;
  std::string isolation;
  std::string writers = "job";
};

sim::Json Header(const std::vector<std::string>& args, const Options& o) {
  return {{"commitlab", {{"version", CommitlabVersion()}, {"git", CommitlabGitCommit()}}},
          {"command", "import"},
          {"argv", args},
          {"settings",
           {{"path", o.path},
            {"format", o.format.empty() ? sim::Json("auto") : sim::Json(o.format)},
            {"scenario", o.scenario > 0 ? sim::Json(o.scenario) : sim::Json(nullptr)},
            {"isolation", o.isolation.empty() ? sim::Json(nullptr) : sim::Json(o.isolation)},
            {"writers", o.writers}}}};
}

// Reads the log once into every sink asked for; writes the files only when all of it was read.
int Import(const std::vector<std::string>& args, const Options& o, const imp::ImportOptions& what) {
  imp::Summary summary;
  std::vector<imp::ImportSink*> sinks = {&summary};
  std::unique_ptr<OutputFile> out;
  std::unique_ptr<sim::History> history;
  std::unique_ptr<imp::HistorySink> history_sink;
  if (!o.output.empty()) {
    Result<std::unique_ptr<OutputFile>> f = OutputFile::Create("-o", o.output);
    if (!f.ok()) return UsageError(kCommand, f.status().message());
    out = std::move(*f);
    history = std::make_unique<sim::History>(out->stream());
    history_sink = std::make_unique<imp::HistorySink>(history.get(), Header(args, o));
    sinks.push_back(history_sink.get());
  }
  std::unique_ptr<imp::ScenarioSink> scenario;
  if (o.scenario > 0) {
    scenario =
        std::make_unique<imp::ScenarioSink>(imp::ScenarioOptions{.commits = o.scenario,
                                                                 .isolation = o.isolation,
                                                                 .command = fmt::format("commitlab import {}", o.path),
                                                                 .writer_per_commit = o.writers == "commit"});
    sinks.push_back(scenario.get());
  }
  imp::FanOut fan(sinks);
  if (Status st = imp::ImportLog(what, &fan); !st.ok()) {
    // A log that cannot be read leaves no history and no scenario behind (out's destructor).
    fmt::print(stderr, "commitlab import: {}\n", st.message());
    return kExitUsage;
  }
  if (out) {
    if (Status st = out->Commit(); !st.ok()) return UsageError(kCommand, st.message());
  }
  std::string wrote;
  if (scenario) {
    Result<std::string> text = scenario->Text();
    if (!text.ok()) return UsageError(kCommand, text.status().message());
    if (Status st = WriteOutput("--scenario-out", o.scenario_out, *text); !st.ok())
      return UsageError(kCommand, st.message());
    wrote += fmt::format("scenario: {} ({})\n", o.scenario_out, scenario->Described());
  }
  fmt::print("{}", summary.Text());
  if (out) fmt::print("history: {}\n", o.output);
  fmt::print("{}", wrote);
  return summary.problems() > 0 ? kExitFailed : kExitOk;
}

}  // namespace

int RunImport(const std::vector<std::string>& args) {
  po::options_description options(
      "commitlab import PATH [-o HISTORY.jsonl] [--scenario K --scenario-out FILE.scn] [options]\n\n"
      "Reads a real table's commit log without its data files: a Delta table (_delta_log/*.json), an\n"
      "Iceberg table (metadata/*.metadata.json, or one metadata file) or a Paimon table\n"
      "(snapshot/snapshot-N). Prints what it read and did not, the commits and writers, and what the\n"
      "log itself shows wrong. Exit 0: nothing wrong; 1: a problem found (the files are written);\n"
      "2: the log cannot be read as its format (nothing is written).\n\nOptions");
  Options o;
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("path", po::value(&o.path), "the table (or its log folder, or one Iceberg metadata file)")
      ("format", po::value(&o.format), "delta, iceberg or paimon (default: what PATH holds)")
      ("output,o", po::value(&o.output), "write the commitlab history here (timeline, explain and check read it)")
      ("scenario", po::value(&o.scenario), "write the last K commits as a scenario (needs --scenario-out)")
      ("scenario-out", po::value(&o.scenario_out), "the scenario file to write")
      ("isolation", po::value(&o.isolation),
       "the scenario table's isolation level instead of the log's: Serializable or WriteSerializable (Delta), "
       "serializable or snapshot (Iceberg)")
      ("writers", po::value(&o.writers),
       "job (default): one scenario writer per committing job the log names (Delta app id or engine, Iceberg "
       "job, Paimon user); commit: each commit a writer of its own, to ask what if they had run at once");
  // clang-format on
  po::positional_options_description positional;
  positional.add("path", 1);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  if (o.path.empty()) return UsageError(kCommand, "give the table: commitlab import PATH");
  imp::ImportOptions what{.path = o.path, .format = std::nullopt};
  if (!o.format.empty()) {
    what.format = imp::ParseFormat(o.format);
    if (!what.format)
      return UsageError(kCommand, fmt::format("--format '{}' is not one of delta, iceberg, paimon", o.format));
  }
  if (vm.count("scenario") && (o.scenario < 1 || o.scenario > kMaxScenarioCommits))
    return UsageError(kCommand, fmt::format("--scenario {} is out of range 1..{}", o.scenario, kMaxScenarioCommits));
  if (o.scenario > 0 && o.scenario_out.empty())
    return UsageError(kCommand, "--scenario K needs --scenario-out FILE.scn, the file to write");
  if (o.scenario == 0 && !o.scenario_out.empty()) return UsageError(kCommand, "--scenario-out needs --scenario K");
  if (o.writers != "job" && o.writers != "commit")
    return UsageError(kCommand, fmt::format("--writers '{}' is not one of job, commit", o.writers));
  if (vm.count("writers") && o.scenario == 0)
    return UsageError(kCommand, "--writers shapes the scenario: it needs --scenario K");
  if (!o.isolation.empty() && o.scenario == 0)
    return UsageError(kCommand, "--isolation sets the scenario's table: it needs --scenario K");
  return Import(args, o, what);
}

}  // namespace commitlab::cli
