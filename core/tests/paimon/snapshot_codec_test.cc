#include "commitlab/core/paimon/snapshot_codec.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include "commitlab/core/rng.h"

namespace commitlab {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr std::string_view kPath = "t/snapshot/snapshot-3";

Snapshot SampleSnapshot() {
  return Snapshot{.id = 3,
                  .parent_id = 2,
                  .commit_user = "user-\"a\"",
                  .commit_identifier = std::numeric_limits<int64_t>::max(),
                  .kind = CommitKind::kCompact,
                  .time_millis = 1700000000123,
                  .total_records = 42,
                  .delta_records = -8,
                  .delta_manifest = "manifest-abc-7",
                  .changes = {}};
}

std::vector<FileChange> SampleChanges() {
  return {
      {ChangeKind::kDelete, DataFile{"data-1.parquet", "dt=2024-01-01", 0, 0, 1, 10, 10}},
      {ChangeKind::kAdd, DataFile{"data-\u00e9.parquet", "", -1, 5, std::numeric_limits<int64_t>::min(),
                                  std::numeric_limits<int64_t>::max(), 2}},
  };
}

using ordered_json = nlohmann::ordered_json;

// The snapshot JSON, compact, with `field`'s value text replaced by `value` (or added last).
std::string WithField(std::string_view field, std::string_view value) {
  ordered_json v = ordered_json::parse(EncodeSnapshot(SampleSnapshot()));
  v[std::string(field)] = ordered_json::parse(value);
  return v.dump();
}

std::string WithoutField(std::string_view field) {
  ordered_json v = ordered_json::parse(EncodeSnapshot(SampleSnapshot()));
  v.erase(std::string(field));
  return v.dump();
}

void ExpectCorruption(const Status& st, std::string_view message) {
  EXPECT_EQ(st.code(), Code::kCorruption) << st.ToString();
  EXPECT_EQ(st.message(), message);
}

TEST(SnapshotCodecTest, EncodesPaimonStylePrettyJson) {
  EXPECT_EQ(EncodeSnapshot(SampleSnapshot()),
            "{\n"
            "  \"version\" : 3,\n"
            "  \"id\" : 3,\n"
            "  \"parentId\" : 2,\n"
            "  \"commitUser\" : \"user-\\\"a\\\"\",\n"
            "  \"commitIdentifier\" : 9223372036854775807,\n"
            "  \"commitKind\" : \"COMPACT\",\n"
            "  \"timeMillis\" : 1700000000123,\n"
            "  \"totalRecordCount\" : 42,\n"
            "  \"deltaRecordCount\" : -8,\n"
            "  \"deltaManifestList\" : \"manifest-abc-7\"\n"
            "}\n");
}

TEST(SnapshotCodecTest, RoundTripsEveryKind) {
  for (CommitKind kind : {CommitKind::kAppend, CommitKind::kCompact, CommitKind::kOverwrite}) {
    Snapshot s = SampleSnapshot();
    s.kind = kind;
    Result<Snapshot> back = DecodeSnapshot(EncodeSnapshot(s), kPath);
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, s);
  }
}

TEST(SnapshotCodecTest, ChangesAreNotWritten) {
  Snapshot s = SampleSnapshot();
  s.changes = SampleChanges();
  const std::string json = EncodeSnapshot(s);
  EXPECT_EQ(json, EncodeSnapshot(SampleSnapshot()));
  EXPECT_TRUE(DecodeSnapshot(json, kPath)->changes.empty());
}

TEST(SnapshotCodecTest, IgnoresUnknownFields) {
  Result<Snapshot> s = DecodeSnapshot(WithField("schemaId", "0"), kPath);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(*s, SampleSnapshot());
}

TEST(SnapshotCodecTest, EmptyFile) {
  ExpectCorruption(DecodeSnapshot("", kPath).status(), "t/snapshot/snapshot-3: empty file");
}

TEST(SnapshotCodecTest, TruncatedFile) {
  const std::string json = EncodeSnapshot(SampleSnapshot());
  const Status st = DecodeSnapshot(std::string_view(json).substr(0, 120), kPath).status();
  EXPECT_EQ(st.code(), Code::kCorruption);
  EXPECT_THAT(st.message(), StartsWith("t/snapshot/snapshot-3: truncated JSON: "));
  EXPECT_THAT(st.message(), HasSubstr("at offset 120"));
  // Cut after a whole member: the reader wanted the object to go on or close.
  const size_t cut = json.find(",\n  \"commitKind\"");
  ExpectCorruption(DecodeSnapshot(std::string_view(json).substr(0, cut), kPath).status(),
                   fmt::format("t/snapshot/snapshot-3: truncated JSON: expected ',' or '}}' at offset {}", cut));
}

