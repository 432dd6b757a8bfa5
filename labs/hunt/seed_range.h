// --seeds A..B for `run` and `race`: the scenario once per seed, simulated, spread over the
// machine's cores; then the distribution of the tallies as histograms, and for every kind of
// failure how many seeds showed it and one command that reproduces it. --find EXPR stops at the
// first seed whose run matches (seed_query.h). The output is the same whatever the thread count:
// seeds run in chunks, and each chunk is printed in seed order once it is done. --swarm gives each
// seed its own subset of faults (swarm.h) and attributes each violation to the faults it needs.
#ifndef COMMITLAB_LABS_SEED_RANGE_H_
#define COMMITLAB_LABS_SEED_RANGE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commands/sim_flags.h"
#include "commitlab/core/status.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/history.h"
#include "hunt/seed_query.h"
#include "hunt/shard.h"

namespace commitlab::cli {

struct SeedRange {
  uint64_t first = 0;
  uint64_t last = 0;
};

struct SeedRangeRun {
  std::string_view command;            // "run", "race"
  std::vector<std::string> reproduce;  // the command's arguments without --seeds, --seed, --trace, --json, ...
  bool json = false;
  bool each_run = false;  // the report lists every seed's run (--json; a shard's only with --json too)
  sim::Json settings;     // the report's settings (--json)
  // Called before each seed's run, on the calling thread and in seed order (a race on a directory
  // needs a fresh one); an error stops the range.
  std::function<Status(scenarios::RunOptions*)> prepare = {};
  // Not empty: each seed's tables live in TABLES/seed-N (RunOptions::dir, set before prepare), a
  // directory this invocation creates and removes, each chunk's as soon as it has run, unless
  // keep_tables (then the report says where they are).
  std::string tables = {};
  bool keep_tables = false;
  int threads = 0;                     // 0: one per core
  std::optional<SeedQuery> find = {};  // stop at the first seed whose run matches
  // Each seed turns on its own random subset of fault kinds (swarm.h); violations are grouped by
  // the faults that were on, expectations are not checked (they describe the fault-free run).
  bool swarm = false;
  // --shard I/N: run only the shard's block of the range and print a shard report (JSON) for
  // `commitlab merge`; scenario_sha256 identifies the scenario the shards must share.
  std::optional<Shard> shard = {};
  std::string scenario_sha256 = {};
};

// The range a command runs from its flags: the reproduce line (the command's arguments without the
// range's own flags), --threads, --swarm, --find, --shard (then the report is JSON); with `on_disk`, every seed's
// tables under a fresh scratch directory (ScratchDir(PREFIX)), removed unless --keep. InvalidArgument: no scratch
// directory, or --keep without `on_disk`.
Result<SeedRangeRun> SeedRangeFromFlags(std::string_view command, const std::vector<std::string>& args, bool json,
                                        sim::Json settings, const SimFlags& flags, bool on_disk,
                                        std::string_view prefix, const scenarios::Scenario& scenario);

// Exit code: 0 when every seed's run held (with --find: when a seed matched), 1 otherwise, 2 on
// an input error.
int RunSeedRange(const scenarios::Scenario& scenario, scenarios::RunOptions options, const SeedRange& seeds,
                 const SeedRangeRun& how);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_SEED_RANGE_H_
