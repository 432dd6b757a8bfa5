#include "commitlab/core/iceberg/expression.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "commitlab/core/check.h"

namespace commitlab::iceberg {
namespace {

using Op = Expression::Op;

// The bounds of the column over the file's rows, as Iceberg's lower/upper bounds and null count.
struct Bounds {
  const Value* lower = nullptr;
  const Value* upper = nullptr;
  bool has_null = false;
  bool mixed_types = false;  // a value of another type than the literal: no usable bounds
};

Bounds BoundsOf(const std::string& column, const Value& literal, const IcebergDataFile& f) {
  Bounds b;
  for (const Row& row : f.rows) {
    auto it = row.find(column);
    if (it == row.end()) {
      b.has_null = true;
      continue;
    }
    if (it->second.index() != literal.index()) {
      b.mixed_types = true;
      continue;
    }
    if (b.lower == nullptr || it->second < *b.lower) b.lower = &it->second;
    if (b.upper == nullptr || *b.upper < it->second) b.upper = &it->second;
  }
  return b;
}

// InclusiveMetricsEvaluator's comparisons. REQUIRES: e.IsComparison().
bool MightMatch(const Expression& e, const IcebergDataFile& f) {
  COMMITLAB_CHECK(e.IsComparison(), "EvaluateExpression hands only comparisons to a leaf evaluator");
  if (std::optional<Value> p = PartitionValue(e.column, e.value, f.file.partition))
    return CompareValues(e.op, *p, e.value);
  // notEqual has no useful bound (InclusiveMetricsEvaluator.notEq): it might always match.
  if (e.op == Op::kNotEqual) return true;
  const Bounds b = BoundsOf(e.column, e.value, f);
  if (b.mixed_types) return true;
  if (b.lower == nullptr) return false;  // only nulls (or no rows): no comparison can hold
  COMMITLAB_DCHECK(b.upper != nullptr && !(*b.upper < *b.lower), "a column's bounds come as a pair, lower <= upper");
  const Value& lit = e.value;
  switch (e.op) {
    case Op::kEqual: return !(lit < *b.lower) && !(*b.upper < lit);
    case Op::kLessThan: return *b.lower < lit;
    case Op::kLessThanOrEqual: return !(lit < *b.lower);
    case Op::kGreaterThan: return lit < *b.upper;
    case Op::kGreaterThanOrEqual: return !(*b.upper < lit);
    default: return true;
  }
}

// StrictMetricsEvaluator's comparisons. REQUIRES: e.IsComparison().
bool MustMatch(const Expression& e, const IcebergDataFile& f) {
  COMMITLAB_CHECK(e.IsComparison(), "EvaluateExpression hands only comparisons to a leaf evaluator");
  if (std::optional<Value> p = PartitionValue(e.column, e.value, f.file.partition))
    return CompareValues(e.op, *p, e.value);
  if (f.rows.empty()) return true;  // vacuously: StrictMetricsEvaluator on a file of no records
  const Bounds b = BoundsOf(e.column, e.value, f);
  if (b.mixed_types) return false;
  if (b.lower == nullptr) return e.op == Op::kNotEqual;  // nulls only: unequal to the literal
  const Value& lit = e.value;
  if (e.op == Op::kNotEqual) return lit < *b.lower || *b.upper < lit;
  if (b.has_null) return false;
  switch (e.op) {
    case Op::kEqual: return *b.lower == lit && *b.upper == lit;
    case Op::kLessThan: return *b.upper < lit;
    case Op::kLessThanOrEqual: return !(lit < *b.upper);
    case Op::kGreaterThan: return lit < *b.lower;
    case Op::kGreaterThanOrEqual: return !(*b.lower < lit);
    default: return false;
  }
}

}  // namespace

std::string FormatExpression(const Expression& e) {
  switch (e.op) {
    case Op::kAlwaysTrue: return "true";
    case Op::kAlwaysFalse: return "false";
    case Op::kAnd: return fmt::format("({} and {})", FormatExpression(e.children[0]), FormatExpression(e.children[1]));
    case Op::kOr: return fmt::format("({} or {})", FormatExpression(e.children[0]), FormatExpression(e.children[1]));
    case Op::kNot: return fmt::format("not({})", FormatExpression(e.children[0]));
    default: return fmt::format("ref(name=\"{}\") {} {}", e.column, ComparisonSymbol(e.op), FormatValue(e.value));
  }
}

bool CanContainMatches(const Expression& e, const IcebergDataFile& f) {
  if (f.rows.empty()) return false;  // InclusiveMetricsEvaluator: a file of no records cannot match
  return EvaluateExpression(RewriteNot(e), [&f](const Expression& leaf) { return MightMatch(leaf, f); });
}

bool AllRowsMatch(const Expression& e, const IcebergDataFile& f) {
  return EvaluateExpression(RewriteNot(e), [&f](const Expression& leaf) { return MustMatch(leaf, f); });
}

bool DeleteFileMightMatch(const Expression& e, const IcebergDataFile& f) {
  return EvaluateExpression(RewriteNot(e), [&f](const Expression& leaf) {
    if (std::optional<Value> p = PartitionValue(leaf.column, leaf.value, f.file.partition))
      return CompareValues(leaf.op, *p, leaf.value);
    const auto& keys = f.equality_columns;
    if (f.content == FileContent::kEqualityDeletes && std::find(keys.begin(), keys.end(), leaf.column) != keys.end())
      return MightMatch(leaf, f);
    return true;
  });
}

bool HoldsForPartition(const Expression& e, std::string_view partition) {
  return EvaluateExpression(RewriteNot(e), [&](const Expression& leaf) {
    std::optional<Value> p = PartitionValue(leaf.column, leaf.value, partition);
    return p.has_value() && CompareValues(leaf.op, *p, leaf.value);
  });
}

}  // namespace commitlab::iceberg
