// CatalogWriter: one Iceberg writer's work against any catalog (in memory, JDBC on PostgreSQL, or a
// REST server), the same code whether it runs on a thread or as its own `commitlab catalog writer`
// process, so the three catalogs are judged on the same workload:
//   append   each commit appends one data file {writer, id} (无锁并发写入: the append race);
//   counter  each commit adds 5 to the counter `hits` (the lost-update counter of the same
//            lecture: read, compute, write a file, overwrite by name = "hits" validated from the
//            read), and a ValidationException is handled per --on-validation.
// The writer stops at its first failed commit (given up, refused, unknown), as a job would.
#ifndef COMMITLAB_LABS_CATALOG_WRITER_H_
#define COMMITLAB_LABS_CATALOG_WRITER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "commitlab/core/commit_stats.h"
#include "commitlab/core/env.h"
#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/file_io.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/scenarios/iceberg_counter.h"

namespace commitlab::cli {

enum class CatalogWorkload { kAppend, kCounter };
std::string_view CatalogWorkloadName(CatalogWorkload w);  // "append", "counter"

inline constexpr char kCounterKey[] = "hits";
inline constexpr int64_t kCounterStart = 10;  // the lecture's: 10, two workers adding 5 each
inline constexpr int64_t kCounterDelta = 5;

struct CatalogWriterOptions {
  std::string user = {};
  int64_t commits = 1;
  CatalogWorkload workload = CatalogWorkload::kAppend;
  RetryPolicy retry = {};
  scenarios::OnValidationFailure on_validation = scenarios::OnValidationFailure::kGiveUp;
};

struct CatalogWriterResult {
  std::string user = {};
  int64_t acknowledged = 0;
  CommitStats stats = {};
  int64_t unknown = 0;  // commits whose outcome the writer was never told (at most 1: it stops)
  // "" when every commit was acknowledged; else the failure that stopped the writer.
  std::string error = {};
  Code error_code = Code::kOk;
};

// Commits options.commits times as options.user through `catalog`, writing data files to `io`.
// `on_ack(identifier, snapshot_id)` is called once per acknowledged commit, right after it
// returned. REQUIRES: the table exists (and, for the counter, holds it: InitCounter).
CatalogWriterResult RunCatalogWriter(const CatalogWriterOptions& options, iceberg::IcebergCatalog* catalog,
                                     iceberg::FileIO* io, Env* env,
                                     const std::function<void(int64_t, int64_t)>& on_ack);

// The data file of `user`'s append `id`, by which the race finds it in the table.
std::string AppendFilePath(std::string_view user, int64_t id);

// Commits the counter's first value (kCounterStart) as user "setup".
Status InitCounter(iceberg::IcebergCatalog* catalog, iceberg::FileIO* io, Env* env);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_CATALOG_WRITER_H_
