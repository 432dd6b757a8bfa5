// --seeds A..B for `run` and `race`: the scenario once per seed, simulated, then the distribution
// of lost races and, for every seed that failed, what the checker found and a command that
// reproduces it.
#ifndef COMMITLAB_LABS_SEED_RANGE_H_
#define COMMITLAB_LABS_SEED_RANGE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/history.h"

namespace commitlab::cli {

struct SeedRange {
  uint64_t first = 0;
  uint64_t last = 0;
};

struct SeedRangeRun {
  std::string_view command;           // "run", "race"
  std::vector<std::string> reproduce;  // the command's arguments without --seeds, --seed, --trace, --json
  bool json = false;
  sim::Json settings;                  // the report's settings (--json)
  // Called before each seed's run (a race on a directory needs a fresh one); an error stops it.
  std::function<Status(scenarios::RunOptions*)> prepare = {};
};

// Exit code: 0 when every seed's run held, 1 otherwise, 2 on an input error.
int RunSeedRange(const scenarios::Scenario& scenario, scenarios::RunOptions options, const SeedRange& seeds,
                 const SeedRangeRun& how);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_SEED_RANGE_H_
