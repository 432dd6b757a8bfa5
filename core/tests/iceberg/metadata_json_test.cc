#include "commitlab/core/iceberg/metadata_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/iceberg/deletes.h"
#include "commitlab/core/iceberg/operation.h"
#include "commitlab/testing/iceberg_test_util.h"

namespace commitlab::iceberg {
namespace {

using ::testing::HasSubstr;

std::vector<std::string> Paths(const FileSet& files) {
  std::vector<std::string> out;
  for (const auto& [path, f] : files) out.push_back(path);
  return out;
}

// Each path with its data sequence number, as a reader looks it up (FileSet::sequence).
std::vector<std::pair<std::string, int64_t>> Sequences(const FileSet& files) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const auto& [path, f] : files)
    if (out.empty() || out.back().first != path) out.emplace_back(path, files.sequence(path));
  return out;
}

std::vector<std::string> ManifestPaths(const Snapshot& s) {
  std::vector<std::string> out;
  for (const ManifestRef& m : s.manifests) out.push_back(m->path);
  return out;
}

// Everything a reader of the table looks at, compared snapshot by snapshot.
void ExpectSameTable(const TableMetadata& a, const TableMetadata& b) {
  EXPECT_EQ(a.table_name, b.table_name);
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.location, b.location);
  EXPECT_EQ(a.current_schema_id, b.current_schema_id);
  EXPECT_EQ(a.last_sequence_number, b.last_sequence_number);
  EXPECT_EQ(a.last_updated_ms, b.last_updated_ms);
  EXPECT_EQ(a.current_snapshot_id, b.current_snapshot_id);
  EXPECT_EQ(a.metadata_log.TimedEntries(), b.metadata_log.TimedEntries());
  ASSERT_EQ(a.snapshots.size(), b.snapshots.size());
  for (size_t i = 0; i < a.snapshots.size(); ++i) {
    SCOPED_TRACE(i);
    const Snapshot& x = *a.snapshots[i];
    const Snapshot& y = *b.snapshots[i];
    EXPECT_EQ(x.snapshot_id, y.snapshot_id);
    EXPECT_EQ(x.parent_id, y.parent_id);
    EXPECT_EQ(x.sequence_number, y.sequence_number);
    EXPECT_EQ(x.operation, y.operation);
    EXPECT_EQ(x.committed_by, y.committed_by);
    EXPECT_EQ(x.manifest_list, y.manifest_list);
    EXPECT_EQ(x.summary, y.summary);
    EXPECT_EQ(ManifestPaths(x), ManifestPaths(y));
    EXPECT_EQ(Paths(*x.live_files), Paths(*y.live_files));
    EXPECT_EQ(Paths(x.live_deletes ? *x.live_deletes : FileSet{}), Paths(y.live_deletes ? *y.live_deletes : FileSet{}));
    EXPECT_EQ(Sequences(*x.live_files), Sequences(*y.live_files));
    EXPECT_EQ(Sequences(x.live_deletes ? *x.live_deletes : FileSet{}),
              Sequences(y.live_deletes ? *y.live_deletes : FileSet{}));
    ASSERT_EQ(x.deleted_files.size(), y.deleted_files.size());
    for (const auto& [path, f] : *x.live_files) {
      auto it = y.live_files->find(path);
      ASSERT_NE(it, y.live_files->end());
      EXPECT_EQ(f->rows, it->second->rows);
      EXPECT_EQ(f->file.partition, it->second->file.partition);
      EXPECT_EQ(f->content, it->second->content);
    }
  }
}

class MetadataJsonTest : public test::IcebergFixture {
 protected:
  MetadataRef RoundTrip(const TableMetadata& m) {
    Result<MetadataRef> back = DecodeMetadata(EncodeMetadata(m), "metadata/x.metadata.json",
                                              {.location = m.location, .table_name = m.table_name});
    EXPECT_TRUE(back.ok()) << back.status().ToString();
    return back.ok() ? *back : nullptr;
  }
  void Commit(const Operation& op) {
    IcebergCommitter c = Make("job-A");
    Result<CommitResult> r = c.Commit(op);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }
};

