// Reading metadata JSON (metadata_json.cc, snapshot_json.cc): a Reader keeps the first error with
// where it was, and later reads do nothing. Two kinds of reads: the specification's fields, with
// the messages of Iceberg's JsonUtil ("Cannot parse missing int: last-column-id"), and commitlab's
// own members ("snapshots[2].commitlab.added-files[0]: field "path" is missing").
#ifndef COMMITLAB_CORE_SRC_ICEBERG_METADATA_JSON_READER_H_
#define COMMITLAB_CORE_SRC_ICEBERG_METADATA_JSON_READER_H_

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/iceberg/metadata_json.h"
#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/status.h"

namespace commitlab::iceberg::internal {

using nlohmann::json;
using nlohmann::ordered_json;

class Reader {
 public:
  bool ok() const { return error_.empty(); }
  Status Error(std::string_view where) const;
  void Fail(std::string_view at, std::string_view why);

  // JsonUtil.getInt / getLong / getString / getIntOrNull / getLongOrNull / getStringOrNull.
  int32_t GetInt(const json& obj, std::string_view at, std::string_view key);
  int64_t GetLong(const json& obj, std::string_view at, std::string_view key);
  std::string GetString(const json& obj, std::string_view at, std::string_view key);
  std::optional<int32_t> GetIntOrNull(const json& obj, std::string_view at, std::string_view key);
  std::optional<int64_t> GetLongOrNull(const json& obj, std::string_view at, std::string_view key);
  std::optional<std::string> GetStringOrNull(const json& obj, std::string_view at, std::string_view key);

  // commitlab's members: 'field "k" is missing' and the like.
  const json* Field(const json& obj, std::string_view at, std::string_view key);
  int64_t Int(const json& obj, std::string_view at, std::string_view key);
  std::string String(const json& obj, std::string_view at, std::string_view key);
  const json& Array(const json& obj, std::string_view at, std::string_view key);  // none after an error
  std::vector<std::string> Strings(const json& obj, std::string_view at, std::string_view key);

 private:
  std::string error_;
};

// The JSON object `text` holds: Corruption "<where>: empty file", "<where>: <parse error>" or
// "<where>: expected a JSON object" otherwise.
Result<json> ParseDocument(std::string_view text, std::string_view where);

// A data or delete file with its contents (data_file_json.cc).
ordered_json FileJson(const IcebergDataFile& f);
FileRef ReadFile(Reader& r, const json& j, const std::string& at);

// "key[i]" or "at.key[i]".
std::string At(std::string_view at, std::string_view key, size_t i);

// A path of the table as the specification writes it: under the table's location ("metadata/x"
// becomes "<location>/metadata/x"); a path that is absolute already, or a table without a
// location, as it is. Relative is the inverse, for reading.
std::string Absolute(std::string_view table_location, const std::string& path);
std::string Relative(std::string_view table_location, const std::string& path);

// A snapshot as the specification's object (SnapshotParser.toJson) with commitlab's files beside
// it in the member "commitlab": its change to `parent` when that rebuilds it, else whole.
// `parent_known`: the parent is retained in the document being written (or it has none).
ordered_json SnapshotJson(const Snapshot& s, const Snapshot* parent, bool parent_known,
                          std::string_view table_location);
// The snapshot `j` holds (SnapshotParser.fromJson). Its files: commitlab's member rebuilt on its
// parent in `table` (which must be there for a change), or the parent's files when the member is
// absent (a snapshot another client wrote, whose manifests this engine cannot read).
SnapshotRef ReadSnapshot(Reader& r, const json& j, const std::string& at, const TableMetadata& table,
                         std::string_view table_location);

// TableMetadataParser.fromJson on a parsed document (metadata_json.cc). `reused`: snapshots by
// their position in "snapshots", whose element there is a stand-in (a number) for an object read
// before (metadata_json_reuse.cc).
Result<MetadataRef> ReadDocument(const json& j, std::string_view where, const MetadataFileName& file,
                                 const TableMetadata* previous, const std::map<size_t, SnapshotRef>* reused = nullptr);

}  // namespace commitlab::iceberg::internal

#endif  // COMMITLAB_CORE_SRC_ICEBERG_METADATA_JSON_READER_H_
