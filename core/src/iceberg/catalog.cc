#include "commitlab/core/iceberg/catalog.h"

#include <fmt/format.h>

#include <memory>
#include <utility>

namespace commitlab::iceberg {

std::string_view CasOutcomeName(CasOutcome outcome) {
  switch (outcome) {
    case CasOutcome::kSwapped: return "swapped";
    case CasOutcome::kLost: return "lost";
    case CasOutcome::kUnknown: return "unknown";
  }
  return "?";
}

InMemoryCatalog::InMemoryCatalog(std::string table_name, int32_t schema_id)
    : table_name_(std::move(table_name)),
      current_(std::make_shared<const TableMetadata>(NewTableMetadata(table_name_, schema_id))) {}

Result<MetadataRef> InMemoryCatalog::Current() {
  std::lock_guard<std::mutex> l(mu_);
  return current_;
}

CasResult InMemoryCatalog::CompareAndSwap(int64_t expected_version, MetadataRef new_metadata) {
  if (new_metadata == nullptr || new_metadata->version != expected_version + 1) {
    return {CasOutcome::kUnknown,
            fmt::format("Invalid metadata for version {} of table {}", expected_version + 1, table_name_)};
  }
  std::lock_guard<std::mutex> l(mu_);
  if (current_->version != expected_version) {
    // The new metadata logs the file it was built from: the location the writer read.
    const std::string old_location =
        new_metadata->metadata_log.empty() ? std::string("null") : new_metadata->metadata_log.back();
    return {CasOutcome::kLost,
            fmt::format("Cannot commit to table {} metadata location from {} to {} because it has been "
                        "concurrently modified to {}",
                        table_name_, old_location, new_metadata->location, current_->location)};
  }
  current_ = std::move(new_metadata);
  return {CasOutcome::kSwapped, ""};
}

}  // namespace commitlab::iceberg
