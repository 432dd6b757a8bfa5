// What a `commitlab catalog writer` process prints, one JSON object per line, and its reading by
// the race: {"ack": [identifier, snapshot]} once per acknowledged commit, flushed before the next
// commit starts, then {"summary": {...}} when it ends.
#ifndef COMMITLAB_LABS_CATALOG_WRITER_JSON_H_
#define COMMITLAB_LABS_CATALOG_WRITER_JSON_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/catalog_writer.h"

namespace commitlab::cli {

std::string CatalogAckLine(int64_t identifier, int64_t snapshot);
std::string CatalogSummaryLine(const CatalogWriterResult& r, const std::vector<std::string>& fired_faults);

struct CatalogWriterOutput {
  std::vector<std::pair<int64_t, int64_t>> acks = {};
  std::optional<CatalogWriterResult> summary = {};  // absent when the process died first
  std::vector<std::string> fired = {};
};
// Lines that are not this protocol's (a torn last line of a killed process) are skipped.
CatalogWriterOutput ParseCatalogWriterOutput(std::string_view text);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_CATALOG_WRITER_JSON_H_
