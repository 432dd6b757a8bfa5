// Iceberg table metadata as JSON text: the metadata files a catalog on a real server points to
// (TableMetadataParser in apache/iceberg core), and the snapshot a REST add-snapshot update carries
// (SnapshotParser). Our model keeps what a reader needs inside the metadata, so the files'
// contents travel with it where upstream would name manifests and Parquet files.
//
// A snapshot is written as its change to its parent (the files it added in full, the paths it
// removed, the manifest it wrote): a reader rebuilds its live files, delete files, data sequence
// numbers and carried-over manifests from the parent the way ApplySnapshot built them, so a
// metadata file grows with the files of the table, not with files x snapshots. A snapshot whose
// parent is no longer retained is written whole.
#ifndef COMMITLAB_CORE_ICEBERG_METADATA_JSON_H_
#define COMMITLAB_CORE_ICEBERG_METADATA_JSON_H_

#include <string>
#include <string_view>

#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/status.h"

namespace commitlab::iceberg {

// One line of JSON.
std::string EncodeMetadata(const TableMetadata& m);
// Corruption "<where>: snapshots[2].added-files[0]: field "path" is missing" and the like when
// `text` is not a metadata document this model wrote.
Result<MetadataRef> DecodeMetadata(std::string_view text, std::string_view where);

// A snapshot as its change to its parent (the body of a REST add-snapshot update).
std::string EncodeSnapshot(const Snapshot& s);
// The snapshot `text` encodes, rebuilt on its parent in `table` (the table the update is applied
// to). Corruption naming `where` for a malformed body; InvalidArgument when its parent is not
// retained in `table` (a snapshot is only added on top of a snapshot the table has).
Result<SnapshotRef> DecodeSnapshot(std::string_view text, const TableMetadata& table, std::string_view where);

// A data or delete file with its contents, as a file of a warehouse folder holds it
// (dir_file_io.h): one line of JSON.
std::string EncodeDataFile(const IcebergDataFile& f);
Result<FileRef> DecodeDataFile(std::string_view text, std::string_view where);

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_METADATA_JSON_H_
