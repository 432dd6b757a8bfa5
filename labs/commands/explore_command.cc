// `commitlab explore FILE`: every distinct interleaving of a scenario's writers (scenarios/explore.h),
// the distinct outcomes with a count each, and for every kind of failure its shortest
// counterexample with a command that replays it.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <optional>

#include "commands/cli.h"
#include "commands/run_settings.h"
#include "commitlab/core/rng.h"
#include "commitlab/scenarios/explore.h"
#include "commitlab/scenarios/explore_order.h"
#include "commitlab/scenarios/parser.h"
#include "hunt/shard.h"
#include "output/report_output.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;
using scenarios::ExploreFinding;
using scenarios::ExploreReport;

constexpr std::string_view kCommand = "explore";

struct Counterexample {
  const ExploreFinding* finding = nullptr;
  std::string reproduce = {};
  scenarios::OrderLines order = {};
};

// `commitlab run` with the finding's schedule, untimed, its `maybe` hits as nth= rules.
std::string ReproduceCommand(const std::string& path, uint64_t seed, bool ignore_order, const ExploreFinding& f,
                             bool has_maybe) {
  std::string cmd = fmt::format("commitlab run {} --untimed --seed {}", ShellQuote(path), seed);
  if (ignore_order) cmd += " --ignore-order";
  if (has_maybe) cmd += " --maybe-faults skip";
  for (const std::string& rule : f.faults) cmd += " --fault " + ShellQuote(rule);
  return cmd + " --schedule " + f.schedule;
}

sim::Json FindingJson(const Counterexample& c) {
  const ExploreFinding& f = *c.finding;
  return {{"kind", f.kind},
          {"detail", f.detail},
          {"expected", f.expected},
          {"executions", f.executions},
          {"steps", f.steps},
          {"switches", f.switches},
          {"schedule", f.schedule},
          {"faults", f.faults},
          {"reproduce", c.reproduce},
          {"order_lines", c.order.lines},
          {"order_note", c.order.note}};
}

// What cut the search, naming the flag that would let it go further.
std::vector<std::string> Cuts(const ExploreReport& r, const scenarios::ExploreOptions& o) {
  std::vector<std::string> why;
  if (r.stopped)
    why.push_back(o.stop_at_first ? "stopped at the first failure (--stop-at-first)"
                                  : fmt::format("stopped after --max-executions {}", o.max_executions));
  if (r.cut_preemptions > 0)
    why.push_back(o.mode == scenarios::ExploreOptions::Mode::kBounded
                      ? fmt::format("{} cut by the last preemption bound, {}", r.cut_preemptions, r.bound)
                      : fmt::format("{} cut by --preemptions {}", r.cut_preemptions, o.preemptions));
  if (o.mode == scenarios::ExploreOptions::Mode::kRandomWalk && !r.stopped)
    why.push_back("random walks never show that nothing is left");
  if (r.cut_steps > 0) why.push_back(fmt::format("{} cut at --max-steps {}", r.cut_steps, o.max_steps));
  return why;
}

