// Row and partition filters shared by the engines: a tree of comparisons of a column with a
// literal, and/or/not and the constants, after Iceberg's Expressions (which Spark's partition
// filters, as Delta records them, read the same way). How a filter is printed and how it is
// matched against a file's statistics is each engine's own (iceberg/expression.h); what is shared
// is the tree, rewriteNot, and evaluation against a row and a partition path.
#ifndef COMMITLAB_CORE_EXPRESSION_H_
#define COMMITLAB_CORE_EXPRESSION_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "commitlab/core/check.h"

namespace commitlab {

// A column value: enough types for a counter (name = "hits", value = 10) and partition keys.
using Value = std::variant<int64_t, std::string>;
// One row: column name -> value. A missing column is null.
using Row = std::map<std::string, Value>;

// Java's Literal.toString(): 10, or "hits" with the quotes.
std::string FormatValue(const Value& v);
// The value as a partition path writes it: 10, or hits without quotes.
std::string RawValue(const Value& v);

struct Expression {
  enum class Op {
    kAlwaysTrue,
    kAlwaysFalse,
    kEqual,
    kNotEqual,
    kLessThan,
    kLessThanOrEqual,
    kGreaterThan,
    kGreaterThanOrEqual,
    kAnd,
    kOr,
    kNot,
  };
  Op op = Op::kAlwaysTrue;
  std::string column = {};                // comparisons only
  Value value = {};                       // comparisons only
  std::vector<Expression> children = {};  // kAnd, kOr: two; kNot: one

  static Expression AlwaysTrue() { return {}; }
  static Expression AlwaysFalse() { return {Op::kAlwaysFalse}; }
  static Expression Compare(Op op, std::string column, Value value) {
    return {op, std::move(column), std::move(value)};
  }
  static Expression Equal(std::string column, Value value) {
    return Compare(Op::kEqual, std::move(column), std::move(value));
  }
  static Expression And(Expression a, Expression b) { return {Op::kAnd, {}, {}, {std::move(a), std::move(b)}}; }
  static Expression Or(Expression a, Expression b) { return {Op::kOr, {}, {}, {std::move(a), std::move(b)}}; }
  static Expression Not(Expression a) { return {Op::kNot, {}, {}, {std::move(a)}}; }
  bool IsComparison() const { return op >= Op::kEqual && op <= Op::kGreaterThanOrEqual; }
  bool operator==(const Expression&) const = default;
};

// "==", "!=", "<", "<=", ">", ">=" for a comparison.
std::string_view ComparisonSymbol(Expression::Op op);

// "dt=2024-01-01/region=eu" -> {dt: 2024-01-01, region: eu}; "" -> {}.
std::map<std::string, std::string> ParsePartition(std::string_view partition);

// The partition's value of `column` as a value of the literal's type, if `partition` has that
// column (a partition path holds text; an integer literal compares with the number it spells, and
// text that spells no number stays text, which compares unequal).
std::optional<Value> PartitionValue(const std::string& column, const Value& literal, std::string_view partition);

// A non-null value against the literal. Values of different types match only notEqual.
bool CompareValues(Expression::Op op, const Value& v, const Value& literal);

// RewriteNot: the same filter with every `not` pushed down to the comparisons and removed
// (Expressions.rewriteNot).
Expression RewriteNot(const Expression& e);

// The operands `op` takes: two for and/or, one for not, none for a comparison or a constant.
constexpr size_t OperandCount(Expression::Op op) {
  return op == Expression::Op::kAnd || op == Expression::Op::kOr ? 2 : op == Expression::Op::kNot ? 1 : 0;
}

// Evaluates the and/or/not/constant skeleton of `e`, asking `leaf` for each comparison.
template <typename Leaf>
bool EvaluateExpression(const Expression& e, const Leaf& leaf) {
  using Op = Expression::Op;
  COMMITLAB_CHECK(e.children.size() == OperandCount(e.op),
                  "a filter's and/or have two operands, its not one (Expression's factories build them so)");
  switch (e.op) {
    case Op::kAlwaysTrue: return true;
    case Op::kAlwaysFalse: return false;
    case Op::kAnd: return EvaluateExpression(e.children[0], leaf) && EvaluateExpression(e.children[1], leaf);
    case Op::kOr: return EvaluateExpression(e.children[0], leaf) || EvaluateExpression(e.children[1], leaf);
    case Op::kNot: return !EvaluateExpression(e.children[0], leaf);
    default: return leaf(e);
  }
}

// Row-level evaluation; `partition` answers columns missing from the row. A null (neither has the
// column) satisfies only notEqual, as after rewriteNot.
bool RowMatches(const Expression& e, const Row& row, std::string_view partition = "");

// The columns `e` compares, in order of first use.
std::vector<std::string> ReferencedColumns(const Expression& e);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_EXPRESSION_H_
