// Delta logs through `commitlab import`'s reader: every vendored golden table, the fields of
// commitInfo, txn, add/remove, metaData and protocol, checkpoints said and not read, each finding
// on a log that shows it, and bad input refused at its file and line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "import_test_util.h"

namespace commitlab::sim::import {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(ImportDelta, EveryVendoredTableImportsWithoutFindings) {
  const std::map<std::string, size_t> tables = {
      {"basic-with-inserts-deletes-checkpoint", 14},
      {"basic-with-inserts-merge", 2},
      {"basic-with-inserts-overwrite-restore", 4},
      {"commit-info-containing-arbitrary-operationParams-types", 3},
      {"data-skipping-change-stats-collected-across-versions", 5},
      {"delta-0.2.0", 4},
      {"dv-partitioned-with-checkpoint", 16},
      {"log-replay-latest-metadata-protocol", 3},
      {"snapshot-repartitioned", 6},
      {"time-travel-partition-changes-b", 2},
      {"v2-checkpoint-json", 3},
  };
  for (const auto& [name, commits] : tables) {
    SCOPED_TRACE(name);
    KeepAll sink;
    ASSERT_TRUE(Imports(RealTable("delta/" + name), &sink, commits));
    EXPECT_EQ(sink.source.format, Format::kDelta);
    for (size_t v = 0; v < commits; ++v) EXPECT_EQ(sink.commits[v].version, static_cast<int64_t>(v));
    // None of these tables had concurrent writers; every readVersion is version - 1.
    EXPECT_THAT(sink.findings, IsEmpty());
    EXPECT_EQ(sink.ends, 1);
  }
}

TEST(ImportDelta, ADeleteCarriesItsCommitInfoAndFiles) {
  KeepAll sink;
  ASSERT_TRUE(Imports(RealTable("delta/basic-with-inserts-deletes-checkpoint"), &sink));
  const ImportedCommit& c = sink.commits[13];
  EXPECT_EQ(c.operation, "DELETE");
  EXPECT_EQ(c.read_version, 12);
  EXPECT_EQ(c.isolation, "Serializable");
  EXPECT_EQ(c.blind_append, false);
  EXPECT_EQ(c.kind, "OVERWRITE");
  EXPECT_EQ(c.time_ms, 1691426743015);
  EXPECT_EQ(c.user, "Apache-Spark/3.4.0 Delta-Lake/3.0.0-SNAPSHOT");
  EXPECT_EQ(c.writer, "Apache-Spark-3-4-0-Delta-Lake-3-0-0-SNAPSHOT");
  ASSERT_EQ(c.removes.size(), 2u);
  ASSERT_EQ(c.adds.size(), 1u);
  EXPECT_EQ(c.removes[0].path, "part-00000-26da113c-2e45-4aba-b1ce-6eb5e46c53f7-c000.snappy.parquet");
  EXPECT_TRUE(c.removes[0].was_live);  // added by version 11
  EXPECT_EQ(c.details["commitInfo"]["txnId"], "153f81dc-ba06-46e8-81c7-75c26e500a57");
  EXPECT_EQ(c.details["commitInfo"]["operationParameters"]["predicate"], "[\"(id#6991L >= 66)\"]");
  EXPECT_EQ(c.details["time_from"], "commitInfo.timestamp");
  EXPECT_TRUE(sink.commits[0].blind_append.value_or(false));
  EXPECT_EQ(sink.commits[0].kind, "APPEND");
}

TEST(ImportDelta, AStreamingCommitIsItsAppIdsWriter) {
  KeepAll sink;
  ASSERT_TRUE(Imports(RealTable("delta/delta-0.2.0"), &sink));
  // Delta 0.2.0 wrote no engineInfo: those commits name no writer.
  EXPECT_EQ(sink.commits[0].writer, "writer");
  const ImportedCommit& s = sink.commits[3];
  EXPECT_EQ(s.operation, "STREAMING UPDATE");
  ASSERT_EQ(s.txns.size(), 1u);
  EXPECT_EQ(s.txns[0].first, "e4a20b59-dd0e-4c50-b074-e8ae4786df30");
  EXPECT_EQ(s.txns[0].second, 0);
  EXPECT_EQ(s.writer, "app-e4a20b59-dd0e-4c50-b074-e8ae4786df30");
  EXPECT_EQ(s.details["txn"][0]["appId"], "e4a20b59-dd0e-4c50-b074-e8ae4786df30");
  // An overwrite removes the four files versions 0 and 1 added.
  EXPECT_EQ(sink.commits[2].removes.size(), 4u);
  for (const FileAction& r : sink.commits[2].removes) EXPECT_TRUE(r.was_live) << r.path;
}

TEST(ImportDelta, DataChangeFalseIsACompaction) {
  KeepAll repartitioned;
  ASSERT_TRUE(Imports(RealTable("delta/snapshot-repartitioned"), &repartitioned));
  const ImportedCommit& c = repartitioned.commits[5];
  EXPECT_EQ(c.kind, "COMPACT");
  EXPECT_EQ(c.adds.size(), 2u);
  EXPECT_EQ(c.removes.size(), 3u);
  for (const FileAction& f : c.adds) EXPECT_FALSE(f.data_change);

  KeepAll optimize;
  ASSERT_TRUE(Imports(RealTable("delta/commit-info-containing-arbitrary-operationParams-types"), &optimize));
  const ImportedCommit& o = optimize.commits[2];
  EXPECT_EQ(o.operation, "OPTIMIZE");
  EXPECT_EQ(o.isolation, "SnapshotIsolation");
  EXPECT_EQ(o.kind, "COMPACT");
  ASSERT_FALSE(o.adds.empty());
  EXPECT_THAT(o.adds[0].partition, HasSubstr("month="));
  EXPECT_THAT(optimize.facts.partition_columns, ElementsAre("month"));
}

TEST(ImportDelta, MetadataAndProtocolChangesAreSaid) {
  KeepAll sink;
  ASSERT_TRUE(Imports(RealTable("delta/log-replay-latest-metadata-protocol"), &sink));
  EXPECT_TRUE(sink.commits[1].metadata_change);  // mergeSchema added col2 in a data commit
  EXPECT_EQ(sink.commits[1].details["metaData"]["schema"], "changed");
  ASSERT_TRUE(sink.commits[2].protocol.has_value());
  EXPECT_EQ(*sink.commits[2].protocol, std::make_pair(3, 7));

  KeepAll properties;
  ASSERT_TRUE(Imports(RealTable("delta/data-skipping-change-stats-collected-across-versions"), &properties));
  EXPECT_EQ(properties.commits[1].operation, "SET TBLPROPERTIES");
  EXPECT_EQ(properties.commits[1].kind, "METADATA");

  KeepAll repartition;
  ASSERT_TRUE(Imports(RealTable("delta/time-travel-partition-changes-b"), &repartition));
  const ImportedCommit& c = repartition.commits[1];
  EXPECT_EQ(c.details["metaData"]["partitionColumns"], Json::array({"part2"}));
  ASSERT_FALSE(c.adds.empty());
  EXPECT_THAT(c.adds[0].partition, HasSubstr("part2="));
  EXPECT_THAT(repartition.facts.partition_columns, ElementsAre("part2"));
}

TEST(ImportDelta, ADeletionVectorRemovesAndReaddsOnePath) {
  KeepAll sink;
  ASSERT_TRUE(Imports(RealTable("delta/dv-partitioned-with-checkpoint"), &sink));
  int readded = 0;
  for (size_t v = 1; v < sink.commits.size(); ++v) {
    const ImportedCommit& c = sink.commits[v];
    ASSERT_EQ(c.removes.size(), 1u) << v;
    EXPECT_TRUE(c.removes[0].was_live) << v;
    // A DELETE of some rows re-adds the file with a deletion vector; of all of them, drops it.
    ASSERT_LE(c.adds.size(), 1u) << v;
    if (c.adds.empty()) continue;
    EXPECT_EQ(c.removes[0].path, c.adds[0].path);
    EXPECT_TRUE(c.adds[0].deletion_vector);
    ++readded;
  }
  EXPECT_EQ(readded, 10);
}

TEST(ImportDelta, CheckpointsAreSaidNotRead) {
  KeepAll sink;
  ASSERT_TRUE(Imports(RealTable("delta/basic-with-inserts-deletes-checkpoint"), &sink));
  ASSERT_EQ(sink.source.not_read.size(), 1u);
  EXPECT_THAT(sink.source.not_read[0], HasSubstr("the checkpoint at version 10 (named by _last_checkpoint, not in "
                                                 "the folder)"));
  KeepAll v2;
  ASSERT_TRUE(Imports(RealTable("delta/v2-checkpoint-json"), &v2));
  EXPECT_EQ(v2.commits.size(), 3u);  // the V2 checkpoint's JSON manifest is not a commit
  ASSERT_EQ(v2.source.not_read.size(), 1u);
  EXPECT_THAT(v2.source.not_read[0],
              HasSubstr("00000000000000000002.checkpoint.6374b053-df23-479b-b2cf-c9c550132b49.json, a V2 checkpoint "
                        "manifest (JSON, not a commit) with 2 Parquet sidecar(s)"));
}

TEST(ImportDelta, ACommitAfterConcurrentOnesIsANote) {
  KeepAll sink;
  ASSERT_TRUE(Imports(WrittenLog("delta-concurrent"), &sink));
  const std::vector<Finding> found = sink.Of("concurrent_commit");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_FALSE(found[0].problem);
  EXPECT_THAT(found[0].commits, ElementsAre(1, 2));
  EXPECT_THAT(found[0].message, HasSubstr("a blind append) read version 0"));
  EXPECT_THAT(found[0].message, HasSubstr("lets it past any commit"));
  EXPECT_THAT(found[1].commits, ElementsAre(2, 3));
  EXPECT_THAT(found[1].message, HasSubstr("It is not a blind append"));
  EXPECT_THAT(found[1].message, HasSubstr("under Serializable"));
}

TEST(ImportDelta, AnAppVersionThatRepeatsOrGoesBackIsAProblem) {
  KeepAll sink;
  ASSERT_TRUE(Imports(WrittenLog("delta-app-version"), &sink));
  const std::vector<Finding> found = sink.Of("app_version");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_TRUE(found[0].problem);
  EXPECT_THAT(found[0].commits, ElementsAre(2, 3));
  EXPECT_THAT(found[0].message, HasSubstr("the same batch twice"));
  EXPECT_THAT(found[1].commits, ElementsAre(3, 4));
  EXPECT_THAT(found[1].message, HasSubstr("went backwards"));
}

TEST(ImportDelta, ARemoveOfAFileNeverAddedIsAProblem) {
  KeepAll sink;
  ASSERT_TRUE(Imports(WrittenLog("delta-remove-never-added"), &sink));
  ASSERT_EQ(sink.findings.size(), 1u);
  EXPECT_EQ(sink.findings[0].kind, "remove_never_added");
  EXPECT_TRUE(sink.findings[0].problem);
  EXPECT_THAT(sink.findings[0].message, HasSubstr("x=1/z.parquet"));
}

TEST(ImportDelta, AClockThatGoesBackIsMovedAfterAndSaid) {
  KeepAll sink;
  ASSERT_TRUE(Imports(WrittenLog("delta-time-backwards"), &sink));
  ASSERT_EQ(sink.findings.size(), 1u);
  EXPECT_EQ(sink.findings[0].kind, "time_backwards");
  EXPECT_FALSE(sink.findings[0].problem);
  EXPECT_EQ(sink.commits[1].time_ms, 5001);                             // monotonized for the timeline
  EXPECT_EQ(sink.commits[1].details["commitInfo"]["timestamp"], 4000);  // the log's own time
}

TEST(ImportDelta, ALogStartingAfterZeroWithoutACheckpointIsAGap) {
  KeepAll sink;
  ASSERT_TRUE(Imports(WrittenLog("delta-gap-start"), &sink));
  ASSERT_EQ(sink.Of("gap").size(), 1u);
  EXPECT_TRUE(sink.Of("gap")[0].problem);
  EXPECT_THAT(sink.Of("gap")[0].message, HasSubstr("the log starts at version 3"));
  // The remove of a file added before version 3 cannot be judged: one note says so.
  ASSERT_EQ(sink.Of("remove_never_added").size(), 1u);
  EXPECT_FALSE(sink.Of("remove_never_added")[0].problem);
  EXPECT_THAT(sink.source.not_read[0], HasSubstr("versions 0..2: not in the log"));
}

TEST(ImportDelta, BadInputNamesTheFileAndLine) {
  const std::map<std::string, std::string> cases = {
      {"delta-truncated", "delta-truncated/_delta_log/00000000000000000001.json:2: not JSON (the text ends too early"},
      {"delta-not-json", "delta-not-json/_delta_log/00000000000000000000.json:2: not JSON: syntax error"},
      {"delta-missing-version",
       "delta-missing-version/_delta_log/00000000000000000002.json: missing: the log holds versions 0..3 but not 2"},
      {"delta-unknown-action",
       "delta-unknown-action/_delta_log/00000000000000000000.json:4: unknown action \"futureAction\""},
      {"delta-protocol-too-new",
       "delta-protocol-too-new/_delta_log/00000000000000000000.json:3: protocol (4, 8): Delta defines reader versions "
       "1..3 and writer versions 1..7"},
      {"delta-empty-commit",
       "delta-empty-commit/_delta_log/00000000000000000001.json:1: empty: a commit holds at least one action"},
  };
  for (const auto& [log, message] : cases) {
    SCOPED_TRACE(log);
    KeepAll sink;
    const Status st = Import(WrittenLog(log), &sink);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.code(), Code::kInvalidArgument);
    EXPECT_THAT(st.message(), HasSubstr(message));
    EXPECT_EQ(sink.ends, 0);  // nothing was finished from a log that cannot be read
  }
}

TEST(ImportDelta, DetectionNamesWhatItLookedFor) {
  Result<Format> none = DetectFormat(RealTable(""));
  ASSERT_FALSE(none.ok());
  EXPECT_THAT(none.status().message(), HasSubstr("holds no table log"));
  KeepAll sink;
  const Status forced =
      ImportLog({.path = RealTable("iceberg/iceberg_v3_default_value"), .format = Format::kDelta}, &sink);
  ASSERT_FALSE(forced.ok());
  EXPECT_THAT(forced.message(), HasSubstr("_delta_log: cannot list"));
}

}  // namespace
}  // namespace commitlab::sim::import