void PrintText(const std::string& path, const ExploreReport& r, const std::vector<Counterexample>& examples,
               int64_t shown_outcomes, const scenarios::ExploreOptions& options) {
  fmt::print("executions: {} run to the end", r.executions);
  if (r.sleep_blocked + r.sleep_skipped > 0)
    fmt::print("; pruned as equivalent to one run: {} stopped early, {} never started", r.sleep_blocked,
               r.sleep_skipped);
  fmt::print("\nlongest execution: {} steps\n", r.max_depth);
  if (r.complete()) {
    fmt::print("search: complete: every interleaving was run or shown equivalent to one that was\n");
  } else {
    fmt::print("search: INCOMPLETE: {}\n", fmt::join(Cuts(r, options), "; "));
  }
  if (!r.coverage.empty()) {
    fmt::print("\ncoverage (after N executions: distinct outcomes, distinct states, CPU time):\n");
    for (const scenarios::CoveragePoint& p : r.coverage)
      fmt::print("  {:>9}  {:>7} outcomes  {:>9} states  {:>8.2f} s\n", p.executions, p.outcomes, p.states,
                 p.cpu_seconds);
  }
  fmt::print("\ndistinct outcomes: {}\n", r.outcomes.size());
  int64_t shown = 0;
  for (const scenarios::ExploreOutcome& o : r.outcomes) {
    if (shown++ == shown_outcomes) {
      fmt::print("  ... {} more (--outcomes N shows more)\n", r.outcomes.size() - static_cast<size_t>(shown_outcomes));
      break;
    }
    fmt::print("  {:>8}  {}{}\n", o.count, o.ok ? "" : "FAILS  ", o.key);
  }
  if (r.executions == 0) {
    fmt::print("\nno execution ran to its end: nothing is known ({})\n", fmt::join(Cuts(r, options), "; "));
    return;
  }
  if (examples.empty()) {
    if (r.complete()) {
      fmt::print("\nno failure in any execution: every invariant and expectation of {} held\n", path);
    } else {
      fmt::print("\nno failure in the {} executions run; the search is incomplete, so others may fail\n", r.executions);
    }
    return;
  }
  // Findings often share their shortest execution: each is printed once, numbered.
  std::vector<const Counterexample*> runs;
  auto number = [&runs](const Counterexample& c) {
    for (size_t i = 0; i < runs.size(); ++i)
      if (runs[i]->finding->decisions == c.finding->decisions) return i + 1;
    runs.push_back(&c);
    return runs.size();
  };
  fmt::print("\nfound:\n");
  for (const Counterexample& c : examples) {
    const ExploreFinding& f = *c.finding;
    const bool expectation = f.kind.rfind("expect ", 0) == 0;
    fmt::print("  {}{}{}: in {} of {} executions, shortest: counterexample {}\n    {}\n",
               expectation ? "" : "violation ", f.kind, f.expected ? " (the file expects it)" : "", f.executions,
               r.executions, number(c), f.detail);
  }
  for (size_t i = 0; i < runs.size(); ++i) {
    const Counterexample& c = *runs[i];
    const ExploreFinding& f = *c.finding;
    fmt::print("\ncounterexample {}: {} steps, {} context switch{}\n  schedule: {}\n", i + 1, f.steps, f.switches,
               f.switches == 1 ? "" : "es", f.schedule);
    for (const std::string& rule : f.faults) fmt::print("  fault that fired: {}\n", rule);
    fmt::print("  reproduce: {}\n", c.reproduce);
    if (!c.order.lines.empty()) {
      fmt::print("  as order lines ({}):\n", c.order.note);
      for (const std::string& line : c.order.lines) fmt::print("    {}\n", line);
    } else if (!c.order.note.empty()) {
      fmt::print("  order lines: {}\n", c.order.note);
    }
  }
}

// A shard's "shard" member: the subtrees it owned, and what merge needs beyond the report.
sim::Json ShardJson(const Shard& shard, const ExploreReport& r, const scenarios::ExploreOptions& o,
                    const std::string& scenario_sha256, bool portfolio, const std::string& search) {
  sim::Json units = sim::Json::object();
  for (const ExploreFinding& f : r.findings) units[f.kind] = f.unit;
  sim::Json covers = portfolio ? sim::Json{{"search", search}} : sim::Json{{"subtrees", r.units}, {"owned", r.owned}};
  return ShardMember(shard, "explore", scenario_sha256, {{"split_depth", o.split_depth}, {"portfolio", portfolio}},
                     std::move(covers),
                     {{"stopped", r.stopped}, {"complete", r.complete()}, {"finding_units", std::move(units)}});
}

// --portfolio: shard 0 bounds preemptions, shard 1 searches depth first, the others walk.
std::string PortfolioSearch(int shard) { return shard == 0 ? "bounded" : shard == 1 ? "dfs" : "random"; }

