// An Iceberg table's history (run/runner_history.h): per-writer handles on the table's catalog and
// file store that note each call's result into the writer's history, and the table's lookups.
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_ICEBERG_HISTORY_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_ICEBERG_HISTORY_H_

#include <memory>
#include <string>
#include <vector>

#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/file_io.h"
#include "run/runner_history.h"

namespace commitlab::scenarios::internal {

class NotingCatalog final : public iceberg::IcebergCatalog {
 public:
  NotingCatalog(iceberg::IcebergCatalog* target, WriterHistory* history) : target_(target), history_(history) {}
  const std::string& table_name() const override { return target_->table_name(); }
  Result<iceberg::MetadataRef> Current() override;
  iceberg::CasResult CompareAndSwap(int64_t expected_version, iceberg::MetadataRef new_metadata) override;
  iceberg::CasResult Commit(const iceberg::TableMetadata& base, iceberg::MetadataRef next) override;
  bool ChecksRequirements() const override { return target_->ChecksRequirements(); }
  bool ClientWritesMetadata() const override { return target_->ClientWritesMetadata(); }

 private:
  iceberg::IcebergCatalog* const target_;
  WriterHistory* const history_;
};

class NotingFileIO final : public iceberg::FileIO {
 public:
  NotingFileIO(iceberg::FileIO* target, WriterHistory* history) : target_(target), history_(history) {}
  Status Write(iceberg::StoredFile f) override;
  Result<iceberg::FileRef> ReadDataFile(const std::string& path) override;
  bool Exists(const std::string& path) override { return target_->Exists(path); }
  Status Delete(const std::string& path) override;
  std::vector<iceberg::StoredFile> List() override { return target_->List(); }

 private:
  iceberg::FileIO* const target_;
  WriterHistory* const history_;
};

// Who wrote a metadata version, and which retained snapshot last added or deleted a file: read
// straight from the catalog and the file store.
std::unique_ptr<TableLookup> MakeIcebergLookup(iceberg::IcebergCatalog* catalog, iceberg::FileIO* io);

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_ICEBERG_HISTORY_H_
