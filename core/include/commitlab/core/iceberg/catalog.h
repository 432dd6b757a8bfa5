// IcebergCatalog: the one mutable thing of an Iceberg table, the pointer to its current metadata
// file, and the one atomic step of a commit. Two kinds, as upstream's catalogs:
//  - a pointer swap from the version a writer read to the one it built (a metastore's
//    check-and-put, JDBC's `UPDATE ... WHERE metadata_location = <old>`, Java's InMemoryCatalog):
//    any concurrent change makes the swap fail;
//  - a REST catalog, which takes the commit as requirements and updates
//    (UpdateRequirements.forUpdateTable, CatalogHandlers.commit): only a change its requirements
//    name fails it; otherwise the server applies the updates to the table as it is now.
#ifndef COMMITLAB_CORE_ICEBERG_CATALOG_H_
#define COMMITLAB_CORE_ICEBERG_CATALOG_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/mutex.h"
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
  // kSwapped by a catalog that applied the updates to a newer version: what is current now.
  MetadataRef current = {};
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
  // Commits `next`, built from `base`: by default the swap from base's version.
  virtual CasResult Commit(const TableMetadata& base, MetadataRef next) {
    return CompareAndSwap(base.version, std::move(next));
  }
  // Whether a commit that lost to a concurrent one has been retried by the server already
  // (a REST catalog's requirements): a schema change is then final either way.
  virtual bool ChecksRequirements() const { return false; }
  // Whether a committer writes each attempt's metadata file before the commit (the pointer-swap
  // catalogs) or the catalog writes it (a REST server, to which the client sends only updates).
  // The in-memory REST catalog keeps the client's file as the server's.
  virtual bool ClientWritesMetadata() const { return true; }
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

 protected:
  const std::string table_name_;
  Mutex mu_;
  MetadataRef current_ GUARDED_BY(mu_);
};

// A REST catalog in memory. A commit's requirements (besides the table's uuid, always the same
// here): assert-ref-snapshot-id(main, base's snapshot) when it moves main, and
// assert-current-schema-id(base's schema) when it sets the schema. When they hold on the current
// metadata, the updates (the new snapshot and main, the schema, the removed snapshots) are applied
// to it; else the commit fails as a 409: "Requirement failed: branch main has changed: expected
// id %s != %s", "Requirement failed: current schema changed: expected id %s != %s".
class InMemoryRestCatalog final : public InMemoryCatalog {
 public:
  using InMemoryCatalog::InMemoryCatalog;
  CasResult Commit(const TableMetadata& base, MetadataRef next) override;
  bool ChecksRequirements() const override { return true; }
};

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_CATALOG_H_