sim::Json CoverageJson(const std::vector<scenarios::CoveragePoint>& points) {
  sim::Json out = sim::Json::array();
  for (const scenarios::CoveragePoint& p : points)
    out.push_back(
        {{"executions", p.executions}, {"cpu_seconds", p.cpu_seconds}, {"outcomes", p.outcomes}, {"states", p.states}});
  return out;
}

// What --search, --portfolio and --shard ask for.
struct Sharding {
  std::string search;  // dfs | bounded | random (a portfolio's member once PlaceShard has run)
  std::optional<Shard> shard = {};
  bool portfolio = false;
};

// --search, --coverage, --shard, --portfolio and --split-depth, checked together.
Status SearchFlags(const po::variables_map& vm, const std::string& shard_text, Sharding* s,
                   scenarios::ExploreOptions* explore) {
  using Mode = scenarios::ExploreOptions::Mode;
  if (vm.count("shard")) {
    COMMITLAB_ASSIGN_OR_RETURN(Shard parsed, ParseShard(shard_text));
    s->shard = parsed;
  }
  const bool split = vm.count("split-depth") > 0;
  if (split && !s->shard) return Status::InvalidArgument("--split-depth needs --shard I/N");
  s->portfolio = vm.count("portfolio") > 0;
  if (s->portfolio && !s->shard)
    return Status::InvalidArgument("--portfolio needs --shard I/N: each shard runs one search");
  if (s->portfolio && !vm["search"].defaulted())
    return Status::InvalidArgument("--portfolio chooses each shard's search: --search does not go with it");
  if (s->portfolio && split)
    return Status::InvalidArgument("--portfolio runs whole searches side by side: --split-depth does not go with it");
  explore->coverage = vm.count("coverage") > 0;
  if (s->search == "bounded") {
    explore->mode = Mode::kBounded;
  } else if (s->search == "random") {
    explore->mode = Mode::kRandomWalk;
  } else if (s->search != "dfs") {
    return Status::InvalidArgument(fmt::format("--search '{}' is not one of dfs, bounded, random", s->search));
  }
  if (explore->mode != Mode::kDepthFirst && !vm["preemptions"].defaulted())
    return Status::InvalidArgument(
        fmt::format("--search {} sets the bound itself: --preemptions is for dfs", s->search));
  if (s->shard && !s->portfolio && explore->mode != Mode::kDepthFirst)
    return Status::InvalidArgument(
        "--shard splits a dfs search's tree; shard a bounded or random one with --portfolio");
  if (split && (explore->split_depth < 1 || explore->split_depth > 1000))
    return Status::InvalidArgument("--split-depth must be 1..1000");
  return Status::OK();
}

