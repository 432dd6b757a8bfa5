// Iceberg snapshots and metadata versions as imported commits (iceberg_metadata.cc reads them).
#ifndef COMMITLAB_SIM_SRC_IMPORT_ICEBERG_COMMITS_H_
#define COMMITLAB_SIM_SRC_IMPORT_ICEBERG_COMMITS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "checker.h"
#include "commitlab/sim/import/import.h"
#include "iceberg_parse.h"

namespace commitlab::sim::import::internal {

// A snapshot as the commit `version` of `file`: its operation, counts, the job its summary names,
// and the refs of `meta` that point at it.
ImportedCommit SnapshotCommit(const IcebergSnapshot& s, int64_t version, const std::string& file,
                              const IcebergMetadata& meta);

// A summary's integer entry ("added-data-files": "3"), 0 when absent or not a number.
int64_t SummaryInt(const Json& summary, const char* key);

// The isolation level Spark's Iceberg writes use for deletes (write.delete.isolation-level),
// serializable when unset (TableProperties.DELETE_ISOLATION_LEVEL_DEFAULT).
std::string IcebergIsolation(const IcebergMetadata& meta);

// A snapshot's place for the sequence-number checks.
struct SeqPoint {
  int64_t version = 0;
  std::string writer = {};
  int64_t snapshot_id = 0;
  int64_t sequence = 0;
};

// Format v2 on: a snapshot's sequence number is above the previous one's (sequence_not_increasing
// otherwise), and a jump past the next number is a gap (a note: expired or on another branch).
Status SequenceChecks(Checker* sink, int format_version, const SeqPoint& at, std::optional<int64_t> previous_seq,
                      int64_t previous_version);

// Format v2 on: the finding SequenceChecks hands the sink, if any (its writer left to the caller).
std::optional<Finding> SequenceFinding(int format_version, const SeqPoint& at, std::optional<int64_t> previous_seq,
                                       int64_t previous_version);

// A folder of metadata files, each a version (iceberg_chain.cc), listed `memory_entries` names at
// a time.
Status ReadIcebergChain(const std::string& path, int64_t memory_entries, Checker* sink);

}  // namespace commitlab::sim::import::internal

#endif  // COMMITLAB_SIM_SRC_IMPORT_ICEBERG_COMMITS_H_
