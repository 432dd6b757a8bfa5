#include "commitlab/core/delta/actions.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

#include "json_write.h"

namespace commitlab::delta {
namespace {

constexpr std::array<std::pair<IsolationLevel, std::string_view>, 3> kLevels = {{
    {IsolationLevel::kSerializable, "Serializable"},
    {IsolationLevel::kWriteSerializable, "WriteSerializable"},
    {IsolationLevel::kSnapshotIsolation, "SnapshotIsolation"},
}};

constexpr std::array<std::pair<Operation, std::string_view>, 9> kOperations = {{
    {Operation::kInsert, "INSERT"},
    {Operation::kUpdate, "UPDATE"},
    {Operation::kDelete, "DELETE"},
    {Operation::kMerge, "MERGE"},
    {Operation::kOptimize, "OPTIMIZE"},
    {Operation::kStreamingUpdate, "STREAMING UPDATE"},
    {Operation::kCreateTable, "CREATE TABLE"},
    {Operation::kSetTableProperties, "SET TBLPROPERTIES"},
    {Operation::kUpgradeProtocol, "UPGRADE PROTOCOL"},
}};

}  // namespace

std::string_view IsolationLevelName(IsolationLevel l) {
  for (const auto& [level, name] : kLevels)
    if (level == l) return name;
  return "?";
}

std::optional<IsolationLevel> ParseIsolationLevel(std::string_view s) {
  for (const auto& [level, name] : kLevels)
    if (name == s) return level;
  return std::nullopt;
}

std::string_view OperationName(Operation op) {
  for (const auto& [o, name] : kOperations)
    if (o == op) return name;
  return "?";
}

std::optional<Operation> ParseOperation(std::string_view s) {
  for (const auto& [o, name] : kOperations)
    if (name == s) return o;
  return std::nullopt;
}

bool OperationChangesData(Operation op) {
  switch (op) {
    case Operation::kInsert:
    case Operation::kUpdate:
    case Operation::kDelete:
    case Operation::kMerge:
    case Operation::kStreamingUpdate: return true;
    case Operation::kOptimize:
    case Operation::kCreateTable:
    case Operation::kSetTableProperties:
    case Operation::kUpgradeProtocol: return false;
  }
  return true;
}

IsolationLevel TableIsolationLevel(const Metadata& m) {
  auto it = m.configuration.find(std::string(kIsolationLevelProperty));
  if (it == m.configuration.end()) return IsolationLevel::kSerializable;
  std::optional<IsolationLevel> l = ParseIsolationLevel(it->second);
  // A table cannot be declared SnapshotIsolation: that level is only a per-commit downgrade.
  if (!l || *l == IsolationLevel::kSnapshotIsolation) return IsolationLevel::kSerializable;
  return *l;
}

bool DropsFeatures(const Protocol& new_p, const Protocol& old_p) {
  for (const std::string& f : old_p.writer_features)
    if (std::find(new_p.writer_features.begin(), new_p.writer_features.end(), f) == new_p.writer_features.end())
      return true;
  return false;
}

bool ReadPredicate::Matches(const DataFile& f) const {
  // DeltaLog.filterFileList: the partition filter over each file's partitionValues.
  if (filter) return RowMatches(*filter, Row{}, f.partition);
  if (!partitions) return true;
  return std::find(partitions->begin(), partitions->end(), f.partition) != partitions->end();
}

std::string FormatSqlPredicate(const Expression& e) {
  using Op = Expression::Op;
  switch (e.op) {
    case Op::kAlwaysTrue: return "true";
    case Op::kAlwaysFalse: return "false";
    case Op::kAnd:
      return fmt::format("({} AND {})", FormatSqlPredicate(e.children[0]), FormatSqlPredicate(e.children[1]));
    case Op::kOr:
      return fmt::format("({} OR {})", FormatSqlPredicate(e.children[0]), FormatSqlPredicate(e.children[1]));
    case Op::kNot: return fmt::format("NOT {}", FormatSqlPredicate(e.children[0]));
    default: {
      const std::string_view sym = e.op == Op::kEqual ? "=" : ComparisonSymbol(e.op);
      if (const auto* text = std::get_if<std::string>(&e.value)) return fmt::format("{} {} '{}'", e.column, sym, *text);
      return fmt::format("{} {} {}", e.column, sym, std::get<int64_t>(e.value));
    }
  }
}

std::string ReadPredicate::ToString() const {
  if (filter) return FormatSqlPredicate(*filter);
  if (!partitions) return "true";
  if (partitions->empty()) return "false";
  std::string out;
  for (const std::string& p : *partitions) out += (out.empty() ? "" : " OR ") + p;
  return out;
}

std::string CommitInfoJson(const CommitInfo& ci, int64_t version) {
  // A subset of Delta's CommitInfo fields in their declared order (actions.scala). Each
  // operationParameters value is JSON text in a string, as Operation.jsonEncodedValues writes it
  // (DeltaOperations.scala).
  const nlohmann::ordered_json info = {
      {"version", version},
      {"timestamp", ci.timestamp_millis},
      {"userName", ci.user_name},
      {"operation", OperationName(ci.operation)},
      {"operationParameters", {{"predicate", json_io::Compact(ci.read_predicates)}}},
      {"readVersion", ci.read_version},
      {"isolationLevel", IsolationLevelName(ci.isolation_level)},
      {"isBlindAppend", ci.is_blind_append},
      {"txnId", ci.txn_id},
  };
  return json_io::Compact(info);
}

size_t Commit::ActionCount() const {
  return adds.size() + removes.size() + (metadata ? 1 : 0) + (protocol ? 1 : 0) + txns.size() + 1;
}

std::string DeltaFileName(int64_t version) { return fmt::format("{:020d}.json", version); }

std::string PrettyPartition(const DataFile& f, bool partitioned) {
  if (!partitioned) return "the root of the table";
  std::string values;
  size_t start = 0;
  while (start <= f.partition.size()) {
    size_t slash = f.partition.find('/', start);
    if (slash == std::string::npos) slash = f.partition.size();
    values += (values.empty() ? "" : ", ") + f.partition.substr(start, slash - start);
    start = slash + 1;
  }
  return fmt::format("partition [{}]", values);
}

}  // namespace commitlab::delta
