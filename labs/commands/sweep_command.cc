// `commitlab sweep`: benchmark retry policies in virtual time. Brooker's 2015 experiment (N writers,
// one commit each), the same against a store of limited capacity, and a table-format sweep (S2 第 5
// 讲's race, scaled) through each format's own commit protocol; TSV, SVG and a markdown summary land
// in results/retry-sweep/. With --advise, a grid of policies at one operating point, ranked.
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "commands/cli.h"
#include "commitlab/report/replace_files.h"
#include "commitlab/report/sweep_advice.h"
#include "commitlab/report/sweep_files.h"
#include "commitlab/report/sweep_summary.h"
#include "commitlab/sim/sweep.h"
#include "commitlab/sim/sweep_advisor.h"
#include "hunt/shard.h"
#include "hunt/sweep_json.h"
#include "output/report_output.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;

// A sweep that could not run (the OS refused its threads: IOError) is exit 2 like any environment
// failure; a simulated run that failed is exit 1.
int SweepFailed(const Status& st) {
  if (st.code() == Code::kIOError) {
    fmt::print(stderr, "commitlab sweep: {}\n", st.message());
    return kExitUsage;
  }
  fmt::print(stderr, "commitlab sweep: a simulated run failed: {}\n", st.message());
  return kExitFailed;
}

constexpr std::string_view kCommand = "sweep";
constexpr int kDefaultFormatsRuns = 20;  // 320 commits per run at 32 appenders: means settle fast

// A one-line bar on stderr, redrawn when the whole percentage changes; silent unless stderr is a
// terminal, so logs and CI output stay clean.
class ProgressBar {
 public:
  explicit ProgressBar(std::string label) : label_(std::move(label)), enabled_(isatty(STDERR_FILENO) == 1) {}

  void Update(int64_t done, int64_t total) {
    if (!enabled_ || total <= 0) return;
    const int64_t percent = done * 100 / total;
    if (percent == last_percent_) return;
    last_percent_ = percent;
    constexpr int kWidth = 40;
    const auto filled = static_cast<size_t>(percent * kWidth / 100);
    fmt::print(stderr, "\r{} [{}{}] {:3}% {}/{} runs", label_, std::string(filled, '#'),
               std::string(kWidth - filled, '.'), percent, done, total);
    if (done == total) fmt::print(stderr, "\n");
    std::fflush(stderr);
  }

 private:
  const std::string label_;
  const bool enabled_;
  int64_t last_percent_ = -1;
};

struct Flags {
  std::string experiment = "all";
  std::optional<int> runs;
  std::string n, appenders, policies, protocols, capacity;
  int writers = 50;
  int queue = sim::StoreCapacity{}.queue;
  int commits = sim::SweepConfig{}.commits;
  uint64_t seed = 1;
  int threads = 0;
  std::string out = "results/retry-sweep";
  bool quick = false;
  bool advise = false;
  bool json = false;
  std::optional<Shard> shard;
};

// Builds one experiment's config from the flags; InvalidArgument names the flag.
Result<sim::SweepConfig> MakeConfig(sim::Experiment e, const Flags& f, const po::variables_map& vm) {
  sim::SweepConfig c = sim::DefaultSweepConfig(e);
  const bool formats = e == sim::Experiment::kFormats;
  const bool capacity = e == sim::Experiment::kCapacity;
  c.seed = f.seed;
  c.threads = f.threads;
  c.commits = f.commits;
  c.queue = f.queue;
  if (f.shard) {
    c.shard_index = f.shard->index;
    c.shard_count = f.shard->count;
  }
  c.runs = f.runs.value_or(f.quick ? (formats ? 3 : 10) : (formats ? kDefaultFormatsRuns : 100));
  if (f.quick) {
    if (e == sim::Experiment::kBrooker) c.writer_counts = {10, 50, 100, 190};
    if (formats) c.writer_counts = {2, 8, 32};
    if (capacity) c.capacities = {500, 2000, 8000};
  }
  if (capacity) c.writer_counts = {f.writers};
  if (!capacity && vm.count(formats ? "appenders" : "n")) {
    const char* list_flag = formats ? "--appenders" : "--n";
    Result<std::vector<int>> ns = sim::ParseIntList(formats ? f.appenders : f.n, 1, formats ? 1000 : 10000);
    if (!ns.ok()) return Status::InvalidArgument(fmt::format("{} {}", list_flag, ns.status().message()));
    c.writer_counts = *ns;
  }
  if (vm.count("policies")) {
    Result<std::vector<RetryPolicy>> ps = sim::ParsePolicyList(f.policies);
    if (!ps.ok()) return Status::InvalidArgument(fmt::format("--policies: {}", ps.status().message()));
    c.policies = *ps;
  }
  if (vm.count("protocols")) {
    Result<std::vector<Protocol>> ps = sim::ParseProtocolList(f.protocols);
    if (!ps.ok()) return Status::InvalidArgument(fmt::format("--protocols {}", ps.status().message()));
    c.protocols = *ps;
  }
  if (vm.count("capacity")) {
    Result<std::vector<int>> cs = sim::ParseIntList(f.capacity, 0, 1'000'000);
    if (!cs.ok()) return Status::InvalidArgument(fmt::format("--capacity {}", cs.status().message()));
    if (!capacity && cs->size() != 1)
      return Status::InvalidArgument(
          fmt::format("--capacity \"{}\": {} takes one capacity (a list is for --experiment capacity)", f.capacity,
                      sim::ExperimentName(e)));
    c.capacities.assign(cs->begin(), cs->end());
  }
  return c;
}

