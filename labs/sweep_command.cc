// `commitlab sweep`: benchmark retry policies in virtual time. Brooker's 2015 experiment (N writers,
// one commit each) and a table-format sweep (S2 第 5 讲's race, scaled), each run through the real
// Committer; TSV, SVG and a markdown summary land in results/retry-sweep/.
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli.h"
#include "commitlab/report/replace_files.h"
#include "commitlab/report/sweep_files.h"
#include "commitlab/report/sweep_summary.h"
#include "commitlab/sim/sweep.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kCommand = "sweep";
constexpr int kDefaultFormatsRuns = 20;  // 1920 commits per run at 64 appenders: means settle fast

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
  std::string n, appenders, policies;
  int commits = 30;
  uint64_t seed = 1;
  int threads = 0;
  std::string out = "results/retry-sweep";
  bool quick = false;
};

// Builds one experiment's config from the flags; InvalidArgument names the flag.
Result<sim::SweepConfig> MakeConfig(sim::Experiment e, const Flags& f, const po::variables_map& vm) {
  sim::SweepConfig c = sim::DefaultSweepConfig(e);
  const bool brooker = e == sim::Experiment::kBrooker;
  c.seed = f.seed;
  c.threads = f.threads;
  c.commits = f.commits;
  c.runs = f.runs.value_or(f.quick ? (brooker ? 10 : 3) : (brooker ? 100 : kDefaultFormatsRuns));
  if (f.quick) c.writer_counts = brooker ? std::vector<int>{10, 50, 100, 190} : std::vector<int>{2, 8, 32};
  const char* list_flag = brooker ? "--n" : "--appenders";
  const std::string& list = brooker ? f.n : f.appenders;
  if (vm.count(brooker ? "n" : "appenders")) {
    Result<std::vector<int>> ns = sim::ParseIntList(list, 1, brooker ? 10000 : 1000);
    if (!ns.ok()) return Status::InvalidArgument(fmt::format("{} {}", list_flag, ns.status().message()));
    c.writer_counts = *ns;
  }
  if (vm.count("policies")) {
    Result<std::vector<RetryPolicy>> ps = sim::ParsePolicyList(f.policies);
    if (!ps.ok()) return Status::InvalidArgument(fmt::format("--policies: {}", ps.status().message()));
    c.policies = *ps;
  }
  return c;
}

double Seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

int RunSweep(const std::vector<std::string>& args) {
  po::options_description options("commitlab sweep [options]");
  Flags f;
  int runs = 0;
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("experiment", po::value(&f.experiment)->default_value("all"), "brooker | formats | all")
      ("runs", po::value(&runs), "runs per (N, policy), 1..100000 (default: 100 brooker, 20 formats)")
      ("n", po::value(&f.n), "brooker: writer counts, e.g. 10..190:10 (the default) or 10,50,100")
      ("appenders", po::value(&f.appenders), "formats: appender counts (default 2,4,8,16,32,64)")
      ("commits", po::value(&f.commits)->default_value(30), "formats: commits per appender, 1..100000")
      ("policies", po::value(&f.policies),
       "comma-separated retry policies (default none,exponential,equal-jitter,full-jitter,decorrelated,paimon,"
       "iceberg); full specs allowed, e.g. exponential:base=5ms,cap=1s")
      ("seed", po::value(&f.seed)->default_value(1), "base seed; every run's seed derives from it, N, policy and run")
      ("threads", po::value(&f.threads)->default_value(0), "worker threads, 0 = one per core (results do not depend on it)")
      ("out", po::value(&f.out)->default_value("results/retry-sweep"), "output directory")
      ("quick", "a smoke run: brooker N = 10,50,100,190 x 10 runs, formats 2,8,32 appenders x 3 runs");
  // clang-format on
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, nullptr, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  f.quick = vm.count("quick") > 0;
  if (vm.count("runs")) {
    if (runs < 1 || runs > 100000)
      return UsageError(kCommand, fmt::format("--runs {} is out of range 1..100000", runs));
    f.runs = runs;
  }
  if (f.experiment != "brooker" && f.experiment != "formats" && f.experiment != "all")
    return UsageError(kCommand, fmt::format("--experiment '{}' is not one of brooker, formats, all", f.experiment));
  if (f.threads < 0 || f.threads > 256)
    return UsageError(kCommand, fmt::format("--threads {} is out of range 0..256", f.threads));
  if (f.commits < 1 || f.commits > 100000)
    return UsageError(kCommand, fmt::format("--commits {} is out of range 1..100000", f.commits));
  if (f.out.empty()) return UsageError(kCommand, "--out must name a directory");
  // Before the sweep, not after it: a bad --out should cost nothing.
  std::error_code ec;
  std::filesystem::create_directories(f.out, ec);
  if (ec || !std::filesystem::is_directory(f.out))
    return UsageError(kCommand, fmt::format("--out: cannot create directory {}: {}", f.out,
                                            ec ? ec.message() : "a file is in the way"));
  if (Status st = report::CheckWritableDir(f.out); !st.ok()) return UsageError(kCommand, "--out: " + st.message());

  std::vector<sim::SweepConfig> configs;
  for (sim::Experiment e : {sim::Experiment::kBrooker, sim::Experiment::kFormats}) {
    if (f.experiment != "all" && f.experiment != sim::ExperimentName(e)) continue;
    Result<sim::SweepConfig> c = MakeConfig(e, f, vm);
    if (!c.ok()) return UsageError(kCommand, c.status().message());
    configs.push_back(std::move(*c));
  }

  sim::TuneAllocatorForSweeps();
  std::vector<sim::SweepResult> results;
  for (sim::SweepConfig& c : configs) {
    const std::string name(sim::ExperimentName(c.experiment));
    const size_t total = c.writer_counts.size() * c.policies.size() * static_cast<size_t>(c.runs);
    fmt::print("{}: {} writer counts x {} policies x {} runs = {} runs\n", name, c.writer_counts.size(),
               c.policies.size(), c.runs, total);
    std::fflush(stdout);
    ProgressBar bar(name);
    c.progress = [&bar](int64_t done, int64_t all) { bar.Update(done, all); };
    const auto start = std::chrono::steady_clock::now();
    results.push_back(sim::RunSweep(c));
    fmt::print("{}: done in {:.2f} s of wall time\n", name, Seconds(std::chrono::steady_clock::now() - start));
    if (!results.back().status.ok()) {
      fmt::print(stderr, "commitlab sweep: a simulated run failed: {}\n", results.back().status.message());
      return kExitFailed;
    }
  }

  const sim::SweepResult* brooker = nullptr;
  const sim::SweepResult* formats = nullptr;
  for (const sim::SweepResult& r : results) (r.config.experiment == sim::Experiment::kBrooker ? brooker : formats) = &r;
  std::vector<std::string> written;
  if (Status st = report::WriteSweepOutputs(f.out, brooker, formats, &written); !st.ok()) {
    fmt::print(stderr, "commitlab sweep: {}\n", st.message());
    return kExitUsage;  // like a bad --out; 1 would claim that something the sweep checks failed
  }
  fmt::print("\n{}\nwrote:", report::SweepSummaryMarkdown(brooker, formats));
  for (const std::string& w : written) fmt::print(" {}", w);
  fmt::print("\n");
  return kExitOk;
}

}  // namespace commitlab::cli
