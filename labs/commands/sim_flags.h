// The flags every simulated command shares (race, run): scheduling, seed(s), schedule replay,
// faults, latency and trace. Parsed once here so that each command validates them the same way.
#ifndef COMMITLAB_LABS_SIM_FLAGS_H_
#define COMMITLAB_LABS_SIM_FLAGS_H_

#include <boost/program_options.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/fault_spec.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/latency.h"
#include "hunt/seed_query.h"

namespace commitlab::cli {

struct SimFlags {
  std::string sched;  // free | random | pct[:depth=d] | round-robin
  uint64_t seed = 1;
  std::string seeds;     // "A..B": run every seed in the range and report the distribution
  std::string schedule;  // replay this schedule string
  std::string trace;     // JSON Lines trace file
  std::string timeline;  // draw the run's timeline into this .html or .svg file
  bool explain = false;  // after the run, say why each race was lost and each commit refused
  std::vector<std::string> fault_specs;
  std::string latency_spec;
  int threads = 0;                        // --seeds: runs at once (0: one per core)
  bool swarm = false;                     // --seeds: each seed its own subset of faults (swarm.h)
  std::string find;                       // --seeds: stop at the first seed whose run matches (seed_query.h)
  bool keep = false;                      // --seeds --store dir: keep each seed's tables
  std::string shard;                      // --seeds: "I/N", run shard I of N (hunt/shard.h)
  bool untimed = false;                   // latency is ordering only, as `commitlab explore` runs
  std::string maybe = "draw";             // what the `maybe` fault rules do: draw (p = 1/2), skip or fire
  std::string max_steps = "auto";         // simulated runs: stop after this many steps (0: never)
  std::string max_virtual_time = "auto";  // simulated runs: stop once the clock passes this (0: never)
  std::string max_wall_time = "auto";     // OS-thread runs: stop once this much real time has passed

  // Filled by Validate().
  std::string strategy;  // what the simulator runs: sched, or replay:<schedule>
  std::vector<sim::FaultRule> faults;
  sim::LatencyModel latency;
  uint64_t first_seed = 0, last_seed = 0;
  bool seed_range = false;
  std::optional<SeedQuery> query;      // --find
  std::optional<int64_t> max_steps_n;  // unset: auto (scenarios::DefaultBudgets)
  std::optional<int64_t> max_virtual_micros;
  std::optional<int64_t> max_wall_micros;
};

void AddSimOptions(boost::program_options::options_description* options, SimFlags* flags,
                   const std::string& default_sched, const std::string& default_latency);

// Checks the flags' values and combinations; InvalidArgument names the flag and why.
Status Validate(const boost::program_options::variables_map& vm, SimFlags* flags);

// The run budgets (--max-steps, --max-virtual-time, --max-wall-time) into a run's options, and
// into the settings a history header records (so that a replay stops where the run stopped).
void ApplyBudgets(const SimFlags& flags, scenarios::RunOptions* run);
void AddBudgetSettings(const SimFlags& flags, sim::Json* settings);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_SIM_FLAGS_H_