// "2 writer counts x 3 protocols x 7 policies x 20 runs = 840 runs": the axes that vary.
std::string Cells(const sim::SweepConfig& c, size_t total) {
  std::string out = fmt::format("{} writer counts", c.writer_counts.size());
  if (c.experiment == sim::Experiment::kCapacity || c.capacities.size() > 1)
    out += fmt::format(" x {} capacities", c.capacities.size());
  if (c.experiment == sim::Experiment::kFormats) out += fmt::format(" x {} protocols", c.protocols.size());
  return out + fmt::format(" x {} policies x {} runs = {} runs", c.policies.size(), c.runs, total);
}

double Seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

// --advise: the formats workload at one operating point, every policy of the grid, ranked.
int Advise(const Flags& f, const po::variables_map& vm) {
  // The advisor runs one point of the formats workload and writes nothing: flags that choose
  // other points or files would be ignored, so they are refused.
  for (const char* flag : {"appenders", "n", "out", "quick"})
    if (vm.count(flag) && !vm[flag].defaulted())
      return UsageError(kCommand, fmt::format("--{} does not go with --advise (the point is --writers)", flag));
  if (!vm["experiment"].defaulted())
    return UsageError(kCommand, "--experiment does not go with --advise (it runs the formats workload)");
  Result<sim::SweepConfig> c = MakeConfig(sim::Experiment::kFormats, f, vm);
  if (!c.ok()) return UsageError(kCommand, c.status().message());
  c->writer_counts = {f.writers};
  if (!vm.count("protocols")) c->protocols = {sim::LectureProtocol()};
  if (c->protocols.size() != 1)
    return UsageError(kCommand, fmt::format("--advise takes one protocol, not \"{}\"", f.protocols));
  if (!vm.count("policies")) c->policies = sim::AdvisorGrid();
  const size_t total = c->policies.size() * static_cast<size_t>(c->runs);
  fmt::print("advise: {} policies x {} runs = {} runs\n", c->policies.size(), c->runs, total);
  std::fflush(stdout);
  ProgressBar bar("advise");
  c->progress = [&bar](int64_t done, int64_t all) { bar.Update(done, all); };
  sim::TuneAllocatorForSweeps();
  const sim::SweepResult r = sim::RunSweep(*c);
  if (!r.status.ok()) return SweepFailed(r.status);
  fmt::print("\n{}", report::AdviceMarkdown(r, sim::RankForAdvice(r)));
  return kExitOk;
}

// --json and --shard: the rows as one JSON document on stdout; progress on stderr; no files.
int SweepJson(const Flags& f, const po::variables_map& vm) {
  if (vm.count("out") && !vm["out"].defaulted())
    return UsageError(kCommand, "--out does not go with --json or --shard: they print the rows, and write no files");
  sim::Json settings = sim::Json::array();
  sim::Json experiments = sim::Json::array();
  sim::Json cells = sim::Json::array();
  std::vector<sim::SweepConfig> configs;
  for (sim::Experiment e : {sim::Experiment::kBrooker, sim::Experiment::kCapacity, sim::Experiment::kFormats}) {
    if (f.experiment != "all" && f.experiment != sim::ExperimentName(e)) continue;
    Result<sim::SweepConfig> c = MakeConfig(e, f, vm);
    if (!c.ok()) return UsageError(kCommand, c.status().message());
    settings.push_back(SweepConfigJson(*c));
    configs.push_back(std::move(*c));
  }
  sim::TuneAllocatorForSweeps();
  for (sim::SweepConfig& c : configs) {
    ProgressBar bar(std::string(sim::ExperimentName(c.experiment)));
    c.progress = [&bar](int64_t done, int64_t all) { bar.Update(done, all); };
    const sim::SweepResult r = sim::RunSweep(c);
    if (!r.status.ok()) {
      fmt::print(stderr, "commitlab sweep: a simulated run failed: {}\n", r.status.message());
      return kExitFailed;
    }
    experiments.push_back(SweepResultJson(r));
    cells.push_back({{"experiment", sim::ExperimentName(c.experiment)}, {"cells", r.cells}});
  }
  sim::Json doc = Envelope("commitlab-sweep", 1, kCommand, {{"experiments", std::move(settings)}});
  doc["experiments"] = std::move(experiments);
  doc["ok"] = true;
  if (f.shard) doc["shard"] = ShardMember(*f.shard, "sweep", "", nullptr, {{"cells", std::move(cells)}}, nullptr);
  PrintJsonLine(doc);
  return kExitOk;
}

