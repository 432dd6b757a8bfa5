#include "commitlab/core/iceberg/expression.h"

#include <fmt/format.h>

#include <optional>

namespace commitlab::iceberg {
namespace {

// The partition value for e.column, if the file is partitioned by it.
std::optional<std::string> PartitionValue(const Expression& e, std::string_view partition) {
  std::map<std::string, std::string> values = ParsePartition(partition);
  auto it = values.find(e.column);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

}  // namespace

std::string FormatExpression(const Expression& e) {
  if (e.op == Expression::Op::kAlwaysTrue) return "true";
  return fmt::format("ref(name=\"{}\") == {}", e.column, FormatValue(e.value));
}

std::map<std::string, std::string> ParsePartition(std::string_view partition) {
  std::map<std::string, std::string> out;
  while (!partition.empty()) {
    const size_t slash = partition.find('/');
    const std::string_view part = partition.substr(0, slash);
    const size_t eq = part.find('=');
    if (eq != std::string_view::npos) out.emplace(part.substr(0, eq), part.substr(eq + 1));
    if (slash == std::string_view::npos) break;
    partition.remove_prefix(slash + 1);
  }
  return out;
}

bool CanContainMatches(const Expression& e, const IcebergDataFile& f) {
  if (e.op == Expression::Op::kAlwaysTrue) return true;
  if (std::optional<std::string> p = PartitionValue(e, f.file.partition)) return *p == RawValue(e.value);
  // Bounds of the column over the rows: the literal must lie within [lower, upper].
  const Value* lower = nullptr;
  const Value* upper = nullptr;
  for (const Row& row : f.rows) {
    auto it = row.find(e.column);
    if (it == row.end()) continue;                           // null
    if (it->second.index() != e.value.index()) return true;  // no comparable bounds: might match
    if (lower == nullptr || it->second < *lower) lower = &it->second;
    if (upper == nullptr || *upper < it->second) upper = &it->second;
  }
  if (lower == nullptr) return false;  // all nulls (or no rows): equality cannot match
  return !(e.value < *lower) && !(*upper < e.value);
}

bool AllRowsMatch(const Expression& e, const IcebergDataFile& f) {
  if (e.op == Expression::Op::kAlwaysTrue) return true;
  if (std::optional<std::string> p = PartitionValue(e, f.file.partition)) return *p == RawValue(e.value);
  for (const Row& row : f.rows) {
    auto it = row.find(e.column);
    if (it == row.end() || it->second != e.value) return false;
  }
  return true;
}

bool RowMatches(const Expression& e, const Row& row, std::string_view partition) {
  if (e.op == Expression::Op::kAlwaysTrue) return true;
  auto it = row.find(e.column);
  if (it != row.end()) return it->second == e.value;
  if (std::optional<std::string> p = PartitionValue(e, partition)) return *p == RawValue(e.value);
  return false;
}

}  // namespace commitlab::iceberg
