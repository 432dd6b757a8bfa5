// The Iceberg table model, after TableMetadata / Snapshot / ManifestFile / DataFile in
// apache/iceberg core: a catalog pointer names one immutable metadata version; each version lists
// the retained snapshots; each snapshot names its manifest list, its manifests and the data files
// live in it. Everything is immutable once built and shared through shared_ptr<const ...>, so a
// reader holding a snapshot needs no lock while writers build the next version.
//
// Simplified: one branch (main), manifests reduced to "the files a commit added" (a snapshot keeps
// a manifest while any of its files is live). Format v2 delete files (merge-on-read row deltas)
// are kept apart from data files, as Iceberg keeps delete manifests apart; no deletion vectors.
#ifndef COMMITLAB_CORE_ICEBERG_MODEL_H_
#define COMMITLAB_CORE_ICEBERG_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "commitlab/core/expression.h"
#include "commitlab/core/iceberg/file_set.h"
#include "commitlab/core/iceberg/metadata_log.h"
#include "commitlab/core/iceberg/persistent_vector.h"
#include "commitlab/core/model.h"

namespace commitlab::iceberg {

using commitlab::FormatValue;
using commitlab::RawValue;
using commitlab::Row;
using commitlab::Value;

// FileContent: DATA, POSITION_DELETES, EQUALITY_DELETES.
enum class FileContent { kData, kPositionDeletes, kEqualityDeletes };

// A position delete: row `pos` (0-based, in file order) of the data file at `path`.
struct PositionDelete {
  std::string path;
  int64_t pos = 0;
  bool operator==(const PositionDelete&) const = default;
};

// A data or delete file with what it holds, so that reads, filters and the lost-update counter
// are computed from contents. file.name is the path (Iceberg identifies files by location);
// file.partition is "" or "k=v[/k=v...]" (identity partitions). A data file's rows are its
// records; an equality delete file's rows are the values (of equality_columns) whose rows it
// deletes; a position delete file lists its positions. file.row_count counts either.
struct IcebergDataFile {
  DataFile file = {};
  FileContent content = FileContent::kData;
  std::vector<Row> rows = {};
  std::vector<std::string> equality_columns = {};  // equality deletes
  std::vector<PositionDelete> positions = {};      // position deletes

