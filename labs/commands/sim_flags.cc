#include "commands/sim_flags.h"

#include <fmt/format.h>

#include <charconv>
#include <tuple>

#include "commitlab/core/retry_policy.h"
#include "commitlab/sim/strategy.h"
#include "hunt/shard.h"
#include "output/timeline_output.h"

namespace commitlab::cli {

namespace po = boost::program_options;

void AddSimOptions(po::options_description* options, SimFlags* flags, const std::string& default_sched,
                   const std::string& default_latency) {
  // clang-format off
  options->add_options()
      ("sched", po::value(&flags->sched)->default_value(default_sched),
       "free (OS threads, real clock) | random | pct | pct:depth=3 | round-robin (simulated, virtual time)")
      ("seed", po::value(&flags->seed)->default_value(1), "seed of the run's one random stream")
      ("seeds", po::value(&flags->seeds), "A..B: run every seed in the range and report the distribution")
      ("threads", po::value(&flags->threads)->default_value(0),
       "with --seeds: run this many seeds at once (0: one per core); the output is the same for any number")
      ("swarm", po::bool_switch(&flags->swarm),
       "with --seeds: each seed turns on its own random subset of fault points and effects; violations are "
       "grouped by the faults that were on")
      ("find", po::value(&flags->find),
       "with --seeds: stop at the first seed whose run matches, e.g. atomic_failures=25 or 'gave_up>=1,committed<60'")
      ("shard", po::value(&flags->shard),
       "with --seeds: I/N, run shard I (from 0) of N, a block of the range, and print its report as JSON for "
       "`commitlab merge`")
      ("keep", po::bool_switch(&flags->keep),
       "with --seeds and --store dir: keep each seed's tables (else each is removed once its seed has run)")
      ("schedule", po::value(&flags->schedule), "replay this schedule string (printed at the end of a simulated run)")
      ("fault", po::value(&flags->fault_specs)->composing(),
       "WRITER:POINT:TRIGGER:EFFECT, e.g. job-B:publish.after:nth=1:unknown (repeatable)")
      ("latency", po::value(&flags->latency_spec)->default_value(default_latency),
       "storage latency, e.g. 'write-manifest=uniform:3,6;publish=normal:2,1' (ms); '' for none")
      ("trace", po::value(&flags->trace), "write the run's history (JSON Lines, docs/history.md) to this file")
      ("timeline", po::value(&flags->timeline),
       "draw the run's timeline into this file: .html (an interactive page) or .svg (commitlab timeline)")
      ("explain", po::bool_switch(&flags->explain),
       "after the run, say why: who won each lost race, the wait's formula, what a refusal conflicted with")
      ("untimed", po::bool_switch(&flags->untimed),
       "latency is ordering only: sleeps do not move the clock (how commitlab explore runs; replays its schedules)")
      ("maybe-faults", po::value(&flags->maybe)->default_value("draw"),
       "what the `maybe` fault rules do: draw (fire with p = 1/2), skip or fire")
      ("max-steps", po::value(&flags->max_steps)->default_value("auto"),
       "simulated runs: stop a run that has taken this many steps (a writer retrying without end), exit 1; "
       "auto: 10,000,000 + 200 per scripted step; 0: never")
      ("max-virtual-time", po::value(&flags->max_virtual_time)->default_value("auto"),
       "simulated runs: stop a run whose clock passes this (e.g. 1h), exit 1; auto: 7d; 0: never")
      ("max-wall-time", po::value(&flags->max_wall_time)->default_value("auto"),
       "--sched free: stop a run that has taken this much real time (e.g. 30s), exit 1; "
       "auto: 10min + 50ms per scripted step; 0: never");
  // clang-format on
}

namespace {

bool ParseU64(std::string_view s, uint64_t* out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

}  // namespace

Status Validate(const po::variables_map& vm, SimFlags* f) {
  const bool simulated = f->sched != "free";
  if (simulated) {
    Result<std::unique_ptr<sim::Strategy>> s = sim::MakeStrategy(f->sched);
    if (!s.ok() || f->sched.rfind("replay", 0) == 0)
      return Status::InvalidArgument(
          fmt::format("--sched '{}' is not one of free, random, pct, pct:depth=N, round-robin{}", f->sched,
                      s.ok() ? " (use --schedule to replay)" : ": " + s.status().message()));
  }
  f->strategy = f->sched;
  if (vm.count("schedule")) {
    if (!simulated)
      return Status::InvalidArgument("--schedule replays a simulated run; it needs --sched other than free");
    f->strategy = "replay:" + f->schedule;
    if (Result<std::unique_ptr<sim::Strategy>> s = sim::MakeStrategy(f->strategy); !s.ok())
      return Status::InvalidArgument(fmt::format("--schedule: {}", s.status().message()));
  }
  if (vm.count("seeds")) {
    const size_t dots = f->seeds.find("..");
    if (dots == std::string::npos || !ParseU64(std::string_view(f->seeds).substr(0, dots), &f->first_seed) ||
        !ParseU64(std::string_view(f->seeds).substr(dots + 2), &f->last_seed) || f->last_seed < f->first_seed)
      return Status::InvalidArgument(fmt::format("--seeds '{}' is not a range A..B with A <= B", f->seeds));
    // One process holds a value per seed: at most 100000 of them; a longer hunt runs in shards.
    uint64_t span = f->last_seed - f->first_seed;
    if (vm.count("shard")) {
      COMMITLAB_ASSIGN_OR_RETURN(Shard shard, ParseShard(f->shard));
      if (std::optional<SeedBlock> b = ShardSeeds(f->first_seed, f->last_seed, shard)) span = b->last - b->first;
    }
    if (span >= 100000)
      return Status::InvalidArgument("--seeds: at most 100000 seeds (in each shard, with --shard I/N)");
    if (!simulated) return Status::InvalidArgument("--seeds runs the simulator; it needs --sched other than free");
    if (vm.count("schedule")) return Status::InvalidArgument("--seeds and --schedule do not go together");
    if (vm.count("trace"))
      return Status::InvalidArgument("--seeds and --trace do not go together: record one seed's history");
    if (vm.count("timeline"))
      return Status::InvalidArgument("--seeds and --timeline do not go together: draw one seed's run");
    if (f->explain) return Status::InvalidArgument("--seeds and --explain do not go together: explain one seed's run");
    f->seed_range = true;
  }
  if (!f->seed_range && f->keep) return Status::InvalidArgument("--keep needs --seeds A..B and --store dir");
  if (!f->seed_range && (vm.count("find") || !vm["threads"].defaulted() || f->swarm || vm.count("shard")))
    return Status::InvalidArgument(fmt::format("--{} needs --seeds A..B", vm.count("find")             ? "find"
                                                                          : !vm["threads"].defaulted() ? "threads"
                                                                          : f->swarm                   ? "swarm"
                                                                                                       : "shard"));
  if (f->threads < 0 || f->threads > 1024) return Status::InvalidArgument("--threads must be 0..1024");
  if (vm.count("find")) {
    COMMITLAB_ASSIGN_OR_RETURN(SeedQuery q, ParseSeedQuery(f->find));
    f->query = std::move(q);
  }
  if (vm.count("timeline") && !TimelineExtensionOk(f->timeline))
    return Status::InvalidArgument(fmt::format("--timeline {}: expected a file ending in .html or .svg", f->timeline));
  for (const std::string& spec : f->fault_specs) {
    Result<sim::FaultRule> rule = sim::ParseFaultRule(spec);
    if (!rule.ok()) return Status::InvalidArgument(fmt::format("--fault: {}", rule.status().message()));
    f->faults.push_back(*rule);
  }
  if (f->maybe != "draw" && f->maybe != "skip" && f->maybe != "fire")
    return Status::InvalidArgument(fmt::format("--maybe-faults '{}' is not one of draw, skip, fire", f->maybe));
  if (f->untimed && !simulated)
    return Status::InvalidArgument("--untimed is for simulated runs; it needs --sched other than free");
  if (f->max_steps != "auto") {
    uint64_t n = 0;
    if (!ParseU64(f->max_steps, &n) || n > static_cast<uint64_t>(INT64_MAX))
      return Status::InvalidArgument(
          fmt::format("--max-steps '{}' is not auto or a number of steps (0: no limit)", f->max_steps));
    f->max_steps_n = static_cast<int64_t>(n);
  }
  for (auto [flag, text, out] : {std::tuple("--max-virtual-time", &f->max_virtual_time, &f->max_virtual_micros),
                                 std::tuple("--max-wall-time", &f->max_wall_time, &f->max_wall_micros)}) {
    if (*text == "auto") continue;
    Result<int64_t> d = *text == "0" ? Result<int64_t>(int64_t{0}) : ParseDurationMicros(*text);
    if (!d.ok())
      return Status::InvalidArgument(
          fmt::format("{} '{}' is not auto, 0 (no limit) or a duration (e.g. 30s, 10min, 7d)", flag, *text));
    *out = *d;
  }
  Result<sim::LatencyModel> latency = sim::ParseLatencyModel(f->latency_spec);
  if (!latency.ok()) return Status::InvalidArgument(fmt::format("--latency: {}", latency.status().message()));
  f->latency = *latency;
  return Status::OK();
}

void ApplyBudgets(const SimFlags& flags, scenarios::RunOptions* run) {
  run->max_steps = flags.max_steps_n;
  run->max_virtual_micros = flags.max_virtual_micros;
  run->max_wall_micros = flags.max_wall_micros;
}

void AddBudgetSettings(const SimFlags& flags, sim::Json* settings) {
  auto value = [](const std::optional<int64_t>& v) { return v ? sim::Json(*v) : sim::Json(nullptr); };
  (*settings)["max_steps"] = value(flags.max_steps_n);  // null: auto, which the replay computes alike
  (*settings)["max_virtual_micros"] = value(flags.max_virtual_micros);
  (*settings)["max_wall_micros"] = value(flags.max_wall_micros);
}

}  // namespace commitlab::cli
