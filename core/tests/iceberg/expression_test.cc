#include "commitlab/core/iceberg/expression.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace commitlab::iceberg {
namespace {

TEST(IcebergExpressionTest, PrintsAsIcebergPrintsUnboundPredicates) {
  EXPECT_EQ(FormatExpression(Expression::AlwaysTrue()), "true");
  EXPECT_EQ(FormatExpression(Expression::Equal("name", std::string("hits"))), "ref(name=\"name\") == \"hits\"");
  EXPECT_EQ(FormatExpression(Expression::Equal("id", int64_t{1})), "ref(name=\"id\") == 1");
}

TEST(IcebergExpressionTest, ParsesPartitionPaths) {
  EXPECT_TRUE(ParsePartition("").empty());
  auto p = ParsePartition("dt=2024-01-01/region=eu");
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p["dt"], "2024-01-01");
  EXPECT_EQ(p["region"], "eu");
}

TEST(IcebergExpressionTest, PartitionColumnsAreDecidedByThePartition) {
  FileRef f = MakeDataFile("data/p=a/f.parquet", {{{"x", int64_t{1}}}}, "p=a");
  EXPECT_TRUE(CanContainMatches(Expression::Equal("p", std::string("a")), *f));
  EXPECT_TRUE(AllRowsMatch(Expression::Equal("p", std::string("a")), *f));
  EXPECT_FALSE(CanContainMatches(Expression::Equal("p", std::string("b")), *f));
  FileRef g = MakeDataFile("data/n=7/g.parquet", {{{"x", int64_t{1}}}}, "n=7");
  EXPECT_TRUE(CanContainMatches(Expression::Equal("n", int64_t{7}), *g));
  // InclusiveMetricsEvaluator: a file of no records cannot match, whatever the filter.
  FileRef empty = MakeDataFile("data/n=7/e.parquet", {}, "n=7");
  EXPECT_FALSE(CanContainMatches(Expression::Equal("n", int64_t{7}), *empty));
  EXPECT_FALSE(CanContainMatches(Expression::AlwaysTrue(), *empty));
}

TEST(IcebergExpressionTest, OtherColumnsAreDecidedByBoundsOfTheRows) {
  FileRef f = MakeDataFile("data/f.parquet", {{{"v", int64_t{1}}}, {{"v", int64_t{3}}}, {{"w", int64_t{0}}}});
  EXPECT_TRUE(CanContainMatches(Expression::Equal("v", int64_t{2}), *f));  // inside [1, 3]: might match
  EXPECT_FALSE(CanContainMatches(Expression::Equal("v", int64_t{4}), *f));
  EXPECT_FALSE(CanContainMatches(Expression::Equal("u", int64_t{1}), *f));  // all null
  EXPECT_FALSE(AllRowsMatch(Expression::Equal("v", int64_t{1}), *f));
  EXPECT_TRUE(CanContainMatches(Expression::Equal("v", std::string("1")), *f));  // no comparable bounds
  EXPECT_TRUE(CanContainMatches(Expression::AlwaysTrue(), *f));
  EXPECT_TRUE(AllRowsMatch(Expression::AlwaysTrue(), *f));
}

TEST(IcebergExpressionTest, AllRowsMatchOnlyWhenEveryRowHoldsTheValue) {
  const Expression hits = Expression::Equal("name", std::string("hits"));
  EXPECT_TRUE(AllRowsMatch(hits, *MakeDataFile("a", {{{"name", std::string("hits")}}})));
  EXPECT_FALSE(AllRowsMatch(hits, *MakeDataFile("b", {{{"name", std::string("hits")}}, {{"name", std::string("x")}}})));
  EXPECT_TRUE(AllRowsMatch(hits, *MakeDataFile("empty", {})));  // vacuously, as StrictMetricsEvaluator
  EXPECT_TRUE(RowMatches(hits, {{"name", std::string("hits")}}));
  EXPECT_FALSE(RowMatches(hits, {{"name", std::string("misses")}}));
  EXPECT_TRUE(RowMatches(Expression::Equal("p", std::string("a")), {}, "p=a"));
}

using Op = Expression::Op;
Expression Id(Op op, int64_t v) { return Expression::Compare(op, "id", v); }

TEST(IcebergExpressionTest, PrintsCompoundFiltersAsIcebergDoes) {
  EXPECT_EQ(FormatExpression(Expression::And(Id(Op::kGreaterThanOrEqual, 5), Id(Op::kLessThan, 9))),
            "(ref(name=\"id\") >= 5 and ref(name=\"id\") < 9)");
  EXPECT_EQ(FormatExpression(Expression::Not(Expression::Or(Id(Op::kEqual, 1), Expression::AlwaysFalse()))),
            "not((ref(name=\"id\") == 1 or false))");
}

