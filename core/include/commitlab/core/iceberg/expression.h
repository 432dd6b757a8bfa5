// A tiny row filter, after Iceberg's Expressions: alwaysTrue() and equal(column, literal). A
// column that names an identity partition key is answered from the file's partition, as a
// partition-projected filter is; any other column from the file's rows, which stand in for the
// column metrics (lower/upper bounds, null counts) Iceberg keeps per file.
#ifndef COMMITLAB_CORE_ICEBERG_EXPRESSION_H_
#define COMMITLAB_CORE_ICEBERG_EXPRESSION_H_

#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "commitlab/core/iceberg/model.h"

namespace commitlab::iceberg {

struct Expression {
  enum class Op { kAlwaysTrue, kEqual };
  Op op = Op::kAlwaysTrue;
  std::string column = {};  // kEqual only
  Value value = {};         // kEqual only

  static Expression AlwaysTrue() { return {}; }
  static Expression Equal(std::string column, Value value) { return {Op::kEqual, std::move(column), std::move(value)}; }
  bool operator==(const Expression&) const = default;
};

// As Iceberg prints an unbound expression: `true`, `ref(name="name") == "hits"`.
std::string FormatExpression(const Expression& e);

// "dt=2024-01-01/region=eu" -> {dt: 2024-01-01, region: eu}; "" -> {}.
std::map<std::string, std::string> ParsePartition(std::string_view partition);

// InclusiveMetricsEvaluator: false only when no row of `f` can match (the partition value differs,
// the literal lies outside the column's bounds, or the column is null in every row). Files whose
// rows hold another type than the literal might match.
bool CanContainMatches(const Expression& e, const IcebergDataFile& f);
// StrictMetricsEvaluator: true only when every row of `f` matches (vacuously for an empty file).
bool AllRowsMatch(const Expression& e, const IcebergDataFile& f);
// Row-level evaluation, for readers; `partition` answers partition columns missing from the row.
bool RowMatches(const Expression& e, const Row& row, std::string_view partition = "");

}  // namespace commitlab::iceberg

#endif  // COMMITLAB_CORE_ICEBERG_EXPRESSION_H_
