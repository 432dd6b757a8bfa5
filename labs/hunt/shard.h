// --shard I/N: shard I (0-based, as Kubernetes' JOB_COMPLETION_INDEX and `sbatch --array=0-N-1`
// number them) of N runs a deterministic, disjoint part of a search, and the N parts together are
// exactly the unsharded work: a seed hunt's range in N contiguous blocks, a sweep's cells dealt
// round-robin, an exploration's subtrees under its first decisions dealt round-robin. Each shard
// prints its report as JSON with a "shard" member (what it covered, and what `commitlab merge`
// needs to rebuild the unsharded report); merge_command.cc checks that the shards belong together.
#ifndef COMMITLAB_LABS_SHARD_H_
#define COMMITLAB_LABS_SHARD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "commitlab/core/status.h"
#include "commitlab/sim/history.h"

namespace commitlab::cli {

struct Shard {
  int index = 0;  // 0 .. count-1
  int count = 1;
};

inline constexpr int kMaxShards = 100'000;

// "I/N" with 0 <= I < N <= kMaxShards; the error names the flag and the text.
Result<Shard> ParseShard(std::string_view text);
std::string FormatShard(const Shard& s);  // "2/7"

// Shard s's block of the range [first, last]: the seeds first + floor(n*i/N) .. first +
// floor(n*(i+1)/N) - 1 with n = last - first + 1; nullopt when the block is empty (N > n).
struct SeedBlock {
  uint64_t first = 0;
  uint64_t last = 0;
};
std::optional<SeedBlock> ShardSeeds(uint64_t first, uint64_t last, const Shard& s);

// The "shard" member of a shard's report: {"index","count","kind","scenario_sha256","job","covers",
// "cpu_seconds","partial"}; kind is "seeds", "sweep" or "explore". `job` describes the whole
// search and is the same in every shard of it; `covers` says what work this shard did; `partial`
// holds what merge adds up.
sim::Json ShardMember(const Shard& s, std::string_view kind, std::string_view scenario_sha256, sim::Json job,
                      sim::Json covers, sim::Json partial);

// The process's CPU time so far (user + system), in seconds: a shard records it, merge adds them.
double CpuSeconds();

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_SHARD_H_
