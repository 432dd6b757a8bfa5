#include "commitlab/core/iceberg/expression.h"

#include <gtest/gtest.h>

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
  FileRef g = MakeDataFile("data/n=7/g.parquet", {}, "n=7");
  EXPECT_TRUE(CanContainMatches(Expression::Equal("n", int64_t{7}), *g));
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

}  // namespace
}  // namespace commitlab::iceberg
