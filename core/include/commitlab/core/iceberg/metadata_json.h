// Iceberg table metadata as JSON text: the metadata files a catalog on a real server points to,
// written and read as TableMetadataParser does (apache/iceberg core: every field of format v2 in
// its order; v1 and v3 read and written back in their version), and the snapshot a REST
// add-snapshot update carries (SnapshotParser).
//
// commitlab keeps the files' contents inside the metadata, where Iceberg would name manifests and
// Parquet files: each snapshot object carries them in a member of its own, "commitlab", beside the
// specification's fields (snapshot_json.cc), written as its change to its parent so that a file
// grows with the files of the table, not with files x snapshots. A snapshot without that member
// (written by another client) has its parent's files.
//
// Paths: the model keeps a table's files relative to the table's location ("metadata/00001-..."),
// and the JSON names them under it, as upstream does ("<location>/metadata/00001-...").
#ifndef COMMITLAB_CORE_ICEBERG_METADATA_JSON_H_
#define COMMITLAB_CORE_ICEBERG_METADATA_JSON_H_

#include <string>
#include <string_view>

#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/status.h"

namespace commitlab::iceberg {

// One line of JSON: TableMetadataParser.toJson's fields.
std::string EncodeMetadata(const TableMetadata& m);

// What a metadata file's name says and its text does not: the file's location (the model's
// `location`; its NNNNN- or vN. prefix is the model's `version`) and the table's name.
struct MetadataFileName {
  std::string location = {};
  std::string table_name = {};
};
// Corruption "<where>: <why>" when `text` is not table metadata upstream would read, with
// upstream's message where it has one ("Cannot parse missing int: last-column-id", "schemas must
// exist in format v2", "Cannot read unsupported version 42"), and for what this engine cannot hold
// ("snapshots[2].commitlab.added-files[0]: field "path" is missing").
//
// `previous`, when given, is an earlier version of the same table (the same table-uuid): a
// snapshot it has already is taken from it rather than rebuilt, so reading each new version of a
// growing table costs the new snapshots, not all of them again.
Result<MetadataRef> DecodeMetadata(std::string_view text, std::string_view where, const MetadataFileName& file = {},
                                   const TableMetadata* previous = nullptr);

// A snapshot as the specification's object with its change to its parent (the body of a REST
// add-snapshot update); paths under `table_location`.
std::string EncodeSnapshot(const Snapshot& s, std::string_view table_location = "");
// The snapshot `text` encodes, rebuilt on its parent in `table` (the table the update is applied
// to). Corruption naming `where` for a malformed body; InvalidArgument when it carries commitlab's
// change and its parent is not retained in `table`.
Result<SnapshotRef> DecodeSnapshot(std::string_view text, const TableMetadata& table, std::string_view where);

// A data or delete file with its contents, as a file of a warehouse folder holds it
// (dir_file_io.h): one line of JSON.
std::string EncodeDataFile(const IcebergDataFile& f);
Result<FileRef> DecodeDataFile(std::string_view text, std::string_view where);

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_METADATA_JSON_H_