// --json and --shard (a shard's report is JSON, for `commitlab merge`); --advise prints advice.
Status JsonFlags(const po::variables_map& vm, const std::string& shard_text, Flags* f) {
  if (vm.count("shard")) {
    COMMITLAB_ASSIGN_OR_RETURN(Shard shard, ParseShard(shard_text));
    f->shard = shard;
  }
  f->json = vm.count("json") > 0 || f->shard.has_value();
  if (f->advise && f->json)
    return Status::InvalidArgument("--advise prints its advice: --json and --shard do not go with it");
  return Status::OK();
}

void AddSweepOptions(po::options_description* options, Flags* f, int* runs, std::string* shard_text) {
  // clang-format off
  options->add_options()
      ("help,h", "show this help")
      ("experiment", po::value(&f->experiment)->default_value("all"), "brooker | capacity | formats | all")
      ("runs", po::value(runs), "runs per point, 1..100000 (default: 100 brooker and capacity, 20 formats)")
      ("n", po::value(&f->n), "brooker: writer counts, e.g. 10..190:10 (the default) or 10,50,100")
      ("writers", po::value(&f->writers)->default_value(50), "capacity and --advise: the number of writers, 1..10000")
      ("appenders", po::value(&f->appenders), "formats: appender counts (default 2,4,8,16,32; Iceberg without backoff gets slow to simulate beyond)")
      ("commits", po::value(&f->commits)->default_value(sim::SweepConfig{}.commits), "formats: commits per appender, 1..100000")
      ("protocols", po::value(&f->protocols), "formats: commit protocols (default paimon,iceberg,delta)")
      ("capacity", po::value(&f->capacity),
       "store capacity in requests/s up to 1000000, 0 = unlimited: one value for brooker, formats and --advise "
       "(default 0), a list for capacity (default 125,250,500,1000,2000,4000,8000,16000)")
      ("queue", po::value(&f->queue)->default_value(sim::StoreCapacity{}.queue),
       "requests that may wait at a limited store before it answers 503 SlowDown, 0..100000")
      ("policies", po::value(&f->policies),
       "comma-separated retry policies (default none,exponential,equal-jitter,full-jitter,decorrelated,paimon,"
       "iceberg); full specs allowed, e.g. exponential:base=5ms,cap=1s")
      ("seed", po::value(&f->seed)->default_value(1), "base seed; every run's seed derives from it, N, policy and run")
      ("threads", po::value(&f->threads)->default_value(0), "worker threads, 0 = one per core (results do not depend on it)")
      ("out", po::value(&f->out)->default_value("results/retry-sweep"), "output directory")
      ("advise", "run a grid of policies (or --policies) at one point, --writers appenders on one of --protocols "
                 "(default paimon) against --capacity, and print the one with the best p99 commit latency among "
                 "those with no give-ups, and why; writes no files")
      ("json", "print the rows as one JSON document (format commitlab-sweep) instead of writing files")
      ("shard", po::value(shard_text),
       "I/N: run shard I (from 0) of N, the cells dealt round-robin, and print its rows as JSON for "
       "`commitlab merge`")
      ("quick", "a smoke run: brooker N = 10,50,100,190 x 10 runs, capacity 500,2000,8000 x 10 runs, formats "
                "2,8,32 appenders x 3 runs");
  // clang-format on
}

// The counts checked against their ranges, in the order the options list them.
Status ValidateSweep(const po::variables_map& vm, int runs, Flags* f) {
  f->quick = vm.count("quick") > 0;
  f->advise = vm.count("advise") > 0;
  if (vm.count("runs")) {
    if (runs < 1 || runs > 100000)
      return Status::InvalidArgument(fmt::format("--runs {} is out of range 1..100000", runs));
    f->runs = runs;
  }
  if (f->experiment != "brooker" && f->experiment != "capacity" && f->experiment != "formats" && f->experiment != "all")
    return Status::InvalidArgument(
        fmt::format("--experiment '{}' is not one of brooker, capacity, formats, all", f->experiment));
  if (f->writers < 1 || f->writers > 10000)
    return Status::InvalidArgument(fmt::format("--writers {} is out of range 1..10000", f->writers));
  if (f->queue < 0 || f->queue > 100000)
    return Status::InvalidArgument(fmt::format("--queue {} is out of range 0..100000", f->queue));
  if (f->threads < 0 || f->threads > 256)
    return Status::InvalidArgument(fmt::format("--threads {} is out of range 0..256", f->threads));
  if (f->commits < 1 || f->commits > 100000)
    return Status::InvalidArgument(fmt::format("--commits {} is out of range 1..100000", f->commits));
  return Status::OK();
}

