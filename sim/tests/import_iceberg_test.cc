// Iceberg metadata through `commitlab import`'s reader: upstream's parser fixtures (accepted, or
// refused with TableMetadataParser's own message), the engine-written tables as chains of
// versions, and the lineage findings on metadata written for them.
#include <stdlib.h>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "import_test_util.h"

namespace commitlab::sim::import {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

TEST(ImportIceberg, UpstreamsValidFixturesImport) {
  const std::map<std::string, size_t> valid = {{"TableMetadataV1Valid.json", 0},
                                               {"TableMetadataV2Valid.json", 2},
                                               {"TableMetadataV2ValidMinimal.json", 0},
                                               {"TableMetadataV3ValidMinimal.json", 0},
                                               {"TableMetadataStatisticsFiles.json", 1}};
  for (const auto& [file, snapshots] : valid) {
    SCOPED_TRACE(file);
    KeepAll sink;
    ASSERT_TRUE(Imports(IcebergFixture(file), &sink, snapshots));
    EXPECT_EQ(sink.source.format, Format::kIceberg);
    EXPECT_EQ(sink.ends, 1);
  }
}

TEST(ImportIceberg, UpstreamsInvalidFixturesAreRefusedWithItsMessages) {
  // TestTableMetadata asserts these messages; the line is where the value (or the object) is.
  const std::map<std::string, std::string> invalid = {
      {"TableMetadataUnsupportedVersion.json", ":2: Cannot read unsupported version 42"},
      {"TableMetadataV2MissingSchemas.json", ":1: schemas must exist in format v2"},
      {"TableMetadataV2CurrentSchemaNotFound.json", ":8: Cannot find schema with current-schema-id=2 from schemas"},
      {"TableMetadataV2MissingSortOrder.json", ":1: sort-orders must exist in format v2"},
  };
  for (const auto& [file, message] : invalid) {
    SCOPED_TRACE(file);
    KeepAll sink;
    const Status st = Import(IcebergFixture(file), &sink);
    ASSERT_FALSE(st.ok());
    EXPECT_THAT(st.message(), HasSubstr(file + message));
    EXPECT_EQ(sink.ends, 0);
  }
}

TEST(ImportIceberg, OneFilesSnapshotsAreItsCommits) {
  KeepAll sink;
  ASSERT_TRUE(Imports(IcebergFixture("TableMetadataV2Valid.json"), &sink, 2u));
  EXPECT_EQ(sink.commits[1].operation, "append");
  EXPECT_EQ(sink.commits[1].details["parent-snapshot-id"], 3051729675574597004);
  EXPECT_EQ(sink.commits[1].details["sequence-number"], 1);
  EXPECT_EQ(sink.commits[1].details["refs"], Json::array({"main"}));
  EXPECT_THAT(sink.facts.partition_columns, ElementsAre("x"));
  // Real data showing a gap: last-sequence-number 34 while the newest snapshot has 1.
  ASSERT_EQ(sink.Of("gap").size(), 1u);
  EXPECT_FALSE(sink.Of("gap")[0].problem);
  EXPECT_THAT(sink.Of("gap")[0].message, HasSubstr("sequence numbers 2..34 belong to snapshots not in this metadata"));
}

TEST(ImportIceberg, ASparkCompactionChainIsReadVersionByVersion) {
  KeepAll sink;
  ASSERT_TRUE(Imports(RealTable("iceberg/iceberg_spark_compaction_with_dangling_delete"), &sink, 5u));
  EXPECT_EQ(sink.commits[0].operation, "create table");
  EXPECT_EQ(sink.commits[0].kind, "METADATA");
  EXPECT_EQ(sink.commits[1].operation, "append");
  EXPECT_EQ(sink.commits[2].added_delete_files, 1);  // a merge-on-read update
  EXPECT_EQ(sink.commits[4].operation, "replace");
  EXPECT_EQ(sink.commits[4].kind, "COMPACT");
  EXPECT_EQ(sink.commits[4].removed_files, 2);
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(sink.commits[i].version, static_cast<int64_t>(i + 1));
  EXPECT_THAT(sink.findings, IsEmpty());
}

TEST(ImportIceberg, FlinkJobsAreWritersOfTheirOwn) {
  KeepAll sink;
  ASSERT_TRUE(Imports(RealTable("iceberg/iceberg_v2_delete_equality_partitioned"), &sink, 5u));
  EXPECT_EQ(sink.commits[1].writer, "flink-d790a22a176d9ddd8657533e41628505");
  EXPECT_EQ(sink.commits[4].writer, "flink-0909766ab9d7637470b746e6f14cbde6");
  EXPECT_EQ(sink.commits[4].added_delete_files, 1);
  EXPECT_THAT(sink.facts.partition_columns, ElementsAre("d"));
  EXPECT_THAT(sink.findings, IsEmpty());
}

TEST(ImportIceberg, ASchemaOnlyVersionAndRenamedFiles) {
  KeepAll sink;
  ASSERT_TRUE(Imports(RealTable("iceberg/iceberg_v3_default_value"), &sink, 4u));
  EXPECT_EQ(sink.commits[2].kind, "METADATA");
  EXPECT_EQ(sink.commits[2].operation, "schema 0 -> 1");
  EXPECT_EQ(sink.commits[2].details["schema-change"]["to"], 1);
  EXPECT_EQ(sink.commits[3].writer, "spark-local-1770927880339");
  // The metadata-logs name 0000N-<uuid>.metadata.json; upstream renamed them to vN: matched by time.
  EXPECT_THAT(sink.findings, IsEmpty());
  ASSERT_EQ(sink.facts.notes.size(), 1u);
  EXPECT_THAT(sink.facts.notes[0], HasSubstr("matched to its file by its last-updated-ms"));
}

TEST(ImportIceberg, AVersionWrittenOnAnOlderOneIsAFork) {
  KeepAll sink;
  ASSERT_TRUE(Imports(WrittenLog("iceberg-fork"), &sink));
  ASSERT_EQ(sink.findings.size(), 3u);
  for (const Finding& f : sink.findings) {
    EXPECT_TRUE(f.problem) << f.kind;
    EXPECT_EQ(f.version, 4) << f.kind;
  }
  EXPECT_THAT(sink.Of("metadata_log_fork")[0].message,
              HasSubstr("v4.metadata.json's metadata-log says it was written on v2.metadata.json, not on version 3"));
  EXPECT_THAT(sink.Of("parent_not_previous")[0].message,
              HasSubstr("snapshot 103 of version 4 has parent 101, but version 3's current snapshot was 102"));
  EXPECT_THAT(sink.Of("sequence_not_increasing")[0].message,
              HasSubstr("snapshot 103 has sequence number 2, not above 2"));
}

// A folder whose only version holds `n` snapshots, each appending on the one before; snapshot
// `stuck` (1-based) repeats the sequence number before it.
std::string OneVersionOfManySnapshots(const std::string& dir, int n, int stuck) {
  Json snapshots = Json::array();
  Json log = Json::array();
  int64_t seq = 0;
  for (int i = 1; i <= n; ++i) {
    seq = i == stuck ? seq : seq + 1;
    Json s = {{"snapshot-id", 100 + i},
              {"sequence-number", seq},
              {"timestamp-ms", 1000 * i},
              {"summary", {{"operation", i == n ? "overwrite" : "append"}}},
              {"manifest-list", "m.avro"}};
    if (i > 1) s["parent-snapshot-id"] = 99 + i;
    snapshots.push_back(s);
    log.push_back({{"timestamp-ms", 1000 * i}, {"snapshot-id", 100 + i}});
  }
  const Json m = {{"format-version", 2},
                  {"table-uuid", "9c12d441-03fe-4693-9a96-a0705ddf69c1"},
                  {"location", "/t"},
                  {"last-sequence-number", seq},
                  {"last-updated-ms", 1000 * n},
                  {"last-column-id", 1},
                  {"current-schema-id", 0},
                  {"schemas", {{{"type", "struct"}, {"schema-id", 0}, {"fields", Json::array()}}}},
                  {"default-spec-id", 0},
                  {"partition-specs", {{{"spec-id", 0}, {"fields", Json::array()}}}},
                  {"last-partition-id", 999},
                  {"default-sort-order-id", 0},
                  {"sort-orders", {{{"order-id", 0}, {"fields", Json::array()}}}},
                  {"current-snapshot-id", 100 + n},
                  {"snapshots", snapshots},
                  {"snapshot-log", log}};
  std::filesystem::create_directories(dir + "/metadata");
  std::ofstream(dir + "/metadata/v1.metadata.json") << m.dump(1) << "\n";
  return dir;
}

TEST(ImportIceberg, AVersionOfManySnapshotsIsOneCommitCheckedSnapshotBySnapshot) {
  std::string pattern = (std::filesystem::temp_directory_path() / "commitlab-import-XXXXXX").string();
  ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
  KeepAll sink;
  const Status st = Import(OneVersionOfManySnapshots(pattern, 12, 11), &sink);
  std::filesystem::remove_all(pattern);
  ASSERT_TRUE(st.ok()) << st.message();
  ASSERT_EQ(sink.commits.size(), 1u);
  const ImportedCommit& c = sink.commits[0];
  // The last snapshot is the commit; the first eight operations are named, the rest counted.
  EXPECT_EQ(c.details["snapshot-id"], 112);
  EXPECT_EQ(c.details["snapshots"], 12);
  EXPECT_EQ(c.details["metadata-file"], "v1.metadata.json");
  EXPECT_EQ(c.operation, "append+append+append+append+append+append+append+append+... (12 snapshots)");
  // Every snapshot of the version goes through the sequence check, not only those named.
  ASSERT_EQ(sink.Of("sequence_not_increasing").size(), 1u);
  EXPECT_THAT(sink.Of("sequence_not_increasing")[0].message,
              HasSubstr("snapshot 111 has sequence number 10, not above 10"));
}

TEST(ImportIceberg, OneFilesSnapshotLogShowsAParentThatWasNotCurrent) {
  KeepAll sink;
  ASSERT_TRUE(Imports(WrittenLog("iceberg-lineage.metadata.json"), &sink));
  ASSERT_EQ(sink.Of("parent_not_previous").size(), 1u);
  EXPECT_THAT(sink.Of("parent_not_previous")[0].commits, ElementsAre(2, 3));
  EXPECT_THAT(sink.Of("parent_not_previous")[0].message,
              HasSubstr("snapshot 203 became current after snapshot 202, but its parent is 201"));
  ASSERT_EQ(sink.Of("sequence_not_increasing").size(), 1u);
}

// Everything a sink saw, as text to compare.
std::string Seen(const Status& st, const KeepAll& sink) {
  Json out = {{"status", st.ok() ? "ok" : st.message()},
              {"read", sink.source.read},
              {"not_read", sink.source.not_read},
              {"first", sink.source.first ? Json(*sink.source.first) : Json()},
              {"last", sink.source.last ? Json(*sink.source.last) : Json()},
              {"partitions", sink.facts.partition_columns},
              {"notes", sink.facts.notes},
              {"ends", sink.ends}};
  for (const ImportedCommit& c : sink.commits)
    out["commits"].push_back({c.version, c.time_ms, c.writer, c.operation, c.kind, c.metadata_change, c.details});
  for (const Finding& f : sink.findings)
    out["findings"].push_back({f.kind, f.problem, f.version, f.commits, f.writer, f.message});
  return out.dump(1);
}

// A reader holding a few entries at a time (many passes over the file or the folder, the
// snapshot-log joined part by part) reads every log as it does holding all of them at once.
TEST(ImportIceberg, AFewEntriesAtATimeReadTheSameLog) {
  std::vector<std::string> logs = {
      WrittenLog("iceberg-rollbacks.metadata.json"),         WrittenLog("iceberg-versions-mix"),
      WrittenLog("iceberg-lineage.metadata.json"),           WrittenLog("iceberg-fork"),
      WrittenLog("iceberg-truncated.metadata.json"),         IcebergFixture("TableMetadataV2Valid.json"),
      IcebergFixture("TableMetadataV2MissingSortOrder.json")};
  for (const char* t : {"iceberg_spark_compaction_with_dangling_delete", "iceberg_v2_delete_equality_partitioned",
                        "iceberg_v3_default_value"}) {
    logs.push_back(RealTable(std::string("iceberg/") + t));
    for (const auto& e : std::filesystem::directory_iterator(RealTable(std::string("iceberg/") + t + "/metadata")))
      if (e.path().string().ends_with(".metadata.json")) logs.push_back(e.path().string());
  }
  for (const std::string& log : logs) {
    SCOPED_TRACE(log);
    KeepAll all;
    const std::string expected = Seen(ImportLog({.path = log, .format = {}}, &all), all);
    for (int64_t entries : {1, 2, 3, 5}) {
      SCOPED_TRACE(entries);
      KeepAll few;
      const Status st = ImportLog({.path = log, .format = {}, .memory_entries = entries}, &few);
      EXPECT_EQ(Seen(st, few), expected);
    }
  }
}

// Rollbacks, a staged snapshot made current later, snapshot-log entries of expired snapshots and a
// snapshot listed twice: each finding names the commits the whole-file reader named.
TEST(ImportIceberg, RollbacksAndStagedSnapshotsInOneFile) {
  KeepAll sink;
  ASSERT_TRUE(
      ImportLog({.path = WrittenLog("iceberg-rollbacks.metadata.json"), .format = {}, .memory_entries = 2}, &sink)
          .ok());
  std::vector<std::string> lineage;
  for (const Finding& f : sink.Of("parent_not_previous"))
    lineage.push_back(fmt::format("{} {} {}", f.problem ? "problem" : "note", f.version, Json(f.commits).dump()));
  // Snapshot 5 (third in the file) became current after 4, which the file lists after it: the
  // finding names 5's commit alone; likewise 6 after 7.
  EXPECT_THAT(lineage, ElementsAre("problem 3 [3,3]", "problem 6 [6,6]", "problem 7 [3,7]", "note 2 []", "note 5 []",
                                   "note 8 []", "note 1 []"));
}

TEST(ImportIceberg, BadMetadataNamesTheFileAndLine) {
  KeepAll sink;
  const Status not_object = Import(WrittenLog("iceberg-not-object.metadata.json"), &sink);
  EXPECT_THAT(not_object.message(),
              HasSubstr("iceberg-not-object.metadata.json:1: Cannot parse metadata from a non-object"));
  const Status cut = Import(WrittenLog("iceberg-truncated.metadata.json"), &sink);
  EXPECT_THAT(cut.message(), HasSubstr("iceberg-truncated.metadata.json:39: not JSON: "));
  EXPECT_EQ(sink.ends, 0);
}

}  // namespace
}  // namespace commitlab::sim::import
