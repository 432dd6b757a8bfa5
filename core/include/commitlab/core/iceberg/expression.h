// Row filters after Iceberg's Expressions: alwaysTrue/alwaysFalse, the comparisons equal,
// notEqual, lessThan(OrEqual), greaterThan(OrEqual) of a column with a literal, and and/or/not. A
// column that names an identity partition key is answered from the file's partition, as a
// partition-projected filter is; any other column from the file's rows, which stand in for the
// column metrics (lower/upper bounds, null counts) Iceberg keeps per file. A null (a row without
// the column) satisfies only notEqual, as the metrics evaluators count it; Iceberg's row
// Evaluator, whose comparator puts nulls first, would also let it pass lessThan.
#ifndef COMMITLAB_CORE_ICEBERG_EXPRESSION_H_
#define COMMITLAB_CORE_ICEBERG_EXPRESSION_H_

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/iceberg/model.h"

namespace commitlab::iceberg {

struct Expression {
  enum class Op {
    kAlwaysTrue, kAlwaysFalse,
    kEqual, kNotEqual, kLessThan, kLessThanOrEqual, kGreaterThan, kGreaterThanOrEqual,
    kAnd, kOr, kNot,
  };
  Op op = Op::kAlwaysTrue;
  std::string column = {};               // comparisons only
  Value value = {};                      // comparisons only
  std::vector<Expression> children = {};  // kAnd, kOr: two; kNot: one

  static Expression AlwaysTrue() { return {}; }
  static Expression AlwaysFalse() { return {Op::kAlwaysFalse}; }
  static Expression Compare(Op op, std::string column, Value value) { return {op, std::move(column), std::move(value)}; }
  static Expression Equal(std::string column, Value value) { return Compare(Op::kEqual, std::move(column), std::move(value)); }
  static Expression And(Expression a, Expression b) { return {Op::kAnd, {}, {}, {std::move(a), std::move(b)}}; }
  static Expression Or(Expression a, Expression b) { return {Op::kOr, {}, {}, {std::move(a), std::move(b)}}; }
  static Expression Not(Expression a) { return {Op::kNot, {}, {}, {std::move(a)}}; }
  bool IsComparison() const { return op >= Op::kEqual && op <= Op::kGreaterThanOrEqual; }
  bool operator==(const Expression&) const = default;
};

// As Iceberg prints an unbound expression: `true`, `ref(name="name") == "hits"`,
// `(ref(name="id") >= 5 and ref(name="id") <= 9)`, `not(ref(name="id") == 1)`.
std::string FormatExpression(const Expression& e);

// "dt=2024-01-01/region=eu" -> {dt: 2024-01-01, region: eu}; "" -> {}.
std::map<std::string, std::string> ParsePartition(std::string_view partition);

// RewriteNot: the same filter with every `not` pushed down to the comparisons and removed
// (Expressions.rewriteNot), which the metrics evaluators need.
Expression RewriteNot(const Expression& e);
// InclusiveMetricsEvaluator: false only when no row of `f` can match (the partition value fails
// the comparison, the literal lies outside the column's bounds, or the column is null in every
// row, or the file has no rows). Files whose rows hold another type than the literal might match.
bool CanContainMatches(const Expression& e, const IcebergDataFile& f);
// StrictMetricsEvaluator: true only when every row of `f` matches (vacuously for an empty file).
bool AllRowsMatch(const Expression& e, const IcebergDataFile& f);
// Row-level evaluation, for readers; `partition` answers partition columns missing from the row.
bool RowMatches(const Expression& e, const Row& row, std::string_view partition = "");

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_EXPRESSION_H_