TEST(SnapshotCodecTest, Garbage) {
  ExpectCorruption(DecodeSnapshot("PK\x03\x04 not json", kPath).status(),
                   "t/snapshot/snapshot-3: invalid JSON: expected a value at offset 0");
  ExpectCorruption(DecodeSnapshot(EncodeSnapshot(SampleSnapshot()) + "}", kPath).status(),
                   fmt::format("t/snapshot/snapshot-3: invalid JSON: unexpected trailing data at offset {}",
                               EncodeSnapshot(SampleSnapshot()).size()));
  ExpectCorruption(DecodeSnapshot("[1, 2]", kPath).status(),
                   "t/snapshot/snapshot-3: expected a JSON object, got array");
}

TEST(SnapshotCodecTest, MissingField) {
  for (std::string_view field : {"version", "id", "parentId", "commitUser", "commitIdentifier", "commitKind",
                                 "timeMillis", "totalRecordCount", "deltaRecordCount", "deltaManifestList"}) {
    ExpectCorruption(DecodeSnapshot(WithoutField(field), kPath).status(),
                     fmt::format("t/snapshot/snapshot-3: field \"{}\" is missing", field));
  }
}

TEST(SnapshotCodecTest, WrongFieldType) {
  ExpectCorruption(DecodeSnapshot(WithField("id", "\"3\""), kPath).status(),
                   "t/snapshot/snapshot-3: field \"id\" must be an integer, got string");
  ExpectCorruption(DecodeSnapshot(WithField("commitUser", "7"), kPath).status(),
                   "t/snapshot/snapshot-3: field \"commitUser\" must be a string, got integer");
  ExpectCorruption(DecodeSnapshot(WithField("timeMillis", "1.5"), kPath).status(),
                   "t/snapshot/snapshot-3: field \"timeMillis\" must be an integer, got number");
}

TEST(SnapshotCodecTest, BadCommitKind) {
  ExpectCorruption(DecodeSnapshot(WithField("commitKind", "\"FOO\""), kPath).status(),
                   "t/snapshot/snapshot-3: field \"commitKind\" has unknown value \"FOO\"");
  ExpectCorruption(DecodeSnapshot(WithField("commitKind", "\"append\""), kPath).status(),
                   "t/snapshot/snapshot-3: field \"commitKind\" has unknown value \"append\"");
}

TEST(SnapshotCodecTest, BadVersionAndIds) {
  ExpectCorruption(DecodeSnapshot(WithField("version", "4"), kPath).status(),
                   "t/snapshot/snapshot-3: unsupported version 4, expected 3");
  ExpectCorruption(DecodeSnapshot(WithField("id", "0"), kPath).status(),
                   "t/snapshot/snapshot-3: field \"id\" must be at least 1, got 0");
  ExpectCorruption(DecodeSnapshot(WithField("parentId", "3"), kPath).status(),
                   "t/snapshot/snapshot-3: field \"parentId\" must be in [0, 3), got 3");
  ExpectCorruption(DecodeSnapshot(WithField("parentId", "-1"), kPath).status(),
                   "t/snapshot/snapshot-3: field \"parentId\" must be in [0, 3), got -1");
}

// Seeded byte-level damage (flip, drop, insert, cut): every result is a snapshot or a Corruption
// naming the file, never a crash (the ASan build runs this too).
TEST(SnapshotCodecTest, SurvivesRandomDamage) {
  static constexpr char kSpecial[] = "{}[]\\\",:0\n";
  Rng rng(42);
  const std::string good = EncodeSnapshot(SampleSnapshot());
  int decoded = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = good;
    for (int edits = 1 + static_cast<int>(rng.Below(3)); edits > 0 && !text.empty(); --edits) {
      const size_t at = rng.Below(text.size());
      switch (rng.Below(4)) {
        case 0: text[at] = static_cast<char>(rng.Below(256)); break;
        case 1: text.erase(at, 1); break;
        case 2: text.insert(at, 1, kSpecial[rng.Below(sizeof(kSpecial) - 1)]); break;
        default: text.resize(at); break;
      }
    }
    Result<Snapshot> s = DecodeSnapshot(text, kPath);
    if (s.ok()) {
      ++decoded;
      continue;
    }
    EXPECT_EQ(s.status().code(), Code::kCorruption);
    EXPECT_THAT(s.status().message(), StartsWith(std::string(kPath) + ": ")) << text;
  }
  EXPECT_LT(decoded, 3000);
}

