// Swarm testing (Groce et al., "Swarm Testing", ISSTA 2012; FoundationDB's and TigerBeetle's
// simulators): instead of every fault at a low rate in every run, each seed turns on a random
// subset of the engine's fault points and effects, each at its own rate, so that combinations
// a uniform mix makes rare (an unknown outcome right after a lost race) come up in some seeds.
// The subset is drawn from the seed alone, on a stream of its own, and given to the run as
// ordinary `*:POINT:p=P:EFFECT` rules: `--seed N --fault ...` with those rules replays the run.
#ifndef COMMITLAB_LABS_SWARM_H_
#define COMMITLAB_LABS_SWARM_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "commitlab/sim/fault_spec.h"

namespace commitlab::cli {

// Every fault a swarm may turn on, as "POINT:EFFECT" ("publish.after:unknown").
const std::vector<std::string>& SwarmFaultKinds();

// The seed's configuration: each kind on with probability 1/2, at a rate drawn from
// {0.02, 0.05, 0.1, 0.2}. May be empty (a seed with no fault at all is a useful baseline).
std::vector<sim::FaultRule> SwarmFaults(uint64_t seed);

// "publish.after:unknown" for a swarm rule.
std::string SwarmKind(const sim::FaultRule& rule);

// Which fault kinds go with one violation kind, over the seeds that showed it.
struct SwarmAttribution {
  int64_t seeds = 0;                       // seeds that showed the violation
  int64_t without_faults = 0;              // ... with every fault off
  std::map<std::string, int64_t> on = {};  // fault kind -> seeds showing it with that kind on
  // The sets of kinds that were on in those seeds, each with how many of them had it: a multiset,
  // so that the tallies of disjoint seed blocks add up (commitlab merge).
  std::map<std::vector<std::string>, int64_t> configurations = {};
};

// Lines for one violation kind: the kinds on in every seed that showed it (or else the fewest
// kinds of which one was on in every such seed), and the kinds most over-represented against all
// seeds' configurations (`on_overall`: kind -> seeds with it on).
std::vector<std::string> AttributionLines(const SwarmAttribution& a, const std::map<std::string, int64_t>& on_overall,
                                          int64_t all_seeds);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_SWARM_H_