// The shard's part: a portfolio member's search, or the subtrees of the split; and a random
// walk's stream, from the seed and the shard, so that walks side by side differ.
Status PlaceShard(const scenarios::Scenario& scenario, const scenarios::RunOptions& run, uint64_t seed,
                  bool split_given, Sharding* s, scenarios::ExploreOptions* explore) {
  using Mode = scenarios::ExploreOptions::Mode;
  if (s->portfolio) {
    s->search = PortfolioSearch(s->shard->index);
    explore->mode = s->search == "bounded" ? Mode::kBounded
                    : s->search == "dfs"   ? Mode::kDepthFirst
                                           : Mode::kRandomWalk;
  }
  explore->walk_seed = DeriveSeed(seed, 0x77a1'6b00, s->shard ? static_cast<uint64_t>(s->shard->index) : 0);
  if (!s->shard || s->portfolio) return Status::OK();
  if (!split_given) {
    COMMITLAB_ASSIGN_OR_RETURN(int depth, scenarios::ChooseSplitDepth(scenario, run, *explore, s->shard->count));
    explore->split_depth = depth;
  }
  explore->shard_index = s->shard->index;
  explore->shard_count = s->shard->count;
  return Status::OK();
}

// The first line of the text report: how the search ran.
void PrintHeader(const std::string& path, uint64_t seed, const scenarios::ExploreOptions& explore,
                 const ExploreReport& r) {
  const bool reduced = explore.reduce && explore.preemptions < 0;
  std::string how = fmt::format("{}, {}", reduced ? "sleep-set reduction" : "no reduction",
                                explore.preemptions < 0 ? std::string("preemptions unbounded")
                                                        : fmt::format("at most {} preemption{}", explore.preemptions,
                                                                      explore.preemptions == 1 ? "" : "s"));
  if (explore.mode == scenarios::ExploreOptions::Mode::kBounded)
    how = fmt::format("preemption bound 0, 1, 2, ... (reached {})", r.bound);
  if (explore.mode == scenarios::ExploreOptions::Mode::kRandomWalk)
    how = fmt::format("{} random walk{}", explore.max_executions, explore.max_executions == 1 ? "" : "s");
  fmt::print("explore {}: seed {}, untimed (latency is ordering only), {}, at most {} step{} an execution\n", path,
             seed, how, explore.max_steps, explore.max_steps == 1 ? "" : "s");
}

// The JSON document (format commitlab-explore) without its shard member.
sim::Json ExploreJson(sim::Json settings, const ExploreReport& r, const std::vector<Counterexample>& examples,
                      const scenarios::ExploreOptions& explore, const std::string& search) {
  sim::Json doc = Envelope("commitlab-explore", 1, kCommand, std::move(settings));
  sim::Json outs = sim::Json::array();
  for (const scenarios::ExploreOutcome& o : r.outcomes)
    outs.push_back({{"outcome", o.key}, {"count", o.count}, {"ok", o.ok}});
  sim::Json found = sim::Json::array();
  for (const Counterexample& c : examples) found.push_back(FindingJson(c));
  doc["search"] = search;
  doc["executions"] = r.executions;
  doc["pruned"] = {{"stopped_early", r.sleep_blocked}, {"never_started", r.sleep_skipped}};
  doc["cut"] = {{"preemptions", r.cut_preemptions}, {"max_steps", r.cut_steps}};
  doc["complete"] = r.complete();
  doc["max_depth"] = r.max_depth;
  doc["outcomes"] = std::move(outs);
  doc["findings"] = std::move(found);
  if (explore.mode == scenarios::ExploreOptions::Mode::kBounded) doc["bound"] = r.bound;
  if (explore.coverage) doc["coverage"] = CoverageJson(r.coverage);
  doc["ok"] = r.ok() && r.executions > 0;
  return doc;
}

// The command's flags, as parsed.
struct ExploreFlags {
  std::string path;
  uint64_t seed = scenarios::kDefaultSeed;
  scenarios::ExploreOptions explore;
  std::vector<std::string> fault_specs;
  int64_t outcomes = 20;
  std::string shard_text;
  std::string search = "dfs";
};

void AddExploreOptions(po::options_description* options, ExploreFlags* f) {
  scenarios::ExploreOptions& explore = f->explore;
  // clang-format off
  options->add_options()
      ("help,h", "show this help")
      ("file", po::value(&f->path), "the scenario file (scenarios/*.scn)")
      ("seed", po::value(&f->seed)->default_value(scenarios::kDefaultSeed),
       "seed of the runs' random stream (file names, jitter); the same for every execution")
      ("fault", po::value(&f->fault_specs)->composing(),
       "WRITER:POINT:TRIGGER:EFFECT added to the file's; trigger maybe is explored both ways (repeatable)")
      ("ignore-order", "drop the file's order lines: explore every interleaving, not only the ones they allow")
      ("preemptions", po::value(&explore.preemptions)->default_value(-1),
       "at most K preemptions per execution (CHESS); -1 for no bound")
      ("max-steps", po::value(&explore.max_steps)->default_value(10'000), "cut an execution after this many steps")
      ("max-executions", po::value(&explore.max_executions)->default_value(1'000'000),
       "stop after this many executions")
      ("no-reduction", "explore every order, also of steps that commute (to compare with the reduced search)")
      ("stop-at-first", "stop at the first execution that fails")
      ("outcomes", po::value(&f->outcomes)->default_value(20), "list at most this many distinct outcomes")
      ("search", po::value(&f->search)->default_value("dfs"),
       "dfs (depth first, complete) | bounded (preemption bound 0, then 1, 2, ...) | random (random walks, "
       "--max-executions of them); the last two reach far where dfs cannot finish")
      ("portfolio", "with --shard: the shards run different searches side by side: shard 0 bounded, 1 dfs, "
                    "the others random walks of their own (merge unites their outcomes)")
      ("coverage", "report distinct outcomes and states after 1, 2, 4, ... executions: when the search stops paying")
      ("shard", po::value(&f->shard_text),
       "I/N: run shard I (from 0) of N, the subtrees under the first decisions dealt round-robin, and print its "
       "report as JSON for `commitlab merge`")
      ("split-depth", po::value(&explore.split_depth),
       "with --shard: split the search tree after this many decisions (default: the least depth with 8 "
       "subtrees per shard)")
      ("json", "print one JSON document instead of the text");
  // clang-format on
}

// The counts checked; then the search's switches set from the flags.
Status ValidateExplore(const po::variables_map& vm, ExploreFlags* f) {
  scenarios::ExploreOptions& explore = f->explore;
  if (f->path.empty()) return Status::InvalidArgument("missing the scenario file to explore");
  if (explore.preemptions < -1) return Status::InvalidArgument("--preemptions must be -1 (no bound) or >= 0");
  if (explore.max_steps < 1) return Status::InvalidArgument("--max-steps must be >= 1");
  if (explore.max_executions < 1) return Status::InvalidArgument("--max-executions must be >= 1");
  if (f->outcomes < 0) return Status::InvalidArgument("--outcomes must be >= 0");
  explore.reduce = vm.count("no-reduction") == 0;
  // A long search says it is alive, on stderr (the report stays on stdout).
  explore.progress = [last = int64_t{0}](int64_t executions) mutable {
    if (executions % 100'000 != 0 || executions == last) return;  // once each 100,000 (pruned ones repeat it)
    last = executions;
    fmt::print(stderr, "explore: {} executions run to the end so far\n", executions);
  };
  explore.stop_at_first = vm.count("stop-at-first") > 0;
  return Status::OK();
}

// The file's `seed` line decides unless --seed is given, as for `commitlab run`; --fault adds to
// the file's faults.
Status ExploreRunOptions(const po::variables_map& vm, const ExploreFlags& f, const scenarios::Scenario& scenario,
                         scenarios::RunOptions* run) {
  if (!vm["seed"].defaulted() || !scenario.seed) run->seed = f.seed;
  for (const std::string& spec : f.fault_specs) {
    Result<sim::FaultRule> rule = sim::ParseFaultRule(spec);
    if (!rule.ok()) return Status::InvalidArgument(fmt::format("--fault: {}", rule.status().message()));
    run->faults.push_back(*rule);
  }
  return Status::OK();
}

// For each kind of failure found: the command that replays it and the order lines that force it.
std::vector<Counterexample> Counterexamples(const std::string& path, uint64_t seed, bool ignore_order,
                                            const scenarios::Scenario& scenario, const scenarios::RunOptions& run,
                                            const ExploreReport& r) {
  Result<scenarios::RunPlan> plan = scenarios::PlanRun(scenario, run);
  bool has_maybe = false;
  if (plan.ok())
    for (const sim::FaultRule& f : plan->faults)
      has_maybe = has_maybe || f.trigger.kind == sim::FaultTrigger::Kind::kMaybe;
  std::vector<Counterexample> examples;
  for (const ExploreFinding& f : r.findings) {
    Counterexample c{.finding = &f, .reproduce = ReproduceCommand(path, seed, ignore_order, f, has_maybe)};
    Result<scenarios::OrderLines> order = scenarios::CounterexampleOrderLines(scenario, run, f);
    c.order = order.ok() ? std::move(*order) : scenarios::OrderLines{.note = order.status().message()};
    examples.push_back(std::move(c));
  }
  return examples;
}

// The JSON document, with the shard member when this is one shard of a search.
void PrintExploreJson(const ExploreFlags& f, uint64_t seed, bool ignore_order, const Sharding& sharding,
                      const scenarios::Scenario& scenario, const ExploreReport& r,
                      const std::vector<Counterexample>& examples) {
  const scenarios::ExploreOptions& explore = f.explore;
  sim::Json settings = {{"scenario", f.path},
                        {"seed", seed},
                        {"faults", f.fault_specs},
                        {"ignore_order", ignore_order},
                        {"preemptions", explore.preemptions},
                        {"max_steps", explore.max_steps},
                        {"max_executions", explore.max_executions},
                        {"reduction", explore.reduce},
                        {"stop_at_first", explore.stop_at_first}};
  sim::Json doc = ExploreJson(std::move(settings), r, examples, explore, sharding.search);
  if (sharding.shard) {
    doc["shard"] =
        ShardJson(*sharding.shard, r, explore, sim::Sha256Hex(scenario.text), sharding.portfolio, sharding.search);
  }
  PrintJsonLine(doc);
}

}  // namespace

int RunExplore(const std::vector<std::string>& args) {
  po::options_description options("commitlab explore FILE [options]");
  ExploreFlags f;
  AddExploreOptions(&options, &f);
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print(
        "{}\n\nRuns the scenario once per distinct interleaving of its writers' steps, depth first, with\n"
        "latency as ordering only (a writer may be held back arbitrarily). Steps of different writers that\n"
        "commute (a write of one's own manifest and another's read of the latest snapshot) are run in one\n"
        "order only. Prints the distinct outcomes with a count each and, for every kind of failure, the\n"
        "shortest execution showing it: its schedule string, a command that replays it, and order lines.\n"
        "Exit 0 when no execution failed, 1 when one did, 2 on bad input.\n",
        fmt::streamed(options));
    return kExitOk;
  }
  if (Status st = ValidateExplore(vm, &f); !st.ok()) return UsageError(kCommand, st.message());
  const bool ignore_order = vm.count("ignore-order") > 0;
  Sharding sharding{.search = f.search};
  if (Status st = SearchFlags(vm, f.shard_text, &sharding, &f.explore); !st.ok())
    return UsageError(kCommand, st.message());
  const bool json = vm.count("json") > 0 || sharding.shard.has_value();  // a shard's report is for `commitlab merge`

  Result<scenarios::Scenario> scenario = scenarios::LoadScenarioFile(f.path);
  if (scenario.ok() && ignore_order) scenario = scenarios::WithoutOrderLines(*scenario);
  if (!scenario.ok()) return UsageError(kCommand, scenario.status().message());
  scenarios::RunOptions run;
  if (Status st = ExploreRunOptions(vm, f, *scenario, &run); !st.ok()) return UsageError(kCommand, st.message());
  const uint64_t seed = run.seed.value_or(scenario->seed.value_or(scenarios::kDefaultSeed));
  if (Status st = PlaceShard(*scenario, run, seed, vm.count("split-depth") > 0, &sharding, &f.explore); !st.ok())
    return UsageError(kCommand, st.message());
  Result<ExploreReport> r = scenarios::Explore(*scenario, run, f.explore);
  if (!r.ok()) return UsageError(kCommand, r.status().message());
  if (!json) PrintHeader(f.path, seed, f.explore, *r);

  const std::vector<Counterexample> examples = Counterexamples(f.path, seed, ignore_order, *scenario, run, *r);
  if (json) {
    PrintExploreJson(f, seed, ignore_order, sharding, *scenario, *r, examples);
  } else {
    PrintText(f.path, *r, examples, f.outcomes, f.explore);
  }
  // A search that finished no execution found nothing either way: not a pass.
  return r->ok() && r->executions > 0 ? kExitOk : kExitFailed;
}

}  // namespace commitlab::cli
