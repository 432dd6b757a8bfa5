// One Delta commit file, NNNNNNNNNNNNNNNNNNNN.json, read action by action (PROTOCOL.md, "Actions").
#include <sys/stat.h>

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

#include "delta_log.h"
#include "json_input.h"

namespace commitlab::sim::import::internal {
namespace {

// Hive's name for a null partition value, which Spark writes into paths.
constexpr std::string_view kNullPartition = "__HIVE_DEFAULT_PARTITION__";
// PROTOCOL.md, "Protocol Evolution": reader versions 1..3, writer versions 1..7 (table features).
constexpr int kMaxReaderVersion = 3;
constexpr int kMaxWriterVersion = 7;

struct RawFile {
  FileAction action;
  Json partition_values;  // as the log gives them; made a string once the columns are known
};

class CommitReader {
 public:
  CommitReader(std::string file, int64_t version, DeltaTable* table, ImportedCommit* out)
      : file_(std::move(file)), version_(version), table_(table), out_(out) {}

  Status Action(const Json& line, size_t n) {
    if (!line.is_object() || line.size() != 1)
      return Bad(file_, n, "not one action: each line of a commit is an object with one member (PROTOCOL.md)");
    const std::string& name = line.begin().key();
    const Json& a = line.begin().value();
    if (!a.is_object()) return Bad(file_, n, fmt::format("action {} is not an object", name));
    ++actions_;
    if (name == "commitInfo") return CommitInfo(a, n);
    if (name == "add" || name == "remove") return FileActionOf(name, a, n);
    if (name == "metaData") return Metadata(a, n);
    if (name == "protocol") return Protocol(a, n);
    if (name == "txn") return Txn(a, n);
    if (name == "cdc") {
      ++cdc_;
      return Status::OK();
    }
    if (name == "domainMetadata") {
      COMMITLAB_ASSIGN_OR_RETURN(std::optional<std::string> domain, OptString(a, "domain", name, file_, n));
      domains_.push_back(domain.value_or(""));
      return Status::OK();
    }
    if (name == "checkpointMetadata" || name == "sidecar")
      return Bad(file_, n, fmt::format("action {} belongs in a V2 checkpoint, not in a commit (PROTOCOL.md)", name));
    return Bad(file_, n,
               fmt::format("unknown action \"{}\" (PROTOCOL.md's actions: add, remove, metaData, protocol, commitInfo, "
                           "txn, cdc, domainMetadata; checkpointMetadata and sidecar in checkpoints only)",
                           name));
  }

  size_t actions() const { return actions_; }
  Status Finish();

 private:
  Status CommitInfo(const Json& a, size_t n);
  Status FileActionOf(const std::string& name, const Json& a, size_t n);
  Status Metadata(const Json& a, size_t n);
  Status Protocol(const Json& a, size_t n);
  Status Txn(const Json& a, size_t n);
  std::string Partition(const Json& values) const;
  void Who();
  void When();
  Json FilesJson(const std::vector<FileAction>& files) const;

