// Parser tests for Iceberg and Delta tables, the object store and publish points: what each new
// directive, step and expectation parses into, and one exact message per kind of mistake.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "commitlab/scenarios/parser.h"
#include "protocols/delta/delta_steps.h"
#include "protocols/iceberg/iceberg_steps.h"

namespace commitlab::scenarios {
namespace {

Scenario MustParse(std::string_view text) {
  Result<Scenario> r = ParseScenario(text, "t.scn");
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *std::move(r) : Scenario{};
}

TEST(LakesParserTest, IcebergTableAndSteps) {
  const Scenario s = MustParse(
      "title \"t\"\n"
      "table name=ev protocol=iceberg partitions=dt isolation=snapshot\n"
      "writer name=w\n"
      "w: read; append rows=2 partition=dt=1; overwrite filter=dt=1 partition=dt=1 isolation=serializable\n"
      "w: delete filter=name=hits; rewrite partition=dt=2; schema id=3; expire retain-last=4; scan\n"
      "w: orphans count; orphans clean\n"
      "w: counter init key=hits value=10; counter read key=hits; counter add 5; counter commit on-validation=reread\n");
  ASSERT_EQ(s.tables.size(), 1u);
  EXPECT_EQ(s.tables[0].protocol, Protocol::kIceberg);
  EXPECT_EQ(s.tables[0].isolation, "snapshot");
  const StepList& st = s.writers[0].steps;
  ASSERT_EQ(st.size(), 14u);
  EXPECT_TRUE(OpIs<ReadOp>(st[0].op));
  const auto append = OpAs<AppendOp>(st[1].op);
  EXPECT_EQ(append.data.rows, 2);
  EXPECT_EQ(append.data.min_key, 1);  // fresh keys, as Paimon's write gets them
  EXPECT_EQ(append.data.max_key, 2);
  EXPECT_EQ(append.data.partition, "dt=1");
  const auto overwrite = OpAs<OverwriteOp>(st[2].op);
  EXPECT_EQ(overwrite.filter.expr, iceberg::Expression::Equal("dt", int64_t{1}));
  EXPECT_EQ(overwrite.isolation, "serializable");
  EXPECT_EQ(overwrite.data.min_key, 3);
  const auto del = OpAs<DeleteOp>(st[3].op);
  EXPECT_EQ(del.filter.expr, iceberg::Expression::Equal("name", std::string("hits")));
  EXPECT_EQ(del.isolation, "");  // the table's
  EXPECT_EQ(OpAs<RewriteOp>(st[4].op).partition, "dt=2");
  EXPECT_EQ(OpAs<SchemaOp>(st[5].op).schema_id, 3);
  EXPECT_EQ(OpAs<ExpireOp>(st[6].op).retain_last, 4);
  EXPECT_TRUE(OpIs<ScanOp>(st[7].op));
  EXPECT_FALSE(OpAs<OrphansOp>(st[8].op).clean);
  EXPECT_TRUE(OpAs<OrphansOp>(st[9].op).clean);
  const auto init = OpAs<CounterOp>(st[10].op);
  EXPECT_EQ(init.action, CounterOp::Action::kInit);
  EXPECT_EQ(init.key, "hits");
  EXPECT_EQ(init.value, 10);
  EXPECT_EQ(OpAs<CounterOp>(st[12].op).value, 5);
  EXPECT_EQ(OpAs<CounterOp>(st[13].op).on_validation, OnValidationFailure::kRereadAndRecompute);
  for (size_t i : {1u, 2u, 3u, 4u, 5u, 6u, 10u, 13u}) EXPECT_TRUE(OpPublishes(st[i].op)) << i;
  for (size_t i : {0u, 7u, 8u, 9u, 11u, 12u}) EXPECT_FALSE(OpPublishes(st[i].op)) << i;
}

TEST(LakesParserTest, DeltaTableAndSteps) {
  const Scenario s = MustParse(
      "title \"t\"\n"
      "table name=d protocol=delta partitions=x isolation=WriteSerializable flavour=databricks\n"
      "writer name=w\n"
      "w: begin; read partition=x=1; read; add file=f1 partition=x=1 rows=3 data-change=false\n"
      "w: remove files=f1,f2 data-change=false; commit op=OPTIMIZE; begin; commit\n");
  EXPECT_EQ(s.tables[0].isolation, "WriteSerializable");
  const StepList& st = s.writers[0].steps;
  ASSERT_EQ(st.size(), 8u);
  EXPECT_TRUE(OpIs<BeginOp>(st[0].op));
  EXPECT_EQ(OpAs<DeltaReadOp>(st[1].op).partition, "x=1");
  EXPECT_EQ(OpAs<DeltaReadOp>(st[2].op).partition, "");
  const auto add = OpAs<AddOp>(st[3].op);
  EXPECT_EQ(add.file, "f1");
  EXPECT_EQ(add.rows, 3);
  EXPECT_FALSE(add.data_change);
  EXPECT_EQ(OpAs<RemoveOp>(st[4].op).files, (std::vector<std::string>{"f1", "f2"}));
  EXPECT_EQ(OpAs<DeltaCommitOp>(st[5].op).operation, "OPTIMIZE");
  EXPECT_EQ(OpAs<DeltaCommitOp>(st[7].op).operation, "INSERT");
  EXPECT_EQ(OpName(st[5].op), "commit");
}

TEST(LakesParserTest, DeltaReadsByFilterAndTheWholeTable) {
  const Scenario s = MustParse(
      "title \"t\"\n"
      "table name=d protocol=delta partitions=a,b\n"
      "writer name=w\n"
      "w: begin; read filter=\"a >= 1 or b > 1\"; read whole-table; read\n");
  const StepList& st = s.writers[0].steps;
  ASSERT_EQ(st.size(), 4u);
  const auto ranged = OpAs<DeltaReadOp>(st[1].op);
  ASSERT_TRUE(ranged.filter.has_value());
  EXPECT_EQ(ranged.filter->text, "a >= 1 or b > 1");
  EXPECT_EQ(ranged.filter->expr.op, iceberg::Expression::Op::kOr);
  EXPECT_FALSE(ranged.whole_table);
  EXPECT_TRUE(OpAs<DeltaReadOp>(st[2].op).whole_table);
  EXPECT_FALSE(OpAs<DeltaReadOp>(st[3].op).whole_table);
  EXPECT_FALSE(OpAs<DeltaReadOp>(st[3].op).filter.has_value());
}

TEST(LakesParserTest, DeltaAppIdTransactions) {
  const Scenario s = MustParse(
      "title \"t\"\n"
      "table name=d protocol=delta partitions=x\n"
      "writer name=w\n"
      "w: begin; read-txn app=query-1; add partition=x=3; txn app=query-1 version=7; commit op=STREAMING-UPDATE\n"
      "expect snapshot 1 operation=STREAMING-UPDATE\n");
  const StepList& st = s.writers[0].steps;
  ASSERT_EQ(st.size(), 5u);
  EXPECT_EQ(OpAs<ReadTxnOp>(st[1].op).app, "query-1");
  EXPECT_EQ(OpAs<TxnOp>(st[3].op).app, "query-1");
  EXPECT_EQ(OpAs<TxnOp>(st[3].op).version, 7);
  EXPECT_EQ(OpName(st[3].op), "txn");
  EXPECT_EQ(OpName(st[1].op), "read-txn");
  EXPECT_FALSE(OpPublishes(st[3].op));
  EXPECT_EQ(OpAs<DeltaCommitOp>(st[4].op).operation, "STREAMING UPDATE");  // Delta's own name
  EXPECT_EQ(std::get<SnapshotExpect>(s.expectations[0].body).operation, "STREAMING UPDATE");
}

TEST(LakesParserTest, ClaimAndSourceAreKeptForTheLab) {
  const Scenario s = MustParse(
      "title \"t\"\nclaim \"appends never conflict\"\nsource \"S2 第 5 讲, scenario 2\"\n"
      "table name=T protocol=paimon\nwriter name=w\nw: write\n");
  EXPECT_EQ(s.claim, "appends never conflict");
  EXPECT_EQ(s.source, "S2 第 5 讲, scenario 2");
}

TEST(LakesParserTest, ExpectationsNameTheirTableAndFiltersTakeNegativeIntegers) {
  const Scenario s = MustParse(
      "title \"t\"\n"
      "table name=a protocol=paimon\ntable name=b protocol=iceberg\n"
      "writer name=p table=a\nwriter name=i table=b\n"
      "p: write; commit\ni: append; delete filter=id=-5; orphans clean older-than=2min\n"
      "expect snapshot 1 table=b operation=append\n"
      "expect latest-snapshot 2 table=b\n"
      "expect per-user i=2 table=b\n"
      "expect counter hits 0 table=b\n"
      "expect latest-snapshot 1\n");
  ASSERT_EQ(s.expectations.size(), 5u);
  EXPECT_EQ(std::get<SnapshotExpect>(s.expectations[0].body).table, 1u);
  EXPECT_EQ(std::get<LatestSnapshotExpect>(s.expectations[1].body).table, 1u);
  EXPECT_EQ(std::get<PerUserExpect>(s.expectations[2].body).table, 1u);
  EXPECT_EQ(std::get<PerUserExpect>(s.expectations[2].body).snapshots.size(), 1u);
  EXPECT_EQ(std::get<CounterValueExpect>(s.expectations[3].body).table, 1u);
  EXPECT_EQ(std::get<LatestSnapshotExpect>(s.expectations[4].body).table, 0u);
  const FilterSpec f = OpAs<DeleteOp>(s.writers[1].steps[1].op).filter;
  EXPECT_EQ(f.expr, iceberg::Expression::Equal("id", int64_t{-5}));
  EXPECT_EQ(OpAs<OrphansOp>(s.writers[1].steps[2].op).older_than_micros, 120'000'000);
}

TEST(LakesParserTest, StorePublishPointsAndExpectations) {
  const Scenario s = MustParse(
      "title \"t\"\n"
      "store object:check-then-put\n"
      "table name=t protocol=paimon\n"
      "writer name=a\nwriter name=b\n"
      "a.c: write; commit\n"
      "b.c: write; commit\n"
      "order a.c.publish -> b.c.publish -> a.c\n"
      "expect snapshot 2 parent=1 operation=APPEND\n"
      "expect step a.c returned 1\n");
  EXPECT_EQ(s.object_store, "check-then-put");
  ASSERT_EQ(s.order.size(), 2u);
  // The point is the line's publishing step (its commit), not its first step.
  EXPECT_EQ(s.order[0].before, (StepRef{0, 1}));
  EXPECT_TRUE(s.order[0].before_publish);
  EXPECT_EQ(s.order[0].after, (StepRef{1, 1}));
  EXPECT_TRUE(s.order[0].after_publish);
  EXPECT_EQ(s.order[0].text, "a.c.publish -> b.c.publish");
  EXPECT_TRUE(s.order[1].before_publish);
  EXPECT_FALSE(s.order[1].after_publish);
  EXPECT_EQ(s.order[1].after, (StepRef{0, 0}));
  // "returned" is "committed" under another name.
  const auto& step = std::get<CounterExpect>(s.expectations[1].body);
  EXPECT_EQ(step.counter, Counter::kCommitted);
}

TEST(LakesParserTest, CounterExpectation) {
  const Scenario s = MustParse(
      "title \"t\"\ntable name=c protocol=iceberg\nwriter name=w\nw: counter init key=hits value=1\n"
      "expect counter hits >= 20\nexpect invariant-violation missing_file\n");
  const auto& c = std::get<CounterValueExpect>(s.expectations[0].body);
  EXPECT_EQ(c.key, "hits");
  EXPECT_EQ(c.value.op, CmpOp::kGe);
  EXPECT_EQ(c.value.lo, 20);
}

struct BadCase {
  std::string name;
  std::string text;
  std::string message;
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

TEST(LakesParserTest, ReplacePartitionsWritesOneFilePerPartition) {
  const Scenario s = MustParse(
      "title \"t\"\n"
      "table name=ev protocol=iceberg partitions=b\n"
      "writer name=w\n"
      "w: replace-partitions rows=2 partition=b=0,b=10 validate=data,append-only validate-from=start\n"
      "w: replace-partitions partition=b=3\n");
  const auto rp = OpAs<ReplacePartitionsOp>(s.writers[0].steps[0].op);
  ASSERT_EQ(rp.files.size(), 2u);
  EXPECT_EQ(rp.files[0].partition, "b=0");
  EXPECT_EQ(rp.files[1].partition, "b=10");
  EXPECT_EQ(rp.files[0].min_key, 1);  // fresh keys per file, in order
  EXPECT_EQ(rp.files[1].min_key, 3);
  EXPECT_EQ(rp.files[1].max_key, 4);
  EXPECT_TRUE(rp.validation.no_conflicting_data);
  EXPECT_FALSE(rp.validation.no_conflicting_deletes);
  EXPECT_TRUE(rp.validation.append_only);
  EXPECT_TRUE(rp.validate_from_start);
  const auto plain = OpAs<ReplacePartitionsOp>(s.writers[0].steps[1].op);
  EXPECT_FALSE(plain.validation.no_conflicting_data || plain.validation.no_conflicting_deletes ||
               plain.validation.append_only);
  EXPECT_FALSE(plain.validate_from_start);
  EXPECT_TRUE(OpPublishes(plain));
}

TEST(LakesParserTest, RowDeltaDeletesByPositionOrEqualityAndMayAddRows) {
  const Scenario s = MustParse(
      "title \"t\"\n"
      "table name=ev protocol=iceberg partitions=b\n"
      "writer name=w\n"
      "w: row-delta delete=\"b = 0 and id < 5\" rows=2 partition=b=1 conflict-filter=\"b = 0\" "
      "validate=data-files-exist,deletes validate-from=start\n"
      "w: row-delta delete-keys=3..4 partition=b=2\n");
  const auto merge = OpAs<RowDeltaOp>(s.writers[0].steps[0].op);
  ASSERT_TRUE(merge.delete_filter.has_value());
  EXPECT_EQ(merge.delete_filter->text, "b = 0 and id < 5");
  ASSERT_TRUE(merge.data.has_value());
  EXPECT_EQ(merge.data->rows, 2);
  EXPECT_EQ(merge.data->min_key, 1);  // fresh keys, as append's
  EXPECT_EQ(merge.partition, "b=1");
  ASSERT_TRUE(merge.conflict_filter.has_value());
  EXPECT_TRUE(merge.validation.data_files_exist);
  EXPECT_FALSE(merge.validation.deleted_files);
  EXPECT_FALSE(merge.validation.no_conflicting_data);
  EXPECT_TRUE(merge.validation.no_conflicting_deletes);
  EXPECT_TRUE(merge.validate_from_start);
  const auto eq = OpAs<RowDeltaOp>(s.writers[0].steps[1].op);
  EXPECT_EQ(eq.delete_keys, std::make_pair(int64_t{3}, int64_t{4}));
  EXPECT_EQ(eq.partition, "b=2");
  EXPECT_FALSE(eq.data.has_value());
  EXPECT_FALSE(eq.conflict_filter.has_value());  // alwaysTrue
  EXPECT_TRUE(OpPublishes(eq));
}

class LakesMalformedTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(LakesMalformedTest, ExactMessage) {
  Result<Scenario> r = ParseScenario(GetParam().text, "t.scn");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
  EXPECT_EQ(r.status().message(), GetParam().message);
}

const std::vector<BadCase>& LakesBadCases() {
  static const std::vector<BadCase> cases = {
      {"IcebergPaimonKey", "title \"t\"\ntable name=I protocol=iceberg buckets=2\n",
       "t.scn:2:31: key \"buckets\" applies to paimon tables only, not to iceberg table I"},
      {"PaimonIsolation", "title \"t\"\ntable name=P protocol=paimon isolation=snapshot\n",
       "t.scn:2:30: key \"isolation\" applies to iceberg and delta tables, not to paimon table P"},
      {"DeltaWriteSerializableNeedsDatabricks",
       "title \"t\"\ntable name=D protocol=delta isolation=WriteSerializable\n",
       "t.scn:2:39: open-source Delta accepts only Serializable for delta.isolationLevel; WriteSerializable is "
       "Databricks' (add flavour=databricks to model it)"},
      {"CatalogOnDelta", "title \"t\"\ntable name=D protocol=delta catalog=rest\n",
       "t.scn:2:29: key \"catalog\" applies to iceberg tables only, not to delta table D"},
      {"UnknownCatalog", "title \"t\"\ntable name=I protocol=iceberg catalog=glue\n",
       "t.scn:2:39: expected one of in-memory, rest, rest-server, jdbc for key \"catalog\", got \"glue\""},
      {"FlavourOnIceberg", "title \"t\"\ntable name=I protocol=iceberg flavour=oss\n",
       "t.scn:2:31: key \"flavour\" applies to delta tables only, not to iceberg table I"},
      {"UnknownFlavour", "title \"t\"\ntable name=D protocol=delta flavour=emr\n",
       "t.scn:2:37: expected one of oss, databricks for key \"flavour\", got \"emr\""},
      {"IcebergBadIsolation", "title \"t\"\ntable name=I protocol=iceberg isolation=WriteSerializable\n",
       "t.scn:2:41: expected one of serializable, snapshot for key \"isolation\", got \"WriteSerializable\""},
      {"DeltaBadIsolation", "title \"t\"\ntable name=D protocol=delta isolation=snapshot\n",
       "t.scn:2:39: expected one of Serializable, WriteSerializable for key \"isolation\", got \"snapshot\""},
      {"PaimonStepOnIceberg",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: write rows=1\n",
       "t.scn:5:4: step \"write\" is for paimon tables, but writer w writes iceberg table T (its steps: read, scan, append, overwrite, replace-partitions, row-delta, delete, rewrite, schema, expire, orphans, counter)"},
      {"IcebergStepOnPaimon",
       "title \"t\"\ntable name=T protocol=paimon\nwriter name=w\nwriter name=v\nw: append rows=1\n",
       "t.scn:5:4: step \"append\" is for iceberg tables, but writer w writes paimon table T (its steps: write, commit, compact, checkpoint, filter-and-commit, delete-data-files, restart)"},
      {"DeltaStepOnIceberg", "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: begin\n",
       "t.scn:5:4: step \"begin\" is for delta tables, but writer w writes iceberg table T (its steps: read, scan, append, overwrite, replace-partitions, row-delta, delete, rewrite, schema, expire, orphans, counter)"},
      {"UnknownIcebergStep", "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: appendd\n",
       "t.scn:5:4: unknown step \"appendd\" (expected one of read, scan, append, overwrite, replace-partitions, row-delta, delete, rewrite, schema, expire, orphans, counter)"},
      {"OverwriteWithoutFilter",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: overwrite rows=1\n",
       "t.scn:5:4: missing required key \"filter\" for step overwrite"},
      {"OverwriteBadFilter",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: overwrite filter=dt\n",
       "t.scn:5:21: expected one of id, name, value for the filter column of table T, got \"dt\""},
      {"OverwriteBadIsolation",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: overwrite filter=id=1 isolation=none\n",
       "t.scn:5:36: expected one of serializable, snapshot for key \"isolation\", got \"none\""},
      {"AppendTooManyRows",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: append rows=100001\n",
       "t.scn:5:16: key \"rows\" must be between 1 and 100000, got 100001"},
      {"AppendMissingPartition",
       "title \"t\"\ntable name=T protocol=iceberg partitions=dt\nwriter name=w\nwriter name=v\nw: append\n",
       "t.scn:5:4: missing required key \"partition\" for step append (table T is partitioned: partition=dt=VALUE)"},
      {"ReadTakesNothing", "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: read x=1\n",
       "t.scn:5:9: unexpected \"x=1\" after read"},
      {"SchemaWithoutId", "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: schema\n",
       "t.scn:5:4: missing required key \"id\" for step schema"},
      {"ExpireZero",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: expire retain-last=0\n",
       "t.scn:5:23: key \"retain-last\" must be between 1 and 1000000, got 0"},
      {"OrphansWithoutAction", "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: orphans\n",
       "t.scn:5:11: expected what orphans does after it (one of count, clean)"},
      {"OrphansBadAction",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: orphans sweep\n",
       "t.scn:5:12: expected one of count, clean for orphans action, got \"sweep\""},
      {"CounterWithoutAction", "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: counter\n",
       "t.scn:5:11: expected what counter does after it (one of init, read, add, commit)"},
      {"CounterInitWithoutValue",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: counter init key=hits\n",
       "t.scn:5:4: missing required key \"value\" for step counter init"},
      {"CounterAddWithoutNumber",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: counter add\n",
       "t.scn:5:15: expected the increment after counter add, e.g. counter add 5"},
      {"CounterAddNotANumber",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: counter add five\n",
       "t.scn:5:16: expected an integer for the increment, got \"five\""},
      {"CounterAddTwoNumbers",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: counter add 5 6\n",
       "t.scn:5:18: unexpected \"6\" after counter add N"},
      {"CounterBadPolicy",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: counter commit on-validation=retry\n",
       "t.scn:5:33: expected one of give-up, recommit-stale, reread for key \"on-validation\", got \"retry\""},
      {"DeltaReadPartitionAndFilter",
       "title \"t\"\ntable name=T protocol=delta partitions=x\nwriter name=w\nw: begin; read partition=x=1 filter=\"x = 2\"\n",
       "t.scn:4:30: read takes partition= or filter=, not both"},
      {"DeltaReadWholeTableTakesNothing",
       "title \"t\"\ntable name=T protocol=delta partitions=x\nwriter name=w\nw: begin; read whole-table x=1\n",
       "t.scn:4:28: unexpected \"x=1\" after read whole-table"},
      {"DeltaReadFilterUnknownColumn",
       "title \"t\"\ntable name=T protocol=delta partitions=x\nwriter name=w\nw: begin; read filter=\"y > 1\"\n",
       "t.scn:4:24: expected one of id, name, value, x for the filter column of table T, got \"y\""},
      {"DeltaRemoveWithoutFiles",
       "title \"t\"\ntable name=T protocol=delta partitions=x\nwriter name=w\nwriter name=v\nw: begin; remove\n",
       "t.scn:5:11: missing required key \"files\" for step remove"},
      {"DeltaRemoveTwice",
       "title \"t\"\ntable name=T protocol=delta partitions=x\nwriter name=w\nwriter name=v\nw: begin; remove files=f1,f1\n",
       "t.scn:5:27: file \"f1\" listed twice"},
      {"DeltaBadOperation",
       "title \"t\"\ntable name=T protocol=delta partitions=x\nwriter name=w\nwriter name=v\nw: begin; commit op=UPSERT\n",
       "t.scn:5:21: expected one of INSERT, UPDATE, DELETE, MERGE, OPTIMIZE, STREAMING-UPDATE for key \"op\", got \"UPSERT\""},
      {"DeltaTxnWithoutVersion",
       "title \"t\"\ntable name=T protocol=delta partitions=x\nwriter name=w\nwriter name=v\nw: begin; txn app=q\n",
       "t.scn:5:11: missing required key \"version\" for step txn"},
      {"DeltaReadTxnWithoutApp",
       "title \"t\"\ntable name=T protocol=delta partitions=x\nwriter name=w\nwriter name=v\nw: begin; read-txn\n",
       "t.scn:5:11: missing required key \"app\" for step read-txn"},
      {"ClaimTwice", "title \"t\"\nclaim \"a\"\nclaim \"b\"\ntable name=T protocol=paimon\nwriter name=w\n",
       "t.scn:3:1: duplicate directive claim (first given at line 2)"},
      {"SourceNotQuoted", "title \"t\"\nsource lecture\ntable name=T protocol=paimon\nwriter name=w\n",
       "t.scn:2:8: expected a quoted text, e.g. source \"...\", got lecture"},
      {"DeltaAddBadDataChange",
       "title \"t\"\ntable name=T protocol=delta partitions=x\nwriter name=w\nwriter name=v\nw: begin; add file=f1 partition=x=1 data-change=maybe\n",
       "t.scn:5:49: expected true or false for key \"data-change\", got \"maybe\""},
      {"StoreTwice",
       "title \"t\"\ntable name=T protocol=paimon\nwriter name=w\nwriter name=v\nstore object:locked\nstore object:locked\n",
       "t.scn:6:1: duplicate directive store (first given at line 5)"},
      {"StoreUnknown", "title \"t\"\ntable name=T protocol=paimon\nwriter name=w\nwriter name=v\nstore s3\n",
       "t.scn:5:7: unknown store \"s3\" (expected memory or object:MODE with MODE one of check-then-put, locked, conditional-put)"},
      {"StoreBadMode", "title \"t\"\ntable name=T protocol=paimon\nwriter name=w\nwriter name=v\nstore object:atomic\n",
       "t.scn:5:14: expected one of check-then-put, locked, conditional-put for the object store mode, got \"atomic\""},
      {"StoreWithIceberg",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nstore object:locked\n",
       "t.scn:5:7: store object:locked holds paimon tables only; table T (line 2) is iceberg (its own engine keeps it in memory)"},
      {"PublishPointUnknown",
       "title \"t\"\ntable name=T protocol=paimon\nwriter name=w\nwriter name=v\nw.c: write\nv.c: write\norder w.c.swap -> v.c\n",
       "t.scn:7:11: unknown point \"swap\" in \"w.c.swap\" (expected WRITER.LABEL or WRITER.LABEL.publish)"},
      {"PublishPointWithoutPublish",
       "title \"t\"\ntable name=T protocol=paimon\nwriter name=w\nwriter name=v\nw.c: write\nv.c: write\norder w.c.publish -> v.c\n",
       "t.scn:7:7: w.c.publish: line 5 has no step that publishes (a commit, or an Iceberg operation such as append, overwrite, delete, counter commit)"},
      {"PublishPointCycle",
       "title \"t\"\ntable name=T protocol=paimon\nwriter name=w\nwriter name=v\nw.c: write; commit\nv.c: write; commit\norder w.c.publish -> v.c\norder v.c.publish -> w.c\n",
       "t.scn:7:7: order constraints form a cycle with the writers' step order, so no writer could go on: w.c.publish -> v.c (line 7), v.c.publish -> w.c (line 8)"},
      {"ExpectStepPublish",
       "title \"t\"\ntable name=T protocol=paimon\nwriter name=w\nwriter name=v\nw.c: write; commit\nexpect step w.c.publish committed 1\n",
       "t.scn:6:13: expect step names a line (WRITER.LABEL), not its publish point"},
      {"ExpectCounterOnPaimon",
       "title \"t\"\ntable name=T protocol=paimon\nwriter name=w\nwriter name=v\nw: write\nexpect counter hits 20\n",
       "t.scn:6:8: expect counter looks at the first table (or table=NAME), which must be an iceberg table"},
      {"ExpectCounterWithoutValue",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: read\nexpect counter hits\n",
       "t.scn:6:20: expected a comparison (N, == N, >= N, <= N or LO..HI) after expect counter hits"},
      {"ExpectSnapshotBadOperation",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nwriter name=v\nw: read\nexpect snapshot 1 operation=upsert\n",
       "t.scn:6:29: expected one of append, overwrite, replace, delete for key \"operation\" on iceberg table T, got \"upsert\""},
      {"ExpectSnapshotOtherProtocolsOperation",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nw: read\nexpect snapshot 1 operation=INSERT\n",
       "t.scn:5:29: expected one of append, overwrite, replace, delete for key \"operation\" on iceberg table T, got \"INSERT\""},
      {"IcebergTableRowBudget",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nrepeat 100000: w: append rows=100000\n",
       "t.scn:4:19: too many rows for iceberg table T: its steps up to here write 1100000 row(s) (at most 1000000 a table: Iceberg data files keep their rows in memory)"},
      {"IcebergTableRowBudgetWithRewrites",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nw: append rows=100000\nrepeat 100: w: rewrite\n",
       "t.scn:5:16: too many rows for iceberg table T: its steps up to here write 100000 row(s) and its 10 rewrite(s) may copy them all again, 1100000 in all (at most 1000000 a table: Iceberg data files keep their rows in memory)"},
      {"RowDeltaChangesNothing",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nw: row-delta validate=data\n",
       "t.scn:4:4: row-delta needs delete=FILTER, delete-keys=LO..HI or rows=/keys= (what it changes)"},
      {"RowDeltaBadCheck",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nw: row-delta delete=id=1 validate=exists\n",
       "t.scn:4:35: expected one of data-files-exist, deleted-files, data, deletes for check of key \"validate\", got \"exists\""},
      {"RowDeltaPartitionWithoutWhatItPlaces",
       "title \"t\"\ntable name=T protocol=iceberg partitions=b\nwriter name=w\nw: row-delta delete=b=1 partition=b=1\n",
       "t.scn:4:25: partition= places delete-keys or new rows: give one of them, or drop it"},
      {"RowDeltaBadDeleteFilter",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nw: row-delta delete=\"id < x\"\n",
       "t.scn:4:27: column \"id\" holds integers, but \"x\" is not one (expected digits with an optional -, or a range id=LO..HI)"},
      {"RowDeltaEmptyDeleteKeys",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nw: row-delta delete-keys=5..1\n",
       "t.scn:4:26: range 5..1 for key \"delete-keys\" is empty (LO must not exceed HI)"},
      {"ReplaceBadCheck",
       "title \"t\"\ntable name=T protocol=iceberg partitions=b\nwriter name=w\nw: replace-partitions partition=b=1 validate=data,delete\n",
       "t.scn:4:51: expected one of data, deletes, append-only for check of key \"validate\", got \"delete\""},
      {"ReplacePartitionTwice",
       "title \"t\"\ntable name=T protocol=iceberg partitions=b\nwriter name=w\nw: replace-partitions partition=b=1,b=1\n",
       "t.scn:4:37: partition b=1 is listed twice"},
      {"ReplaceBadSecondPartition",
       "title \"t\"\ntable name=T protocol=iceberg partitions=b\nwriter name=w\nw: replace-partitions partition=b=1,c=2\n",
       "t.scn:4:37: bad partition \"c=2\" for table T (expected b=VALUE)"},
      {"ReplaceKeysWithSeveralPartitions",
       "title \"t\"\ntable name=T protocol=iceberg partitions=b\nwriter name=w\nw: replace-partitions keys=1..4 partition=b=1,b=2\n",
       "t.scn:4:23: keys= with several partitions would repeat ids (give rows= and let each file take fresh keys)"},
      {"ReplaceBadValidateFrom",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nw: replace-partitions validate-from=snapshot\n",
       "t.scn:4:37: expected one of read, start for key \"validate-from\", got \"snapshot\""},
      {"AppendMoreRowsThanKeys",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nw: append keys=1..3 rows=10\n",
       "t.scn:4:26: rows=10 is more than the 3 key(s) of keys=1..3 (each row has its own id)"},
      {"FilterIntegerColumnGivenAWord",
       "title \"t\"\ntable name=T protocol=iceberg partitions=dt\nwriter name=w\nw: delete filter=\"id = abc\"\n",
       "t.scn:4:24: column \"id\" holds integers, but \"abc\" is not one (expected digits with an optional -, or a range id=LO..HI)"},
      {"FilterStringColumnGivenAnInteger",
       "title \"t\"\ntable name=T protocol=iceberg partitions=dt\nwriter name=w\nw: delete filter=name=5\n",
       "t.scn:4:23: column \"name\" holds strings, but 5 is an integer (quote it: '5')"},
      {"FilterRangeIsEmpty",
       "title \"t\"\ntable name=T protocol=iceberg partitions=dt\nwriter name=w\nw: delete filter=id=9..5\n",
       "t.scn:4:21: the range 9..5 is empty (its low end is above its high end)"},
      {"FilterRangeNotAnInteger",
       "title \"t\"\ntable name=T protocol=iceberg partitions=dt\nwriter name=w\nw: delete filter=id=5..x\n",
       "t.scn:4:24: column \"id\" holds integers, but \"x\" is not one (expected digits with an optional -, or a range id=LO..HI)"},
      {"FilterRangeMixesTypes",
       "title \"t\"\ntable name=T protocol=iceberg partitions=dt\nwriter name=w\nw: delete filter=dt=1..x\n",
       "t.scn:4:21: the range 1..x mixes an integer and a string (give two integers or two strings)"},
      {"FilterBadOperator",
       "title \"t\"\ntable name=T protocol=iceberg partitions=dt\nwriter name=w\nw: delete filter=\"id => 5\"\n",
       "t.scn:4:22: expected a comparison (=, !=, <, <=, >, >=) after column \"id\", got \"=>\""},
      {"FilterMissingValue",
       "title \"t\"\ntable name=T protocol=iceberg partitions=dt\nwriter name=w\nw: delete filter=\"id >=\"\n",
       "t.scn:4:24: expected a value after id >=, got \"the end\""},
      {"FilterUnclosedParen",
       "title \"t\"\ntable name=T protocol=iceberg partitions=dt\nwriter name=w\nw: delete filter=\"(id = 1 or id = 2\"\n",
       "t.scn:4:36: expected ) to close the ( at column 19"},
      {"FilterDanglingAnd",
       "title \"t\"\ntable name=T protocol=iceberg partitions=dt\nwriter name=w\nw: delete filter=\"id = 1 and\"\n",
       "t.scn:4:29: expected a column, not, ( or true/false in the filter, got \"the end\""},
      {"FilterTrailingWord",
       "title \"t\"\ntable name=T protocol=iceberg partitions=dt\nwriter name=w\nw: delete filter=\"id = 1 id = 2\"\n",
       "t.scn:4:26: unexpected \"id\" in the filter (expected and, or, or the end)"},
      {"FilterUnterminatedString",
       "title \"t\"\ntable name=T protocol=iceberg partitions=dt\nwriter name=w\nw: delete filter=\"dt = 'x\"\n",
       "t.scn:4:24: unterminated 'string' in the filter"},
      {"FilterUnknownColumn", "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nw: delete filter=ids=1\n",
       "t.scn:4:18: expected one of id, name, value for the filter column of table T, got \"ids\""},
      {"FilterIntegerOutOfRange",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nw: delete filter=id=12345678901234567890\n",
       "t.scn:4:21: the filter value must be between -1000000000000000000 and 1000000000000000000, got 12345678901234567890"},
      {"IcebergQuotedStep", "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nw: \"append\"\n",
       "t.scn:4:4: expected a step name (one of read, scan, append, overwrite, replace-partitions, row-delta, delete, rewrite, schema, expire, orphans, counter), got \"append\""},
      {"OrphansBadOlderThan",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nw: orphans clean older-than=3y\n",
       "t.scn:4:29: bad duration \"3y\" (expected a number with us, ms, s, min, h or d) for key \"older-than\""},
      {"ExpectUnknownTable",
       "title \"t\"\ntable name=T protocol=iceberg\nwriter name=w\nw: read\nexpect latest-snapshot 1 table=U\n",
       "t.scn:5:32: table \"U\" is not declared"},
      {"ExpectCounterOnADeltaTable",
       "title \"t\"\ntable name=T protocol=iceberg\ntable name=D protocol=delta\nwriter name=w table=T\nw: read\nexpect counter hits 1 table=D\n",
       "t.scn:6:8: expect counter looks at an iceberg table, but table D is a delta table"},
      {"PaimonReadStep", "title \"t\"\ntable name=T protocol=paimon\nwriter name=w\nwriter name=v\nw: read\n",
       "t.scn:5:4: step \"read\" is for iceberg and delta tables, but writer w writes paimon table T (its steps: write, commit, compact, checkpoint, filter-and-commit, delete-data-files, restart)"},
  };
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Parser, LakesMalformedTest, ::testing::ValuesIn(LakesBadCases()),
                         [](const ::testing::TestParamInfo<BadCase>& p) { return p.param.name; });

}  // namespace
}  // namespace commitlab::scenarios
