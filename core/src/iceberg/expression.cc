#include "commitlab/core/iceberg/expression.h"

#include <fmt/format.h>

#include <charconv>
#include <optional>

namespace commitlab::iceberg {
namespace {

using Op = Expression::Op;

// The partition value for `column` as a value of the literal's type, if the file is partitioned
// by it (a partition path holds text; an integer literal compares with the number it spells).
std::optional<Value> PartitionValue(const std::string& column, const Value& literal, std::string_view partition) {
  std::map<std::string, std::string> values = ParsePartition(partition);
  auto it = values.find(column);
  std::optional<Value> out;
  if (it == values.end()) return out;
  std::string& text = it->second;
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  // A string literal, or a partition value that is not a number (then it compares unequal).
  if (std::holds_alternative<std::string>(literal) || ec != std::errc() || end != text.data() + text.size()) {
    out.emplace(std::in_place_type<std::string>, std::move(text));
  } else {
    out.emplace(std::in_place_type<int64_t>, n);
  }
  return out;
}

// A non-null value against the literal. Values of different types match only notEqual.
bool Holds(Op op, const Value& v, const Value& lit) {
  if (v.index() != lit.index()) return op == Op::kNotEqual;
  switch (op) {
    case Op::kEqual: return v == lit;
    case Op::kNotEqual: return v != lit;
    case Op::kLessThan: return v < lit;
    case Op::kLessThanOrEqual: return !(lit < v);
    case Op::kGreaterThan: return lit < v;
    case Op::kGreaterThanOrEqual: return !(v < lit);
    default: return false;
  }
}

Op Negated(Op op) {
  switch (op) {
    case Op::kAlwaysTrue: return Op::kAlwaysFalse;
    case Op::kAlwaysFalse: return Op::kAlwaysTrue;
    case Op::kEqual: return Op::kNotEqual;
    case Op::kNotEqual: return Op::kEqual;
    case Op::kLessThan: return Op::kGreaterThanOrEqual;
    case Op::kLessThanOrEqual: return Op::kGreaterThan;
    case Op::kGreaterThan: return Op::kLessThanOrEqual;
    case Op::kGreaterThanOrEqual: return Op::kLessThan;
    case Op::kAnd: return Op::kOr;
    case Op::kOr: return Op::kAnd;
    case Op::kNot: return Op::kNot;
  }
  return op;
}

std::string_view Symbol(Op op) {
  switch (op) {
    case Op::kEqual: return "==";
    case Op::kNotEqual: return "!=";
    case Op::kLessThan: return "<";
    case Op::kLessThanOrEqual: return "<=";
    case Op::kGreaterThan: return ">";
    case Op::kGreaterThanOrEqual: return ">=";
    default: return "?";
  }
}

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
  if (std::optional<Value> p = PartitionValue(e.column, e.value, f.file.partition)) return Holds(e.op, *p, e.value);
  // notEqual has no useful bound (InclusiveMetricsEvaluator.notEq): it might always match.
  if (e.op == Op::kNotEqual) return true;
  const Bounds b = BoundsOf(e.column, e.value, f);
  if (b.mixed_types) return true;
  if (b.lower == nullptr) return false;  // only nulls (or no rows): no comparison can hold
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
  if (std::optional<Value> p = PartitionValue(e.column, e.value, f.file.partition)) return Holds(e.op, *p, e.value);
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

template <typename Leaf>
bool Evaluate(const Expression& e, const Leaf& leaf) {
  switch (e.op) {
    case Op::kAlwaysTrue: return true;
    case Op::kAlwaysFalse: return false;
    case Op::kAnd: return Evaluate(e.children[0], leaf) && Evaluate(e.children[1], leaf);
    case Op::kOr: return Evaluate(e.children[0], leaf) || Evaluate(e.children[1], leaf);
    case Op::kNot: return !Evaluate(e.children[0], leaf);
    default: return leaf(e);
  }
}

}  // namespace

std::string FormatExpression(const Expression& e) {
  switch (e.op) {
    case Op::kAlwaysTrue: return "true";
    case Op::kAlwaysFalse: return "false";
    case Op::kAnd:
      return fmt::format("({} and {})", FormatExpression(e.children[0]), FormatExpression(e.children[1]));
    case Op::kOr: return fmt::format("({} or {})", FormatExpression(e.children[0]), FormatExpression(e.children[1]));
    case Op::kNot: return fmt::format("not({})", FormatExpression(e.children[0]));
    default: return fmt::format("ref(name=\"{}\") {} {}", e.column, Symbol(e.op), FormatValue(e.value));
  }
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

Expression RewriteNot(const Expression& e) {
  if (e.op == Op::kNot) {
    const Expression& inner = e.children[0];
    if (inner.op == Op::kNot) return RewriteNot(inner.children[0]);
    if (inner.op == Op::kAnd || inner.op == Op::kOr) {
      return {Negated(inner.op), {}, {}, {RewriteNot(Expression::Not(inner.children[0])),
                                          RewriteNot(Expression::Not(inner.children[1]))}};
    }
    return {Negated(inner.op), inner.column, inner.value};
  }
  if (e.op == Op::kAnd || e.op == Op::kOr) return {e.op, {}, {}, {RewriteNot(e.children[0]), RewriteNot(e.children[1])}};
  return e;
}

bool CanContainMatches(const Expression& e, const IcebergDataFile& f) {
  if (f.rows.empty()) return false;  // InclusiveMetricsEvaluator: a file of no records cannot match
  return Evaluate(RewriteNot(e), [&f](const Expression& leaf) { return MightMatch(leaf, f); });
}

bool AllRowsMatch(const Expression& e, const IcebergDataFile& f) {
  return Evaluate(RewriteNot(e), [&f](const Expression& leaf) { return MustMatch(leaf, f); });
}

bool RowMatches(const Expression& e, const Row& row, std::string_view partition) {
  // After rewriteNot, as the metrics evaluators see it: a null fails not(id < 5) as it fails id >= 5.
  return Evaluate(RewriteNot(e), [&](const Expression& leaf) {
    auto it = row.find(leaf.column);
    if (it != row.end()) return Holds(leaf.op, it->second, leaf.value);
    if (std::optional<Value> p = PartitionValue(leaf.column, leaf.value, partition)) return Holds(leaf.op, *p, leaf.value);
    return leaf.op == Op::kNotEqual;  // null
  });
}

}  // namespace commitlab::iceberg
