// Engine benchmarks: the CPU cost of the commit path and of conflict detection.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "commitlab/core/iceberg/apply.h"
#include "commitlab/core/iceberg/operation.h"
#include "commitlab/core/paimon/committer.h"
#include "commitlab/core/paimon/conflict_detection.h"
#include "commitlab/core/paimon/memory_store.h"
#include "commitlab/sim/real_env.h"

namespace commitlab {
namespace {

Committable OneFileAppend(int64_t id) {
  DataFile f{.name = fmt::format("data-{}.parquet", id), .min_key = id, .max_key = id, .row_count = 1};
  return Committable{.identifier = id, .append_changes = {{ChangeKind::kAdd, f}}};
}

// One writer, no contention: the cost of read latest -> manifest -> publish on the memory store.
void BM_MemoryStoreCommit(benchmark::State& state) {
  MemoryStore store;
  sim::RealEnv env(1);
  NullEventSink sink;
  paimon::Committer c("bench", {}, &env, &store, &sink);
  int64_t id = 0;
  for (auto _ : state) benchmark::DoNotOptimize(c.Commit(OneFileAppend(++id)));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MemoryStoreCommit);

// Conflict detection while the table grows from 10^3 to 10^6 live files spread over 100
// buckets; the commit compacts 2 files of one bucket into 1. Should stay flat.
void BM_ConflictDetection(benchmark::State& state) {
  const int64_t files = state.range(0);
  constexpr int kBuckets = 100;  // bucket 0 then holds data-0 and data-100 at every size
  TableState base;
  for (int64_t i = 0; i < files; ++i) {
    base.AddLive(DataFile{.name = fmt::format("data-{}.parquet", i),
                          .bucket = static_cast<int32_t>(i % kBuckets),
                          .level = 0,
                          .min_key = i,
                          .max_key = i,
                          .row_count = 1});
  }
  std::vector<FileChange> delta = {
      {ChangeKind::kDelete, {.name = "data-0.parquet", .bucket = 0, .min_key = 0, .max_key = 0, .row_count = 1}},
      {ChangeKind::kDelete,
       {.name = fmt::format("data-{}.parquet", kBuckets),
        .bucket = 0,
        .min_key = kBuckets,
        .max_key = kBuckets,
        .row_count = 1}},
      {ChangeKind::kAdd,
       {.name = "compacted.parquet", .bucket = 0, .level = 1, .min_key = 0, .max_key = kBuckets, .row_count = 2}},
  };
  paimon::ConflictContext ctx{"T", "a", "b", true};
  for (auto _ : state) benchmark::DoNotOptimize(paimon::CheckConflicts(base, delta, ctx));
  state.counters["live_files"] = static_cast<double>(files);
}
BENCHMARK(BM_ConflictDetection)->RangeMultiplier(10)->Range(1000, 1000000)->Unit(benchmark::kMicrosecond);

// One Iceberg append attempt's new metadata (SnapshotProducer.apply) on a table that N appends
// built, one file each: N snapshots, manifests and live files, all shared with the base. Should
// grow far slower than N.
void BM_IcebergAppendAttempt(benchmark::State& state) {
  const int64_t commits = state.range(0);
  auto file = [](int64_t i) { return iceberg::MakeDataFile(fmt::format("data-{}.parquet", i), {}); };
  auto context = [](int64_t i) {
    return iceberg::ApplyContext{.snapshot_id = i,
                                 .added_manifest = std::make_shared<const iceberg::ManifestFile>(iceberg::ManifestFile{
                                     .path = fmt::format("metadata/m{}.avro", i), .added_snapshot_id = i}),
                                 .manifest_list = fmt::format("metadata/snap-{}.avro", i),
                                 .metadata_location = fmt::format("metadata/{}.metadata.json", i)};
  };
  iceberg::TableMetadata table = iceberg::NewTableMetadata("db.t");
  for (int64_t i = 1; i <= commits; ++i)
    table = *iceberg::ApplyOperation(iceberg::NewAppend(table, {file(i)}), table, context(i));
  const iceberg::Operation append = iceberg::NewAppend(table, {file(commits + 1)});
  const iceberg::ApplyContext ctx = context(commits + 1);
  for (auto _ : state) benchmark::DoNotOptimize(iceberg::ApplyOperation(append, table, ctx));
  state.counters["snapshots"] = static_cast<double>(commits);
}
BENCHMARK(BM_IcebergAppendAttempt)->RangeMultiplier(10)->Range(100, 10000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace commitlab