TEST(SnapshotManifestCodecTest, RoundTrip) {
  const std::vector<FileChange> changes = SampleChanges();
  const std::string json = EncodeManifest(changes);
  Result<std::vector<FileChange>> back = DecodeManifest(json, "t/manifest/m");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, changes);
  EXPECT_EQ(EncodeManifest({}), "[]\n");
  EXPECT_TRUE(DecodeManifest("[]", "t/manifest/m")->empty());
}

// Found by the manifest fuzzer: "totalBuckets": -1 decoded, was not written back, and read as 0.
TEST(SnapshotManifestCodecTest, RoundTripsEveryBucketCount) {
  for (const int32_t total : {-2, -1, 0, 1, 4}) {
    std::vector<FileChange> changes = SampleChanges();
    changes[0].file.total_buckets = total;
    Result<std::vector<FileChange>> back = DecodeManifest(EncodeManifest(changes), "t/manifest/m");
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, changes) << "totalBuckets " << total;
  }
}

TEST(SnapshotManifestCodecTest, OneEntryALine) {
  EXPECT_EQ(EncodeManifest({SampleChanges()[0]}),
            "[\n"
            "  {\"kind\": \"DELETE\", \"partition\": \"dt=2024-01-01\", \"bucket\": 0, \"level\": 0, "
            "\"fileName\": \"data-1.parquet\", \"minKey\": 1, \"maxKey\": 10, \"rowCount\": 10}\n"
            "]\n");
}

TEST(SnapshotManifestCodecTest, Errors) {
  const std::string_view path = "t/manifest/m";
  ExpectCorruption(DecodeManifest("", path).status(), "t/manifest/m: empty file");
  ExpectCorruption(DecodeManifest("[{\"kind\": \"ADD\"", path).status(),
                   "t/manifest/m: truncated JSON: expected ',' or '}' at offset 15");
  ExpectCorruption(DecodeManifest("{}", path).status(), "t/manifest/m: expected a JSON array, got object");
  ExpectCorruption(DecodeManifest("[1]", path).status(), "t/manifest/m: entry 0: expected an object, got integer");

  const std::string good = ordered_json::parse(EncodeManifest({SampleChanges()[0]})).dump();
  std::string bad_kind = good;
  bad_kind.replace(bad_kind.find("\"DELETE\""), 8, "\"MODIFY\"");
  ExpectCorruption(DecodeManifest(bad_kind, path).status(),
                   "t/manifest/m: entry 0: field \"kind\" has unknown value \"MODIFY\"");
  std::string big_bucket = good;
  big_bucket.replace(big_bucket.find("\"bucket\":0"), 10, "\"bucket\":4294967296");
  ExpectCorruption(DecodeManifest(big_bucket, path).status(),
                   "t/manifest/m: entry 0: field \"bucket\" is out of range: 4294967296");
  std::string no_name = good;
  no_name.replace(no_name.find("\"data-1.parquet\""), 16, "\"\"");
  ExpectCorruption(DecodeManifest(no_name, path).status(), "t/manifest/m: entry 0: field \"fileName\" is empty");
  std::string no_rows = good;
  no_rows.replace(no_rows.find(",\"rowCount\":10"), 14, "");
  ExpectCorruption(DecodeManifest(no_rows, path).status(), "t/manifest/m: entry 0: field \"rowCount\" is missing");
}

TEST(SnapshotManifestCodecTest, ErrorNamesTheFailingEntry) {
  std::vector<FileChange> changes = SampleChanges();
  std::string json = EncodeManifest(changes);
  const size_t second = json.find("\"level\": 5");
  json.replace(second, 10, "\"level\": \"5\"");
  ExpectCorruption(DecodeManifest(json, "t/manifest/m").status(),
                   "t/manifest/m: entry 1: field \"level\" must be an integer, got string");
}

}  // namespace
}  // namespace commitlab
