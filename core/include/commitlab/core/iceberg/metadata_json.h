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

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/status.h"

namespace commitlab::iceberg {

// The text of each snapshot object as the last EncodeMetadata given it wrote it. An object
// depends only on its snapshot, that snapshot's parent and the table's location, and a table's
// successive versions share their snapshots (the same objects): kept from one version to the next,
// encoding a version encodes only its new snapshots and copies the others' text. Without it every
// encoding checks each snapshot's files against its parent's again (snapshot_json.cc, Derivable),
// which grows with snapshots x files. One per writer of a table; not thread-safe.
class SnapshotTexts {
 public:
  // The "snapshots" array of `m` as JSON text, the same as encoding it afresh; afterwards holds
  // the texts of `m`'s snapshots and no others.
  std::string Encode(const TableMetadata& m);

 private:
  struct Entry {
    SnapshotRef snapshot;  // held, so that a pointer compared below is never one reused
    const Snapshot* parent = nullptr;
    bool parent_known = false;
    std::string text;
  };
  std::string location_;
  std::map<int64_t, Entry> by_id_;
};

// One line of JSON: TableMetadataParser.toJson's fields. With `texts`, the snapshots it holds from
// the last version encoded are not encoded again (the text is the same either way).
std::string EncodeMetadata(const TableMetadata& m, SnapshotTexts* texts = nullptr);

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

// What a reader keeps of the last version of a table it read: each snapshot with the text of its
// object, so that reading the next version skips every snapshot object that is, byte for byte, one
// read before, rather than lexing it again. A REST commit's answer carries the whole metadata,
// which grows with the table; with this a writer reads what is new in it.
struct SnapshotsRead {
  std::string location;  // the table's location when they were read: the paths depend on it
  std::map<int64_t, std::pair<std::string, SnapshotRef>> by_id;
};

// The metadata of a REST catalog's LoadTableResult or CommitTableResponse body
// ({"metadata-location": ..., "metadata": {...}}), read as DecodeMetadata reads a file at the
// location the body names: the same result and the same errors. The body is parsed once (not the
// document cut out and parsed again); with `read`, the snapshots in it are reused where their text
// is unchanged, and it then holds this version's.
Result<MetadataRef> DecodeLoadResult(std::string_view body, std::string_view where, std::string_view table_name,
                                     const TableMetadata* previous = nullptr, SnapshotsRead* read = nullptr);

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
