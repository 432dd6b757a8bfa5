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

#include "commitlab/core/expression.h"
#include "commitlab/core/iceberg/model.h"

namespace commitlab::iceberg {

using commitlab::Expression;
using commitlab::ParsePartition;
using commitlab::RewriteNot;
using commitlab::RowMatches;

// As Iceberg prints an unbound expression: `true`, `ref(name="name") == "hits"`,
// `(ref(name="id") >= 5 and ref(name="id") <= 9)`, `not(ref(name="id") == 1)`.
std::string FormatExpression(const Expression& e);

// InclusiveMetricsEvaluator: false only when no row of `f` can match (the partition value fails
// the comparison, the literal lies outside the column's bounds, or the column is null in every
// row, or the file has no rows). Files whose rows hold another type than the literal might match.
bool CanContainMatches(const Expression& e, const IcebergDataFile& f);
// StrictMetricsEvaluator: true only when every row of `f` matches (vacuously for an empty file).
bool AllRowsMatch(const Expression& e, const IcebergDataFile& f);
// InclusiveMetricsEvaluator on a delete file's own statistics: a partition column by its value,
// an equality delete's key columns by the bounds of its rows; any other column has no statistics
// and might match (a position delete matches on its partition alone).
bool DeleteFileMightMatch(const Expression& e, const IcebergDataFile& f);
// Whether `e` holds for every row of a file in `partition`, known from the partition values
// alone (the strict evaluation: a comparison of another column is not known to hold).
bool HoldsForPartition(const Expression& e, std::string_view partition);

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_EXPRESSION_H_
