// `commitlab import`: a real table's commit log read as a sequence of commits (docs/import.md).
// The three readers (Delta's _delta_log/*.json, Iceberg's metadata/*.metadata.json, Paimon's
// snapshot/snapshot-N) stream the log one commit at a time into an ImportSink, which writes a
// commitlab history, collects a scenario, or counts; no reader needs a data file, a manifest or a
// Parquet checkpoint. What the log itself shows wrong (a duplicate, a fork, a remove of a file
// never added, ...) arrives at the sink as a Finding right after the commit that shows it.
#ifndef COMMITLAB_SIM_IMPORT_IMPORT_H_
#define COMMITLAB_SIM_IMPORT_IMPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/sim/history.h"

namespace commitlab::sim::import {

enum class Format { kDelta, kIceberg, kPaimon };
std::string_view FormatName(Format f);  // "delta", "iceberg", "paimon"
std::optional<Format> ParseFormat(std::string_view s);

// A file a commit added or removed (Delta's add and remove actions; Iceberg and Paimon logs name
// no data files, only counts).
struct FileAction {
  std::string path = {};       // as the log writes it (Delta: relative and URL-encoded)
  std::string partition = {};  // "x=1/y=2" in the table's partition column order; "" unpartitioned
  bool data_change = true;
  bool deletion_vector = false;  // Delta: the add or remove carries a deletionVector
  // Filled in by the checker for a remove: whether the file was live when this commit landed,
  // and (for a remove without partitionValues) the partition its add gave it.
  bool was_live = false;
};

struct ImportedCommit {
  int64_t version = 0;         // Delta: the log version; Iceberg: the metadata version (a folder of metadata
                               // files) or the snapshot's place in the file (one file); Paimon: the snapshot id
  int64_t time_ms = 0;         // when it committed, as the log says (epoch milliseconds)
  std::string writer = {};     // the lane: the committing job (Delta app id or engine, Iceberg job, Paimon user)
  std::string user = {};       // the same as the log spells it
  std::string operation = {};  // Delta's operation, Iceberg's summary operation, Paimon's commitKind
  std::string kind = {};       // APPEND, COMPACT, OVERWRITE, METADATA (no data changed), ANALYZE (Paimon)
  int64_t identifier = 0;      // Paimon's commitIdentifier; 0 elsewhere
  std::optional<int64_t> read_version = {};                // Delta's commitInfo.readVersion
  std::optional<bool> blind_append = {};                   // Delta's commitInfo.isBlindAppend
  std::string isolation = {};                              // Delta's commitInfo.isolationLevel
  std::vector<FileAction> adds = {};                       // Delta only
  std::vector<FileAction> removes = {};                    // Delta only
  std::vector<std::pair<std::string, int64_t>> txns = {};  // Delta's txn actions: appId, version
  bool metadata_change = false;                            // Delta metaData, Iceberg schema/spec/properties change
  std::optional<std::pair<int, int>> protocol = {};        // Delta's protocol action: reader, writer version
  int64_t added_files = 0;  // counts, where the log gives only counts (Iceberg's summary)
  int64_t removed_files = 0;
  int64_t added_delete_files = 0;  // Iceberg: position or equality delete files
  int64_t records = 0;             // rows added (Iceberg added-records, Paimon deltaRecordCount)
  std::string file = {};           // the log file it was read from
  Json details = {};               // the commit's own fields, as the history's "commit" member carries them
};

struct Finding {
  std::string kind = {};              // docs/import.md lists them: concurrent_commit, app_version, ...
  bool problem = false;               // a problem fails `check`; a note is information
  int64_t version = 0;                // the commit that shows it
  std::vector<int64_t> commits = {};  // every commit it involves, in log order
  std::string writer = {};
  std::string message = {};
};

// What was read and what was not, for the history's header and the summary.
struct ImportSource {
  Format format = Format::kDelta;
  std::string path = {};              // as given
  std::string log = {};               // the folder or file the commits came from
  std::optional<int64_t> first = {};  // the first and last version the log holds
  std::optional<int64_t> last = {};
  std::vector<std::string> read = {};      // "the JSON commits 0..13"
  std::vector<std::string> not_read = {};  // each with why: "checkpoint 10 (Parquet): ..."
};

// What a reader learned about the table along the way, for the scenario and the footer.
struct TableFacts {
  std::vector<std::string> partition_columns = {};
  std::string isolation = {};           // Delta: delta.isolationLevel or Serializable; Iceberg: write.*.isolation-level
  bool primary_key = false;             // Paimon, from schema/schema-N
  std::vector<std::string> notes = {};  // what the reader matched or assumed, said once
};

class ImportSink {
 public:
  virtual ~ImportSink() = default;
  // Called once, before the first commit: what will be read.
  virtual Status Begin(const ImportSource& source) = 0;
  virtual Status Commit(ImportedCommit c) = 0;
  virtual Status Found(const Finding& f) = 0;
  // Called once after the last commit (not after an error).
  virtual Status End(const TableFacts& facts) = 0;
};

struct ImportOptions {
  std::string path = {};
  std::optional<Format> format = {};  // detected when absent
  // How many entries of a long list an Iceberg reader holds at a time: metadata file names of a
  // folder (4,096 when 0), snapshot-log entries of one file (16,384 when 0). Fewer cost more
  // passes over the folder or the file, never a different result; the tests set a few to take
  // every pass.
  int64_t memory_entries = 0;
};

// PATH's format from what it holds: a _delta_log folder (or PATH is one), a metadata/*.metadata.json
// (or a .metadata.json file), a snapshot/ folder with snapshot-N files. InvalidArgument naming
// PATH and what was looked for when it holds none, or more than one.
Result<Format> DetectFormat(const std::string& path);

// Reads the log at options.path into `sink`, checking it as it goes. InvalidArgument
// "FILE:LINE: why" for a log that cannot be read as its format (a truncated or non-JSON file, a
// missing version, an unknown action or format version); the sink has then seen a prefix only.
Status ImportLog(const ImportOptions& options, ImportSink* sink);

}  // namespace commitlab::sim::import

#endif  // COMMITLAB_SIM_IMPORT_IMPORT_H_
