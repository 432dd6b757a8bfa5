// The Delta log's model: the actions one commit file N.json holds (add, remove, metaData,
// protocol, txn, commitInfo), the isolation levels and the operations, as Delta Lake names them
// (PROTOCOL.md, actions.scala, isolationLevels.scala, DeltaOperations.scala).
//
// A Commit groups its actions by kind instead of keeping N.json's line order: the conflict
// checker and the snapshot replay only ever ask "which adds / removes / ... did it hold".
#ifndef COMMITLAB_CORE_DELTA_ACTIONS_H_
#define COMMITLAB_CORE_DELTA_ACTIONS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/expression.h"
#include "commitlab/core/model.h"

namespace commitlab::delta {

// Strictness order: Serializable > WriteSerializable > SnapshotIsolation. Tables choose one of
// the first two; SnapshotIsolation is what a commit that changes no data is downgraded to.
enum class IsolationLevel { kSerializable, kWriteSerializable, kSnapshotIsolation };
std::string_view IsolationLevelName(IsolationLevel l);  // "Serializable", "WriteSerializable", ...
std::optional<IsolationLevel> ParseIsolationLevel(std::string_view s);

// The operation a commitInfo names. INSERT is an append; OPTIMIZE rewrites files with
// dataChange=false; the last four touch table metadata or an application's progress.
enum class Operation {
  kInsert,
  kUpdate,
  kDelete,
  kMerge,
  kOptimize,
  kStreamingUpdate,
  kCreateTable,
  kSetTableProperties,
  kUpgradeProtocol,
};
// "INSERT", "UPDATE", "DELETE", "MERGE", "OPTIMIZE", "STREAMING UPDATE", "CREATE TABLE",
// "SET TBLPROPERTIES", "UPGRADE PROTOCOL"; ParseOperation accepts exactly these.
std::string_view OperationName(Operation op);
std::optional<Operation> ParseOperation(std::string_view s);
// Delta's Operation.changesData: false for OPTIMIZE and for metadata-only operations. With a
// WriteSerializable table only an operation that changes no data may downgrade its isolation.
bool OperationChangesData(Operation op);

// An add or remove action. `file.name` is Delta's path (the file's identity in the log);
// `file.partition` is its partition values in "x=1" or "x=1/y=2" form ("" when unpartitioned).
struct AddFile {
  DataFile file = {};
  bool data_change = true;
  bool operator==(const AddFile&) const = default;
};
struct RemoveFile {
  DataFile file = {};
  bool data_change = true;
  bool operator==(const RemoveFile&) const = default;
};

// The table property that selects the isolation level of data-changing commits.
inline constexpr std::string_view kIsolationLevelProperty = "delta.isolationLevel";

struct Metadata {
  std::string id = {};      // table id
  std::string schema = {};  // e.g. "id INT, x INT"
  std::vector<std::string> partition_columns = {};
  std::map<std::string, std::string> configuration = {};  // table properties
  bool operator==(const Metadata&) const = default;
};
// delta.isolationLevel when set to a valid level, else Serializable (open-source Delta's default;
// Databricks defaults to WriteSerializable). An unknown value also gives Serializable.
IsolationLevel TableIsolationLevel(const Metadata& m);

struct Protocol {
  int32_t min_reader_version = 1;
  int32_t min_writer_version = 2;
  std::vector<std::string> writer_features = {};
  bool operator==(const Protocol&) const = default;
};
// TableFeature.isProtocolRemovingExplicitFeatures: a feature of `old_p` is missing from `new_p`.
bool DropsFeatures(const Protocol& new_p, const Protocol& old_p);

// An application's progress marker (exactly-once streaming sinks): (appId, version).
struct SetTransaction {
  std::string app_id = {};
  int64_t version = 0;
  bool operator==(const SetTransaction&) const = default;
};

// A scan's partition filter, reduced to what the conflict checker evaluates: TRUE (a full scan)
// or "partition in {...}".
struct ReadPredicate {
  std::optional<std::vector<std::string>> partitions = {};  // nullopt: TRUE (unless `filter`)
  // A partition filter (Spark's partitionFilters of a filterFiles call, ANDed), evaluated on each
  // file's partition values; `partitions` is then nullopt.
  std::optional<Expression> filter = {};

  static ReadPredicate All() { return {}; }
  static ReadPredicate In(std::vector<std::string> p) { return {std::move(p)}; }
  static ReadPredicate Where(Expression partition_filter) { return {std::nullopt, std::move(partition_filter)}; }
  bool Matches(const DataFile& f) const;
  std::string ToString() const;  // "true", "x=1", "x=1 OR x=2", "(x > 1 AND x <= 3)"
  bool operator==(const ReadPredicate&) const = default;
};

// A filter in Spark SQL's words, without its attribute ids and extra parentheses: x >= 2,
// (a = 1 AND b = 'p'), NOT x = 1.
std::string FormatSqlPredicate(const Expression& e);

struct CommitInfo {
  int64_t timestamp_millis = 0;
  std::string user_name = {};  // the writer
  Operation operation = Operation::kInsert;
  int64_t read_version = -1;                                       // -1: the table did not exist
  IsolationLevel isolation_level = IsolationLevel::kSerializable;  // the level this commit used
  bool is_blind_append = false;
  std::vector<std::string> read_predicates = {};  // ReadPredicate::ToString of each scan
  std::vector<std::string> read_files = {};       // names of the files the transaction read
  std::string txn_id = {};
  bool operator==(const CommitInfo&) const = default;
};

// The JSON Delta prints as "Conflicting commit: ..." (commitInfo with its version), compact and
// with fields in Delta's order.
std::string CommitInfoJson(const CommitInfo& ci, int64_t version);

// One log entry, N.json.
struct Commit {
  std::vector<AddFile> adds = {};
  std::vector<RemoveFile> removes = {};
  std::optional<Metadata> metadata = {};
  std::optional<Protocol> protocol = {};
  std::vector<SetTransaction> txns = {};
  CommitInfo commit_info = {};

  // Lines in N.json, commitInfo included.
  size_t ActionCount() const;
  bool operator==(const Commit&) const = default;
};

// "00000000000000000001.json": the 20-digit zero-padded name of version N's log file.
std::string DeltaFileName(int64_t version);

// Delta's getPrettyPartitionMessage: "partition [x=1, y=2]", or "the root of the table" for an
// unpartitioned table.
std::string PrettyPartition(const DataFile& f, bool partitioned);

}  // namespace commitlab::delta

#endif  // COMMITLAB_CORE_DELTA_ACTIONS_H_
