// One Iceberg table-metadata file (format/spec.md, "Table Metadata"), read as upstream's
// TableMetadataParser.fromJson reads it, and refused with its messages where it refuses. The file
// is streamed with nlohmann's SAX parser and never held whole: the first pass keeps the top-level
// fields, schemas, specs and refs, and hands over the snapshot-log entry by entry (the
// metadata-log only leaves its newest entry); a later pass hands over the snapshots one at a time.
// So a file of many snapshots costs one snapshot's memory at a time.
#ifndef COMMITLAB_SIM_SRC_IMPORT_ICEBERG_PARSE_H_
#define COMMITLAB_SIM_SRC_IMPORT_ICEBERG_PARSE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/sim/history.h"

namespace commitlab::sim::import::internal {

struct IcebergSnapshot {
  int64_t id = 0;
  std::optional<int64_t> parent = {};
  int64_t sequence = 0;  // 0 in format v1 (INITIAL_SEQUENCE_NUMBER)
  int64_t timestamp_ms = 0;
  std::string operation = {};     // summary.operation; "overwrite" when the summary lacks it
  Json summary = Json::object();  // every summary entry but operation
  std::optional<int64_t> schema_id = {};
  size_t line = 0;  // where it starts in its file
};

struct IcebergLogEntry {
  int64_t timestamp_ms = 0;
  int64_t snapshot_id = 0;  // snapshot-log
  std::string file = {};    // metadata-log
};

struct IcebergMetadata {
  std::string file = {};
  int format_version = 0;
  int64_t last_sequence_number = 0;
  int64_t last_updated_ms = 0;
  int64_t current_snapshot_id = -1;  // -1: none (absent, null or -1)
  int current_schema_id = 0;
  std::vector<std::string> partition_fields = {};  // the default spec's field names
  std::map<std::string, std::string> properties = {};
  std::map<std::string, int64_t> refs = {};  // name -> snapshot id
  int64_t snapshot_log_entries = 0;
  int64_t metadata_log_entries = 0;
  std::optional<IcebergLogEntry> last_metadata_log = {};  // the version this one was written on
  int64_t snapshots = 0;
};

// Called with each snapshot-log entry, in file order.
using SnapshotLogFn = std::function<void(const IcebergLogEntry&)>;

// The first pass: everything but the snapshots, checked as TableMetadataParser.fromJson checks
// it; `log`, when given, sees each snapshot-log entry. InvalidArgument "FILE:LINE: <upstream's
// message>".
Status ReadIcebergTop(const std::string& file, IcebergMetadata* out, const SnapshotLogFn& log = {});

// The second pass: each snapshot in file order, checked as SnapshotParser.fromJson does and
// against last-sequence-number; then the refs and current-snapshot-id against the snapshots
// seen (TableMetadata's own checks). `each` may stop the pass with an error; `log`, when given,
// sees each snapshot-log entry in the same pass.
Status ReadIcebergSnapshots(const std::string& file, IcebergMetadata* meta,
                            const std::function<Status(IcebergSnapshot)>& each, const SnapshotLogFn& log = {});

// Only the snapshot-log entries, in order (a file ReadIcebergTop accepted).
Status ReadIcebergSnapshotLog(const std::string& file, const SnapshotLogFn& log);

}  // namespace commitlab::sim::import::internal

#endif  // COMMITLAB_SIM_SRC_IMPORT_ICEBERG_PARSE_H_
