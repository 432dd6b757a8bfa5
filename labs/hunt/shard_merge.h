// `commitlab merge`: the shards of one search (shard.h) back into the report the unsharded run
// prints. ShardSet checks that the files belong together; each Merge* rebuilds one kind's report.
#ifndef COMMITLAB_LABS_SHARD_MERGE_H_
#define COMMITLAB_LABS_SHARD_MERGE_H_

#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/sim/history.h"

namespace commitlab::cli {

// One shard report as read from its file.
struct ShardFile {
  std::string path;
  sim::Json report;  // with its "shard" member
};

// Checks that `files` are the N shards of one search, each once: the same build ("commitlab"),
// command and settings, scenario, kind, count and job. InvalidArgument names the file and what
// differs, a shard given twice, or the shards missing. On success, `files` is in shard order.
Status CheckShardSet(std::vector<ShardFile>* files);

// The merged report, without "shard" members; errors name the file whose partial is malformed.
Result<sim::Json> MergeSeeds(const std::vector<ShardFile>& shards);
Result<sim::Json> MergeExplore(const std::vector<ShardFile>& shards);
Result<sim::Json> MergeSweep(const std::vector<ShardFile>& shards);

// The merged report as text (merge --text): a hunt's summary as the unsharded run ends with it, an
// exploration's totals, outcomes and shortest counterexamples, a sweep's rows.
void PrintMergedText(const sim::Json& merged, const std::vector<ShardFile>& shards);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_SHARD_MERGE_H_