TEST_F(MetadataJsonTest, AnEmptyTableReadsBack) {
  MetadataRef back = RoundTrip(*Current());
  ASSERT_NE(back, nullptr);
  ExpectSameTable(*Current(), *back);
}

TEST_F(MetadataJsonTest, AppendsDeletesRowDeltasAndExpiryReadBackSnapshotBySnapshot) {
  FileRef a = Data("a", {{{"id", int64_t{1}}, {"name", std::string("x")}}}, "dt=1");
  FileRef b = Data("b", OneRow(), "dt=2");
  Commit(NewAppend(*Current(), {a}));
  Commit(NewAppend(*Current(), {b}));
  Commit(NewDeleteFiles(*Current(), {a}));
  FileRef c = Data("c", {{{"id", int64_t{7}}}}, "dt=2");
  FileRef pos = MakePositionDeleteFile("data/dt=2/pos.parquet", {{b->path(), 0}}, "dt=2");
  Commit(NewRowDelta(*Current(), {c}, {pos}, Expression::AlwaysTrue(), {}));
  MetadataRef before_expiry = Current();
  MetadataRef back = RoundTrip(*before_expiry);
  ASSERT_NE(back, nullptr);
  ExpectSameTable(*before_expiry, *back);
  EXPECT_EQ(back->CurrentSnapshot()->live_deletes->size(), 1u);

  // After an expiry the oldest retained snapshot's parent is gone: it is written whole.
  Commit(NewExpireSnapshots({.retain_last = 2}));
  MetadataRef expired = Current();
  ASSERT_EQ(expired->snapshots.size(), 2u);
  back = RoundTrip(*expired);
  ASSERT_NE(back, nullptr);
  ExpectSameTable(*expired, *back);
  EXPECT_THAT(EncodeMetadata(*expired), HasSubstr("\"live-files\""));
  EXPECT_THAT(EncodeMetadata(*before_expiry), ::testing::Not(HasSubstr("\"live-files\"")));
}

// Texts kept from version to version give the text a fresh encoding gives, also when a snapshot's
// parent is expired (it is then written whole, not as its kept change) and when the location moves.
TEST_F(MetadataJsonTest, KeptSnapshotTextsEncodeEachVersionAsAFreshEncodingDoes) {
  SnapshotTexts texts;
  auto same = [&texts](const TableMetadata& m) { EXPECT_EQ(EncodeMetadata(m, &texts), EncodeMetadata(m)); };
  same(*Current());
  FileRef a = Data("a", OneRow(), "dt=1");
  for (int i = 0; i < 4; ++i) {
    Commit(NewAppend(*Current(), {Data("f" + std::to_string(i), OneRow(), "dt=2")}));
    same(*Current());
  }
  Commit(NewAppend(*Current(), {a}));
  Commit(NewDeleteFiles(*Current(), {a}));
  same(*Current());
  Commit(NewExpireSnapshots({.retain_last = 2}));
  const std::string expired = EncodeMetadata(*Current(), &texts);
  EXPECT_EQ(expired, EncodeMetadata(*Current()));
  EXPECT_THAT(expired, HasSubstr("\"live-files\""));  // the oldest retained, whole

  auto moved = std::make_shared<TableMetadata>(*Current());
  auto fields = std::make_shared<TableFields>(moved->Fields());
  fields->location = "/elsewhere/tbl";
  moved->fields = std::move(fields);
  same(*moved);
  EXPECT_THAT(EncodeMetadata(*moved, &texts), HasSubstr("/elsewhere/tbl/"));
}

// A LoadTableResult body with `m`'s metadata, as the REST server answers it.
std::string LoadBody(const TableMetadata& m) {
  return "{\"metadata-location\":\"/t/" + m.location + "\",\"metadata\":" + EncodeMetadata(m) + "}";
}

