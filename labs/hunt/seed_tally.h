// What a seed hunt keeps of its seeds' runs: the distributions as value counts, the failures by
// kind with their first seed, the swarm's attribution, the seed --find stopped at. The tallies of
// consecutive seed blocks add up (Append) to the tally of their union, so that the shards of a
// hunt (shard.h) merge into exactly the summary one process would print. The summary, in JSON and
// as text, is computed from a tally alone.
#ifndef COMMITLAB_LABS_SEED_TALLY_H_
#define COMMITLAB_LABS_SEED_TALLY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/sim/history.h"
#include "hunt/swarm.h"

namespace commitlab::cli {

// How many seeds showed one kind of failure, and the first of them.
struct KindCount {
  int64_t seeds = 0;
  uint64_t first = 0;
  std::string detail = {};
  std::string reproduce = {};
};

// The seed a swarm shows a violation kind with: the one with the fewest faults on, then the first.
struct SwarmExample {
  uint64_t seed = 0;
  int64_t faults = 0;
  std::string reproduce = {};
};

struct SeedTally {
  int64_t runs = 0;
  std::map<int64_t, int64_t> lost, attempts, times;  // value -> seeds with it
  int64_t failed = 0;
  sim::Json failing = sim::Json::array();  // {"seed","failed","reproduce"} in seed order
  std::map<std::string, KindCount> kinds;
  std::vector<std::string> kind_order;                  // by first seed
  std::map<std::string, int64_t> swarm_on;              // fault kind -> seeds with it on
  std::map<std::string, SwarmAttribution> attribution;  // violation kind -> its seeds' faults
  std::map<std::string, SwarmExample> swarm_first;      // violation kind -> the seed to show
  std::optional<uint64_t> found = {};                   // --find: the seed that matched
  std::string found_command = {};
  sim::Json runs_json = sim::Json::array();  // --json: every seed's report, in seed order

  // The tally of this block followed by `later`, the next block of the range. After a block that
  // found its seed, later blocks do not count (one process would have stopped there).
  void Append(SeedTally later);
};

// The tally as a shard records it, and back; FromJson's errors say which member is wrong.
sim::Json TallyJson(const SeedTally& t);
Result<SeedTally> TallyFromJson(const sim::Json& j);

// What the hunt was: its range and whether --swarm or --find were on.
struct HuntShape {
  uint64_t first = 0;
  uint64_t last = 0;
  bool swarm = false;
  std::optional<std::string> find = {};  // the --find text
};

// The hunt as a shard records it (shard.covers.hunt), and back.
sim::Json HuntJson(const HuntShape& shape);
Result<HuntShape> HuntFromJson(const sim::Json& j);

// The report's "summary" member (docs/report.schema.json, seed_summary) and its "ok".
sim::Json SummaryJson(const SeedTally& t, const HuntShape& shape);
bool TallyOk(const SeedTally& t, const HuntShape& shape);
// The text summary after the seeds' lines: distributions, failures by kind, swarm, found.
void PrintSummary(const SeedTally& t, const HuntShape& shape);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_SEED_TALLY_H_