  const std::string file_;
  const int64_t version_;
  DeltaTable* const table_;
  ImportedCommit* const out_;
  size_t actions_ = 0;
  Json commit_info_ = Json::object();
  std::optional<int64_t> timestamp_;
  std::optional<int64_t> in_commit_timestamp_;
  std::string engine_;
  std::vector<RawFile> adds_;
  std::vector<RawFile> removes_;
  Json metadata_change_;  // what a metaData action changed
  Json protocol_;
  int64_t cdc_ = 0;
  std::vector<std::string> domains_;
};

Status CommitReader::CommitInfo(const Json& a, size_t n) {
  const std::string where = "commitInfo";
  auto ts = OptInt(a, "timestamp", where, file_, n);
  auto ict = OptInt(a, "inCommitTimestamp", where, file_, n);
  auto op = OptString(a, "operation", where, file_, n);
  auto level = OptString(a, "isolationLevel", where, file_, n);
  auto read = OptInt(a, "readVersion", where, file_, n);
  auto blind = OptBool(a, "isBlindAppend", where, file_, n);
  auto txn_id = OptString(a, "txnId", where, file_, n);
  auto engine = OptString(a, "engineInfo", where, file_, n);
  for (const Status& st : {ts.status(), ict.status(), op.status(), level.status(), read.status(), blind.status(),
                           txn_id.status(), engine.status()})
    COMMITLAB_RETURN_IF_ERROR(st);
  timestamp_ = *ts;
  in_commit_timestamp_ = *ict;
  out_->operation = op->value_or("");
  out_->isolation = level->value_or("");
  out_->read_version = *read;
  out_->blind_append = *blind;
  engine_ = engine->value_or("");
  // What the issue of a regression asks about: when, what, under which level, from which version,
  // blind or not, by which transaction and engine.
  for (const char* key : {"timestamp", "inCommitTimestamp", "operation", "operationParameters", "isolationLevel",
                          "readVersion", "isBlindAppend", "txnId", "engineInfo", "clusterId", "userName"}) {
    if (a.contains(key)) commit_info_[key] = a[key];
  }
  return Status::OK();
}

Status CommitReader::FileActionOf(const std::string& name, const Json& a, size_t n) {
  auto path = OptString(a, "path", name, file_, n);
  auto data_change = OptBool(a, "dataChange", name, file_, n);
  for (const Status& st : {path.status(), data_change.status()}) COMMITLAB_RETURN_IF_ERROR(st);
  if (!*path || (*path)->empty()) return Bad(file_, n, fmt::format("{} without a path", name));
  RawFile f;
  f.action.path = **path;
  f.action.data_change = data_change->value_or(true);
  f.action.deletion_vector = a.contains("deletionVector") && a["deletionVector"].is_object();
  if (a.contains("partitionValues")) {
    const Json& pv = a["partitionValues"];
    if (!pv.is_object()) return Bad(file_, n, fmt::format("{}.partitionValues is not an object", name));
    for (const auto& [k, v] : pv.items()) {
      if (!v.is_string() && !v.is_null())
        return Bad(file_, n, fmt::format("{}.partitionValues.{} is not a string or null", name, k));
    }
    f.partition_values = pv;
  }
  (name == "add" ? adds_ : removes_).push_back(std::move(f));
  return Status::OK();
}

Status CommitReader::Metadata(const Json& a, size_t n) {
  auto schema = OptString(a, "schemaString", "metaData", file_, n);
  COMMITLAB_RETURN_IF_ERROR(schema.status());
  std::vector<std::string> columns;
  if (a.contains("partitionColumns")) {
    if (!a["partitionColumns"].is_array()) return Bad(file_, n, "metaData.partitionColumns is not an array");
    for (const Json& c : a["partitionColumns"]) {
      if (!c.is_string()) return Bad(file_, n, "metaData.partitionColumns holds a value that is not a string");
      columns.push_back(c.get<std::string>());
    }
  }
  std::map<std::string, std::string> config;
  if (a.contains("configuration") && !a["configuration"].is_null()) {
    if (!a["configuration"].is_object()) return Bad(file_, n, "metaData.configuration is not an object");
    for (const auto& [k, v] : a["configuration"].items()) config[k] = v.is_string() ? v.get<std::string>() : v.dump();
  }
  Json change = Json::object();
  if (!table_->has_metadata) {
    change["created"] = true;
  } else {
    if (schema->value_or("") != table_->schema) change["schema"] = "changed";
  }
  if (!table_->has_metadata || columns != table_->partition_columns) change["partitionColumns"] = columns;
  Json changed_config = Json::object();
  for (const auto& [k, v] : config)
    if (auto it = table_->configuration.find(k); it == table_->configuration.end() || it->second != v)
      changed_config[k] = v;
  for (const auto& [k, v] : table_->configuration)
    if (config.count(k) == 0) changed_config[k] = nullptr;
  if (!changed_config.empty()) change["configuration"] = changed_config;
  metadata_change_ = std::move(change);
  table_->has_metadata = true;
  table_->schema = schema->value_or("");
  table_->partition_columns = std::move(columns);
  // delta.isolationLevel (DeltaConfigs.ISOLATION_LEVEL); Serializable when unset.
  auto level = config.find("delta.isolationLevel");
  table_->isolation = level == config.end() ? "Serializable" : level->second;
  table_->configuration = std::move(config);
  return Status::OK();
}

Status CommitReader::Protocol(const Json& a, size_t n) {
  auto reader = OptInt(a, "minReaderVersion", "protocol", file_, n);
  auto writer = OptInt(a, "minWriterVersion", "protocol", file_, n);
  for (const Status& st : {reader.status(), writer.status()}) COMMITLAB_RETURN_IF_ERROR(st);
  if (!*reader || !*writer) return Bad(file_, n, "protocol without minReaderVersion and minWriterVersion");
  if (**reader < 1 || **reader > kMaxReaderVersion || **writer < 1 || **writer > kMaxWriterVersion) {
    return Bad(file_, n,
               fmt::format("protocol ({}, {}): Delta defines reader versions 1..{} and writer versions 1..{} "
                           "(PROTOCOL.md, \"Protocol Evolution\"); a newer log is not understood here",
                           **reader, **writer, kMaxReaderVersion, kMaxWriterVersion));
  }
  protocol_ = Json::object();
  for (const char* key : {"minReaderVersion", "minWriterVersion", "readerFeatures", "writerFeatures"})
    if (a.contains(key)) protocol_[key] = a[key];
  out_->protocol = std::pair<int, int>(static_cast<int>(**reader), static_cast<int>(**writer));
  table_->reader_version = static_cast<int>(**reader);
  table_->writer_version = static_cast<int>(**writer);
  return Status::OK();
}

Status CommitReader::Txn(const Json& a, size_t n) {
  auto app = OptString(a, "appId", "txn", file_, n);
  auto version = OptInt(a, "version", "txn", file_, n);
  for (const Status& st : {app.status(), version.status()}) COMMITLAB_RETURN_IF_ERROR(st);
  if (!*app || !*version) return Bad(file_, n, "txn without appId and version");
  out_->txns.emplace_back(**app, **version);
  return Status::OK();
}

// "a=1/b=2" in the table's partition column order; a column the file lacks is left out, a value
// the table does not declare follows in name order.
std::string CommitReader::Partition(const Json& values) const {
  if (!values.is_object() || values.empty()) return "";
  std::string out;
  auto add = [&out](const std::string& k, const Json& v) {
    const std::string value =
        v.is_string() && !v.get_ref<const std::string&>().empty() ? v.get<std::string>() : std::string(kNullPartition);
    out += (out.empty() ? "" : "/") + k + "=" + value;
  };
  for (const std::string& c : table_->partition_columns)
    if (values.contains(c)) add(c, values[c]);
  std::set<std::string> rest;
  for (const auto& [k, v] : values.items())
    if (std::find(table_->partition_columns.begin(), table_->partition_columns.end(), k) ==
        table_->partition_columns.end())
      rest.insert(k);
  for (const std::string& k : rest) add(k, values[k]);
  return out;
}

// The committing job: a streaming query's app id (its txn action), else the engine commitInfo
// names. A commit without either (Delta before 0.7 wrote no engineInfo) is "writer".
void CommitReader::Who() {
  if (!out_->txns.empty()) {
    out_->user = out_->txns.front().first;
    out_->writer = SafeName("app-" + out_->user);
  } else if (!engine_.empty()) {
    out_->user = engine_;
    out_->writer = SafeName(engine_);
  } else {
    out_->user = "";
    out_->writer = "writer";
  }
}

// In-commit timestamps when the table has them, else commitInfo.timestamp (the writer's clock at
// commit), else the file's modification time, which is what DeltaHistoryManager uses without ICT.
void CommitReader::When() {
  if (in_commit_timestamp_) {
    out_->time_ms = *in_commit_timestamp_;
    out_->details["time_from"] = "commitInfo.inCommitTimestamp";
  } else if (timestamp_) {
    out_->time_ms = *timestamp_;
    out_->details["time_from"] = "commitInfo.timestamp";
  } else {
    struct stat st {};
    out_->time_ms = ::stat(file_.c_str(), &st) == 0
                        ? static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000
                        : 0;
    out_->details["time_from"] = "the commit file's modification time";
  }
}

Json CommitReader::FilesJson(const std::vector<FileAction>& files) const {
  Json out = Json::array();
  for (const FileAction& f : files) {
    Json j = {{"path", f.path}};
    if (!f.partition.empty()) j["partition"] = f.partition;
    if (!f.data_change) j["dataChange"] = false;
    if (f.deletion_vector) j["deletionVector"] = true;
    out.push_back(std::move(j));
  }
  return out;
}

Status CommitReader::Finish() {
  out_->version = version_;
  out_->file = file_;
  out_->details = Json::object();
  out_->details["commitInfo"] = commit_info_;
  for (RawFile& f : adds_) {
    f.action.partition = Partition(f.partition_values);
    out_->adds.push_back(std::move(f.action));
  }
  for (RawFile& f : removes_) {
    f.action.partition = Partition(f.partition_values);
    out_->removes.push_back(std::move(f.action));
  }
  Who();
  When();
  bool data_change = false;
  for (const std::vector<FileAction>* v : {&out_->adds, &out_->removes})
    for (const FileAction& f : *v) data_change = data_change || f.data_change;
  const bool files = !out_->adds.empty() || !out_->removes.empty();
  out_->kind =
      !files         ? "METADATA"
      : !data_change ? "COMPACT"
      : std::any_of(out_->removes.begin(), out_->removes.end(), [](const FileAction& f) { return f.data_change; })
          ? "OVERWRITE"
          : "APPEND";
  out_->added_files = static_cast<int64_t>(out_->adds.size());
  out_->removed_files = static_cast<int64_t>(out_->removes.size());
  out_->metadata_change = !metadata_change_.is_null();
  if (!out_->txns.empty()) {
    Json txns = Json::array();
    for (const auto& [app, v] : out_->txns) txns.push_back({{"appId", app}, {"version", v}});
    out_->details["txn"] = std::move(txns);
  }
  if (!out_->adds.empty()) out_->details["add"] = FilesJson(out_->adds);
  if (!out_->removes.empty()) out_->details["remove"] = FilesJson(out_->removes);
  if (out_->metadata_change) out_->details["metaData"] = metadata_change_;
  if (!protocol_.is_null()) out_->details["protocol"] = protocol_;
  if (cdc_ > 0) out_->details["cdc"] = cdc_;
  if (!domains_.empty()) out_->details["domainMetadata"] = domains_;
  return Status::OK();
}

}  // namespace

Status ReadDeltaCommit(const std::string& log, int64_t version, DeltaTable* table, ImportedCommit* out) {
  const std::string file = log + "/" + DeltaCommitFileName(version);
  COMMITLAB_ASSIGN_OR_RETURN(LineFile in, LineFile::Open(file));
  CommitReader reader(file, version, table, out);
  std::string line;
  for (;;) {
    COMMITLAB_ASSIGN_OR_RETURN(bool more, in.Next(&line));
    if (!more) break;
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    COMMITLAB_ASSIGN_OR_RETURN(Json j, ParseJson(line, file, in.line_number()));
    COMMITLAB_RETURN_IF_ERROR(reader.Action(j, in.line_number()));
  }
  if (reader.actions() == 0) return Bad(file, 1, "empty: a commit holds at least one action");
  return reader.Finish();
}

}  // namespace commitlab::sim::import::internal