// The output directory, made and checked before the sweep, not after it: a bad --out should cost
// nothing.
Status PrepareOut(const std::string& out) {
  if (out.empty()) return Status::InvalidArgument("--out must name a directory");
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec || !std::filesystem::is_directory(out))
    return Status::InvalidArgument(
        fmt::format("--out: cannot create directory {}: {}", out, ec ? ec.message() : "a file is in the way"));
  if (Status st = report::CheckWritableDir(out); !st.ok()) return Status::InvalidArgument("--out: " + st.message());
  return Status::OK();
}

// Each chosen experiment run in turn, with its size first and its wall time after.
int RunExperiments(std::vector<sim::SweepConfig>* configs, std::vector<sim::SweepResult>* results) {
  sim::TuneAllocatorForSweeps();
  for (sim::SweepConfig& c : *configs) {
    const std::string name(sim::ExperimentName(c.experiment));
    const size_t total = c.writer_counts.size() * c.capacities.size() *
                         (c.experiment == sim::Experiment::kFormats ? c.protocols.size() : 1) * c.policies.size() *
                         static_cast<size_t>(c.runs);
    fmt::print("{}: {}\n", name, Cells(c, total));
    std::fflush(stdout);
    ProgressBar bar(name);
    c.progress = [&bar](int64_t done, int64_t all) { bar.Update(done, all); };
    const auto start = std::chrono::steady_clock::now();
    results->push_back(sim::RunSweep(c));
    if (!results->back().status.ok()) return SweepFailed(results->back().status);
    fmt::print("{}: done in {:.2f} s of wall time\n", name, Seconds(std::chrono::steady_clock::now() - start));
  }
  return kExitOk;
}

// The TSV, SVG and markdown files, then the summary and the list of what was written.
int WriteOutputs(const std::string& out, const std::vector<sim::SweepResult>& results) {
  report::SweepResults all;
  for (const sim::SweepResult& r : results) {
    switch (r.config.experiment) {
      case sim::Experiment::kBrooker: all.brooker = &r; break;
      case sim::Experiment::kCapacity: all.capacity = &r; break;
      case sim::Experiment::kFormats: all.formats = &r; break;
    }
  }
  std::vector<std::string> written;
  if (Status st = report::WriteSweepOutputs(out, all, &written); !st.ok()) {
    fmt::print(stderr, "commitlab sweep: {}\n", st.message());
    return kExitUsage;  // like a bad --out; 1 would claim that something the sweep checks failed
  }
  fmt::print("\n{}\nwrote:", report::SweepSummaryMarkdown(all));
  for (const std::string& w : written) fmt::print(" {}", w);
  fmt::print("\n");
  return kExitOk;
}

}  // namespace

int RunSweep(const std::vector<std::string>& args) {
  po::options_description options("commitlab sweep [options]");
  Flags f;
  int runs = 0;
  std::string shard_text;
  AddSweepOptions(&options, &f, &runs, &shard_text);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, nullptr, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  if (Status st = ValidateSweep(vm, runs, &f); !st.ok()) return UsageError(kCommand, st.message());
  if (Status st = JsonFlags(vm, shard_text, &f); !st.ok()) return UsageError(kCommand, st.message());
  if (f.advise) return Advise(f, vm);
  if (f.json) return SweepJson(f, vm);
  if (Status st = PrepareOut(f.out); !st.ok()) return UsageError(kCommand, st.message());

  std::vector<sim::SweepConfig> configs;
  for (sim::Experiment e : {sim::Experiment::kBrooker, sim::Experiment::kCapacity, sim::Experiment::kFormats}) {
    if (f.experiment != "all" && f.experiment != sim::ExperimentName(e)) continue;
    Result<sim::SweepConfig> c = MakeConfig(e, f, vm);
    if (!c.ok()) return UsageError(kCommand, c.status().message());
    configs.push_back(std::move(*c));
  }
  std::vector<sim::SweepResult> results;
  if (int code = RunExperiments(&configs, &results); code != kExitOk) return code;
  return WriteOutputs(f.out, results);
}

}  // namespace commitlab::cli