TEST(IcebergExpressionTest, RewriteNotPushesNegationToTheComparisons) {
  const Expression e = Expression::Not(Expression::And(Id(Op::kLessThan, 5), Expression::Not(Id(Op::kEqual, 7))));
  EXPECT_EQ(RewriteNot(e), Expression::Or(Id(Op::kGreaterThanOrEqual, 5), Id(Op::kEqual, 7)));
}

// A file of ids 10..19, as upstream's FILE_DAY_2 style fixtures with column bounds.
FileRef Ids(int64_t lo, int64_t hi, std::string partition = "") {
  std::vector<Row> rows;
  for (int64_t k = lo; k <= hi; ++k) rows.push_back({{"id", k}});
  return MakeDataFile("data/ids.parquet", std::move(rows), std::move(partition));
}

TEST(IcebergExpressionTest, RangesPruneByBoundsAndMatchStrictlyOnlyWhenTheBoundsLieInside) {
  const FileRef f = Ids(10, 19);
  const Expression inside = Expression::And(Id(Op::kGreaterThanOrEqual, 10), Id(Op::kLessThan, 20));
  const Expression overlap = Expression::And(Id(Op::kGreaterThanOrEqual, 15), Id(Op::kLessThan, 30));
  const Expression outside = Expression::And(Id(Op::kGreaterThanOrEqual, 20), Id(Op::kLessThan, 30));
  EXPECT_TRUE(CanContainMatches(inside, *f));
  EXPECT_TRUE(AllRowsMatch(inside, *f));
  EXPECT_TRUE(CanContainMatches(overlap, *f));
  EXPECT_FALSE(AllRowsMatch(overlap, *f));
  EXPECT_FALSE(CanContainMatches(outside, *f));
  EXPECT_FALSE(CanContainMatches(Id(Op::kGreaterThan, 19), *f));
  EXPECT_TRUE(CanContainMatches(Id(Op::kGreaterThanOrEqual, 19), *f));
  EXPECT_FALSE(CanContainMatches(Id(Op::kLessThan, 10), *f));
  EXPECT_TRUE(AllRowsMatch(Id(Op::kLessThanOrEqual, 19), *f));
  EXPECT_FALSE(AllRowsMatch(Id(Op::kLessThan, 19), *f));
  EXPECT_TRUE(AllRowsMatch(Id(Op::kNotEqual, 25), *f));  // outside the bounds: no row equals it
  EXPECT_FALSE(AllRowsMatch(Id(Op::kNotEqual, 15), *f));
  EXPECT_TRUE(CanContainMatches(Id(Op::kNotEqual, 15), *f));
  EXPECT_TRUE(CanContainMatches(Expression::Not(outside), *f));
  EXPECT_FALSE(CanContainMatches(Expression::Not(inside), *f));  // every row is inside
  EXPECT_FALSE(CanContainMatches(Expression::AlwaysFalse(), *f));
  EXPECT_TRUE(CanContainMatches(Expression::Or(outside, Id(Op::kEqual, 12)), *f));
}

TEST(IcebergExpressionTest, PartitionComparisonsUseThePartitionValue) {
  const FileRef f = Ids(1, 1, "dt=2024-01-02/hr=7");
  EXPECT_TRUE(AllRowsMatch(Expression::Compare(Op::kGreaterThan, "dt", std::string("2024-01-01")), *f));
  EXPECT_FALSE(CanContainMatches(Expression::Compare(Op::kLessThan, "hr", int64_t{7}), *f));
  EXPECT_TRUE(
      AllRowsMatch(Expression::Compare(Op::kLessThanOrEqual, "hr", int64_t{10}), *f));  // 7 <= 10, not "7" <= "10"
}

TEST(IcebergExpressionTest, RowsEvaluateEveryOperatorAndNullsOnlySatisfyNotEqual) {
  const Row r{{"id", int64_t{5}}};
  EXPECT_TRUE(RowMatches(Expression::And(Id(Op::kGreaterThan, 4), Id(Op::kLessThanOrEqual, 5)), r));
  EXPECT_FALSE(RowMatches(Expression::Not(Id(Op::kEqual, 5)), r));
  EXPECT_TRUE(RowMatches(Expression::Compare(Op::kNotEqual, "name", std::string("x")), r));
  EXPECT_FALSE(RowMatches(Expression::Compare(Op::kEqual, "name", std::string("x")), r));
  EXPECT_FALSE(RowMatches(Expression::Compare(Op::kLessThan, "name", std::string("x")), r));
  // not() is pushed down first, as for the metrics evaluators: a null fails not(name < x).
  EXPECT_FALSE(RowMatches(Expression::Not(Expression::Compare(Op::kLessThan, "name", std::string("x"))), r));
}

}  // namespace
}  // namespace commitlab::iceberg
