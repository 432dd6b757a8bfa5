// IcebergCatalog: the one mutable thing of an Iceberg table, the pointer to its current metadata
// file, and the one atomic step of a commit, a compare-and-swap of that pointer from the version a
// writer read to the one it built (a metastore's check-and-put, JDBC's
// `UPDATE ... WHERE metadata_location = <old>`, a REST catalog's assert-ref-snapshot-id).
#ifndef COMMITLAB_CORE_ICEBERG_CATALOG_H_
#define COMMITLAB_CORE_ICEBERG_CATALOG_H_

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/status.h"

namespace commitlab::iceberg {

enum class CasOutcome {
  kSwapped,  // the pointer now names the new metadata
  kLost,     // someone else swapped first: CommitFailedException, the only retried failure
  kUnknown,  // an error after which nobody knows whether the swap happened
};
std::string_view CasOutcomeName(CasOutcome outcome);  // "swapped", "lost", "unknown"

struct CasResult {
  CasOutcome outcome = CasOutcome::kUnknown;
  // kLost: the CommitFailedException text; kUnknown: the cause. Without the exception's name.
  std::string message = {};
};

class IcebergCatalog {
 public:
  virtual ~IcebergCatalog() = default;

  virtual const std::string& table_name() const = 0;
  // The metadata the pointer names now.
  virtual Result<MetadataRef> Current() = 0;
  // Swaps the pointer to `new_metadata` if it still names `expected_version`.
  // REQUIRES: new_metadata->version == expected_version + 1, its metadata_log ends with the
  // location of the version it replaces, and its file is written.
  virtual CasResult CompareAndSwap(int64_t expected_version, MetadataRef new_metadata) = 0;
};

// Thread-safe: the check and the swap happen under one mutex, never held across a call out (a
// simulated writer must not block while holding it).
class InMemoryCatalog : public IcebergCatalog {
 public:
  // A new, empty table at version 0 (its metadata file is not materialized in any FileIO).
  explicit InMemoryCatalog(std::string table_name = "db.tbl", int32_t schema_id = 0);

  const std::string& table_name() const override { return table_name_; }
  Result<MetadataRef> Current() override;
  // kLost carries the message of Java's InMemoryCatalog.doCommit.
  CasResult CompareAndSwap(int64_t expected_version, MetadataRef new_metadata) override;

 private:
  const std::string table_name_;
  std::mutex mu_;
  MetadataRef current_;  // guarded by mu_
};

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_CATALOG_H_