// Reading each answer with the snapshots read before gives what reading it afresh gives, and takes
// the snapshots whose text is unchanged from before (the same objects) rather than reading them.
TEST_F(MetadataJsonTest, ALoadResultReadWithTheSnapshotsReadBeforeIsReadAsAfresh) {
  SnapshotsRead read;
  MetadataRef last;
  for (int i = 0; i < 4; ++i) {
    Commit(NewAppend(*Current(), {Data("f" + std::to_string(i), OneRow(), "dt=1")}));
    const std::string body = LoadBody(*Current());
    Result<MetadataRef> reused = DecodeLoadResult(body, "load", "db.tbl", last.get(), &read);
    Result<MetadataRef> afresh = DecodeLoadResult(body, "load", "db.tbl");
    ASSERT_TRUE(reused.ok()) << reused.status().ToString();
    ASSERT_TRUE(afresh.ok()) << afresh.status().ToString();
    ExpectSameTable(**afresh, **reused);
    EXPECT_EQ(read.by_id.size(), (*reused)->snapshots.size());
    if (last != nullptr) {
      EXPECT_EQ((*reused)->snapshots[0], last->snapshots[0]);  // not read again
    }
    last = *reused;
  }
  // A snapshot object whose text changed is read from its text, not taken from before.
  std::string body = LoadBody(*Current());
  const size_t at = body.find("\"added-records\":\"1\"");
  ASSERT_NE(at, std::string::npos);
  body.replace(at, std::string("\"added-records\":\"1\"").size(), "\"added-records\":\"9\"");
  Result<MetadataRef> changed = DecodeLoadResult(body, "load", "db.tbl", nullptr, &read);
  ASSERT_TRUE(changed.ok()) << changed.status().ToString();
  EXPECT_EQ((*changed)->snapshots[0]->summary.at("added-records"), "9");
  EXPECT_NE((*changed)->snapshots[0], last->snapshots[0]);
}

// A damaged answer is refused with the words reading it afresh gives, also when the snapshots
// it shares with the last one read are not read again.
TEST_F(MetadataJsonTest, ADamagedLoadResultIsRefusedAsReadingItAfreshRefusesIt) {
  Commit(NewAppend(*Current(), {Data("a", OneRow())}));
  SnapshotsRead read;
  ASSERT_TRUE(DecodeLoadResult(LoadBody(*Current()), "load", "db.tbl", nullptr, &read).ok());
  const std::string good = LoadBody(*Current());
  for (const std::string& bad :
       {good.substr(0, good.size() - 3), good + "x", "[" + good + "]", std::string("{\"metadata\":{}}"),
        good.substr(0, good.find("\"snapshots\"")) + "\"snapshots\":[1]}}"}) {
    Result<MetadataRef> reused = DecodeLoadResult(bad, "load", "db.tbl", nullptr, &read);
    Result<MetadataRef> afresh = DecodeLoadResult(bad, "load", "db.tbl");
    ASSERT_FALSE(afresh.ok()) << bad;
    ASSERT_FALSE(reused.ok()) << bad;
    EXPECT_EQ(reused.status().ToString(), afresh.status().ToString());
  }
}

TEST_F(MetadataJsonTest, ASnapshotDecodesOntoItsParentAsAnAddSnapshotUpdate) {
  FileRef a = Data("a", OneRow());
  Commit(NewAppend(*Current(), {a}));
  MetadataRef base = Current();
  FileRef b = Data("b", {{{"id", int64_t{2}}}});
  Commit(NewAppend(*Current(), {b}));
  const Snapshot& added = *Current()->CurrentSnapshot();

  Result<SnapshotRef> s = DecodeSnapshot(EncodeSnapshot(added), *base, "add-snapshot");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(Paths(*(*s)->live_files), Paths(*added.live_files));
  EXPECT_EQ(ManifestPaths(**s), ManifestPaths(added));
  EXPECT_EQ(Sequences(*(*s)->live_files), Sequences(*added.live_files));

  // Onto a table that does not have its parent: refused, not guessed.
  Result<SnapshotRef> orphan = DecodeSnapshot(EncodeSnapshot(added), TableMetadata{}, "add-snapshot");
  ASSERT_FALSE(orphan.ok());
  EXPECT_EQ(orphan.status().code(), Code::kInvalidArgument);
  EXPECT_THAT(orphan.status().message(), HasSubstr("parent snapshot"));
}