  const std::string& path() const { return file.name; }
  bool is_delete() const { return content != FileContent::kData; }
};
using FileRef = std::shared_ptr<const IcebergDataFile>;
FileRef MakeDataFile(std::string path, std::vector<Row> rows, std::string partition = "");
FileRef MakePositionDeleteFile(std::string path, std::vector<PositionDelete> positions, std::string partition = "");
FileRef MakeEqualityDeleteFile(std::string path, std::vector<std::string> columns, std::vector<Row> rows,
                               std::string partition = "");

// DataOperations: what a snapshot did, and so which validations look at it.
enum class DataOperation { kAppend, kReplace, kOverwrite, kDelete };
std::string_view DataOperationName(DataOperation op);  // "append", "replace", "overwrite", "delete"

// IsolationLevel: which concurrent changes a validating operation treats as conflicts.
enum class IsolationLevel { kSerializable, kSnapshot };
std::string_view IsolationLevelName(IsolationLevel level);  // "serializable", "snapshot"
std::optional<IsolationLevel> ParseIsolationLevel(std::string_view s);

// A manifest written by one commit: the files it added. Written once per commit and reused by
// every retry (sequence-number inheritance: only the manifest list is rewritten).
struct ManifestFile {
  std::string path = {};  // metadata/<commit-uuid>-m0.avro
  int64_t added_snapshot_id = 0;
  std::vector<std::string> files = {};
};
using ManifestRef = std::shared_ptr<const ManifestFile>;

struct Snapshot {
  int64_t snapshot_id = 0;                // random, assigned once per commit, stable across retries
  std::optional<int64_t> parent_id = {};  // the branch head the successful attempt built on
  int64_t sequence_number = 0;            // re-assigned on every attempt
  int64_t timestamp_ms = 0;
  DataOperation operation = DataOperation::kAppend;
  std::string committed_by = {};  // the writer (kept in the summary upstream, e.g. spark.app.id)
  int32_t schema_id = 0;
  std::string manifest_list = {};                // metadata/snap-<id>-<attempt>-<commit-uuid>.avro
  PersistentVector<ManifestRef> manifests = {};  // the manifest list's entries
  std::vector<FileRef> added_files = {};
  std::vector<FileRef> deleted_files = {};
  std::vector<FileRef> added_delete_files = {};    // row deltas
  std::vector<FileRef> removed_delete_files = {};  // dropped with their data, or rewritten
  // The data files live after this snapshot, each with its data sequence number (that of the
  // snapshot that added it): a delete applies to data of lower sequence numbers (a position delete
  // also to its own). Never null.
  std::shared_ptr<const FileSet> live_files = {};
  // The delete files live after it, with their data sequence numbers; null or empty when there are
  // none.
  std::shared_ptr<const FileSet> live_deletes = {};
  std::map<std::string, std::string> summary = {};  // added-data-files, total-records, ...
};
using SnapshotRef = std::shared_ptr<const Snapshot>;

// What Iceberg's TableMetadata holds beyond what this engine models, kept so that a catalog hands
// a table's metadata on whole (TableMetadataParser's fields): its uuid and location, schemas,
// partition specs and sort orders (JSON text, written back as read), properties, refs other than
// main, and later formats' fields. One value shared by every version that does not change it.
struct TableFields {
  int32_t format_version = 2;
  std::string uuid = {};      // table-uuid: random, RFC 4122 version 4
  std::string location = {};  // the table's root (TableMetadata.location()), not a metadata file
  int32_t last_column_id = 0;
  std::string schemas = {};  // a JSON array; "" is one schema without fields, id current_schema_id
  int32_t default_spec_id = 0;
  std::string partition_specs = {};  // a JSON array; "" is the unpartitioned spec 0
  int32_t last_partition_id = 999;   // PartitionSpec.unpartitioned().lastAssignedFieldId()
  int32_t default_sort_order_id = 0;
  std::string sort_orders = {};  // a JSON array; "" is the unsorted order 0
  std::map<std::string, std::string> properties = {};
  std::string other_refs = {};  // a JSON object of the refs but main; "" when none
  std::string extra = {};       // a JSON object of the fields kept as read (statistics, next-row-id, ...)
};

struct TableMetadata {
  std::string table_name = {};
  int64_t version = 0;        // the N of metadata/NNNNN-<uuid>.metadata.json; create is 0
  std::string location = {};  // this version's metadata file
  int32_t current_schema_id = 0;
  int64_t last_sequence_number = 0;
  int64_t last_updated_ms = 0;
  std::optional<int64_t> current_snapshot_id = {};
  PersistentVector<SnapshotRef> snapshots = {};    // retained snapshots, oldest first
  MetadataLog metadata_log = {};                   // earlier metadata files, oldest first
  std::shared_ptr<const TableFields> fields = {};  // null: TableFields' defaults

  // *fields, or the defaults.
  const TableFields& Fields() const;

  // nullptr when `id` is not retained (never committed, or expired).
  SnapshotRef FindSnapshot(int64_t id) const;
  // nullptr for a table without snapshots.
  SnapshotRef CurrentSnapshot() const;
  // The current snapshot's live files (empty without a snapshot).
  const FileSet& LiveFiles() const;
  // The current snapshot's live delete files (empty without a snapshot).
  const FileSet& LiveDeletes() const;
};
using MetadataRef = std::shared_ptr<const TableMetadata>;

// The metadata of a new, empty table: version 0 at metadata/00000-<uuid>.metadata.json.
TableMetadata NewTableMetadata(std::string table_name, int32_t schema_id = 0,
                               std::string_view uuid = "00000000-0000-0000-0000-000000000000");
// metadata/00042-<uuid>.metadata.json, as BaseMetastoreTableOperations names them.
std::string MetadataFilePath(int64_t version, std::string_view uuid);

// Java's Long as SnapshotProducer prints it in messages; "null" for none.
std::string FormatSnapshotId(const std::optional<int64_t>& id);

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_MODEL_H_