// A snapshot written whole keeps each set's data sequence numbers: a path added twice, and a
// delete file named like a data file, with another number.
TEST_F(MetadataJsonTest, AWholeSnapshotKeepsTheSequenceNumbersOfItsDataAndDeleteFilesApart) {
  FileRef a = Data("a", {{{"id", int64_t{1}}}, {{"id", int64_t{2}}}});
  Commit(NewAppend(*Current(), {a}));  // sequence 1
  FileRef same_path = MakePositionDeleteFile(a->path(), {{a->path(), 0}});
  Commit(NewRowDelta(*Current(), {}, {same_path}, Expression::AlwaysTrue(), {}));  // 2
  Commit(NewAppend(*Current(), {a}));                                              // 3: a again
  Commit(NewExpireSnapshots({.retain_last = 1}));
  const MetadataRef table = Current();
  const std::string text = EncodeMetadata(*table);
  ASSERT_THAT(text, HasSubstr("\"live-files\""));  // written whole

  const MetadataRef back = RoundTrip(*table);
  ASSERT_NE(back, nullptr);
  ExpectSameTable(*table, *back);
  const Snapshot& s = *back->CurrentSnapshot();
  EXPECT_EQ(s.live_files->count(a->path()), 2u);
  EXPECT_EQ(s.live_files->sequence(a->path()), 3);
  EXPECT_EQ(s.live_deletes->sequence(a->path()), 2);
  // The delete is older than the data added again: it no longer applies, before or after.
  EXPECT_EQ(LiveRows(*table->CurrentSnapshot(), *a), a->rows);
  EXPECT_EQ(LiveRows(s, *a), a->rows);

  // A malformed member of commitlab's is Corruption naming where it is.
  nlohmann::ordered_json bad_text = nlohmann::ordered_json::parse(text);
  bad_text["snapshots"][0]["commitlab"]["file-sequence"] =
      nlohmann::ordered_json::array({nlohmann::ordered_json::array({a->path()})});
  Result<MetadataRef> bad = DecodeMetadata(bad_text.dump(), "bad.metadata.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Code::kCorruption);
  EXPECT_THAT(bad.status().message(),
              HasSubstr("snapshots[0].commitlab.file-sequence[0]: expected [path, sequence number]"));
}

TEST_F(MetadataJsonTest, DamagedFilesAreCorruptionNamingTheFileAndTheField) {
  Commit(NewAppend(*Current(), {Data("a", OneRow())}));
  std::string text = EncodeMetadata(*Current());
  struct Case {
    std::string text, want;
  };
  std::string no_path = text;
  no_path.replace(no_path.find("\"path\""), 6, "\"paht\"");
  const std::vector<Case> cases = {
      {"", "m.json: empty file"},
      {"[1]", "m.json: expected a JSON object"},
      {"{\"format-version\":42}", "m.json: Cannot read unsupported version 42"},
      {no_path, "m.json: snapshots[0].commitlab.added-files[0]: field \"path\" is missing"},
      {text.substr(0, text.size() / 2), "m.json: "},
  };
  for (const Case& c : cases) {
    Result<MetadataRef> r = DecodeMetadata(c.text, "m.json");
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.status().code(), Code::kCorruption);
    EXPECT_THAT(r.status().message(), HasSubstr(c.want));
  }
}

}  // namespace
}  // namespace commitlab::iceberg
