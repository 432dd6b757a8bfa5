#include "commitlab/sim/table_dir_check.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "commitlab/core/paimon/committer.h"
#include "commitlab/core/paimon/dir_store.h"
#include "commitlab/core/paimon/live_writers.h"
#include "commitlab/core/paimon/snapshot_codec.h"
#include "commitlab/sim/real_env.h"

namespace commitlab::sim {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class TableDirCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "commitlab-check-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    tmp_ = pattern;
    root_ = tmp_ + "/t";
    Result<std::unique_ptr<DirStore>> s = DirStore::Open(root_);
    ASSERT_TRUE(s.ok());
    store_ = std::move(s).value();
  }
  void TearDown() override { fs::remove_all(tmp_); }

  // `n` commits by `user`, one new data file each. Each call has an env of its own seed: the
  // manifests' names are drawn from it, and two committers drawing the same names would collide.
  void Commit(const std::string& user, int64_t first, int64_t n) {
    RealEnv env(next_seed_++);
    NullEventSink sink;
    paimon::Committer c(user, {}, &env, store_.get(), &sink);
    for (int64_t id = first; id < first + n; ++id) {
      const DataFile f{
          .name = fmt::format("data-{}-{}.parquet", user, id), .min_key = id, .max_key = id, .row_count = 1};
      ASSERT_TRUE(store_->WriteDataFile(f).ok());
      Result<int> r = c.Commit({.identifier = id, .append_changes = {{ChangeKind::kAdd, f}}});
      ASSERT_TRUE(r.ok()) << r.status().ToString();
    }
  }

  TableDirReport Check() {
    Result<TableDirReport> r = CheckTableDir(root_);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? std::move(r).value() : TableDirReport{};
  }

  static std::vector<std::string> Kinds(const TableDirReport& r) {
    std::vector<std::string> out;
    for (const TableDirProblem& p : r.problems) out.push_back(p.kind);
    return out;
  }

  static void Write(const std::string& path, std::string_view text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
  }

  std::string tmp_, root_;
  std::unique_ptr<DirStore> store_;
  uint64_t next_seed_ = 1;
};

TEST_F(TableDirCheckTest, ASoundTableHasNoProblemsAndNoLeftovers) {
  Commit("job-A", 1, 3);
  Commit("job-B", 1, 2);
  const TableDirReport r = Check();
  EXPECT_TRUE(r.sound());
  EXPECT_THAT(r.problems, IsEmpty());
  EXPECT_THAT(r.leftovers, IsEmpty());
  EXPECT_EQ(r.latest_snapshot(), 5);
  EXPECT_EQ(r.latest_hint, 5);
  EXPECT_EQ(r.live_files, 5);
  EXPECT_EQ(r.per_user(), (std::map<std::string, int64_t>{{"job-A", 3}, {"job-B", 2}}));
}

TEST_F(TableDirCheckTest, AnEmptyTableIsSound) {
  const TableDirReport r = Check();
  EXPECT_TRUE(r.sound());
  EXPECT_EQ(r.latest_snapshot(), 0);
}

TEST_F(TableDirCheckTest, NotATableIsAnInputError) {
  EXPECT_EQ(CheckTableDir(tmp_ + "/nothing").status().code(), Code::kInvalidArgument);
  fs::create_directories(tmp_ + "/plain");
  Result<TableDirReport> r = CheckTableDir(tmp_ + "/plain");
  EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("is not a table directory"));
}

TEST_F(TableDirCheckTest, ADeletedFirstSnapshotIsAGapNamingIt) {
  Commit("job-A", 1, 3);
  fs::remove(store_->SnapshotPath(1));
  const TableDirReport r = Check();
  ASSERT_THAT(Kinds(r), ElementsAre("gap"));
  EXPECT_EQ(r.problems[0].file, store_->SnapshotPath(1));
  EXPECT_EQ(r.problems[0].message, store_->SnapshotPath(1) + " does not exist: the first snapshot is 2");
}

TEST_F(TableDirCheckTest, AMissingMiddleSnapshotIsAGap) {
  Commit("job-A", 1, 4);
  fs::remove(store_->SnapshotPath(2));
  const TableDirReport r = Check();
  ASSERT_THAT(Kinds(r), ElementsAre("gap"));
  EXPECT_EQ(r.problems[0].message, store_->SnapshotPath(2) + " does not exist: snapshot 3 follows snapshot 1");
}

TEST_F(TableDirCheckTest, ATruncatedSnapshotIsUnreadableNotAGap) {
  Commit("job-A", 1, 3);
  fs::resize_file(store_->SnapshotPath(2), 10);
  const TableDirReport r = Check();
  ASSERT_THAT(Kinds(r), ElementsAre("unreadable"));
  EXPECT_EQ(r.problems[0].file, store_->SnapshotPath(2));
  EXPECT_THAT(r.problems[0].message, HasSubstr(store_->SnapshotPath(2)));
}

TEST_F(TableDirCheckTest, AMissingManifestIsNamed) {
  Commit("job-A", 1, 2);
  const Snapshot s = store_->ReadSnapshotFile(2).value();
  fs::remove(store_->ManifestPath(s.delta_manifest));
  const TableDirReport r = Check();
  ASSERT_THAT(Kinds(r), ElementsAre("unreadable"));
  EXPECT_EQ(r.problems[0].file, store_->ManifestPath(s.delta_manifest));
  EXPECT_THAT(r.problems[0].message, HasSubstr("does not exist"));
}

TEST_F(TableDirCheckTest, AMissingOrCorruptLiveFileIsNamed) {
  Commit("job-A", 1, 2);
  const DataFile one{.name = "data-job-A-1.parquet", .min_key = 1, .max_key = 1, .row_count = 1};
  const DataFile two{.name = "data-job-A-2.parquet", .min_key = 2, .max_key = 2, .row_count = 1};
  fs::remove(store_->DataFilePath(one));
  Write(store_->DataFilePath(two), "{}");
  const TableDirReport r = Check();
  ASSERT_THAT(Kinds(r), ElementsAre("missing_file", "corrupt_file"));
  EXPECT_EQ(r.problems[0].file, store_->DataFilePath(one));
  EXPECT_EQ(r.problems[1].file, store_->DataFilePath(two));
}

TEST_F(TableDirCheckTest, AHintAheadOfTheChainIsAProblemAndABehindOneIsNot) {
  Commit("job-A", 1, 3);
  Write(store_->LatestHintPath(), "1");
  EXPECT_TRUE(Check().sound());
  Write(store_->LatestHintPath(), "7");
  const TableDirReport r = Check();
  ASSERT_THAT(Kinds(r), ElementsAre("hint_ahead"));
  EXPECT_EQ(r.problems[0].file, store_->LatestHintPath());
}

TEST_F(TableDirCheckTest, ACommitTwiceAndAForkAreNamedWithTheirSnapshotFiles) {
  Commit("job-A", 1, 2);
  // Snapshot 3 repeats snapshot 2's commit and claims parent 1.
  Snapshot dup = store_->ReadSnapshot(2).value();
  dup.id = 3;
  dup.parent_id = 1;
  dup.delta_manifest = "manifest-dup";
  dup.changes = {};
  ASSERT_TRUE(store_->WriteManifest(dup.delta_manifest, {}).ok());
  ASSERT_EQ(store_->Publish(dup).outcome, PublishOutcome::kPublished);
  const TableDirReport r = Check();
  ASSERT_THAT(Kinds(r), ElementsAre("fork", "duplicate_commit"));
  EXPECT_EQ(r.problems[0].file, store_->SnapshotPath(3));
  EXPECT_EQ(r.problems[1].file, store_->SnapshotPath(3));
  EXPECT_THAT(r.problems[1].message, HasSubstr("repeats the commit of snapshot 2"));
}

TEST_F(TableDirCheckTest, LeftoversAreListedAndCleanedByAge) {
  Commit("job-A", 1, 2);
  const std::string temp = store_->snapshot_dir() + "/.snapshot-3.123-0.tmp";
  Write(temp, "{");
  ASSERT_TRUE(store_->WriteManifest("manifest-lost-1", {}).ok());
  const DataFile orphan{.name = "data-lost-1.parquet", .row_count = 1};
  ASSERT_TRUE(store_->WriteDataFile(orphan).ok());
  fs::create_directories(root_ + "/lock");
  Write(root_ + "/lock/user-job-A.lock", "1\n");  // a claim, not a leftover

  const TableDirReport r = Check();
  EXPECT_TRUE(r.sound());
  ASSERT_EQ(r.leftovers.size(), 3u);
  std::vector<std::pair<std::string, LeftoverKind>> got;
  for (const Leftover& l : r.leftovers) got.emplace_back(l.path, l.kind);
  EXPECT_THAT(
      got, ::testing::UnorderedElementsAre(std::pair{temp, LeftoverKind::kTempFile},
                                           std::pair{store_->ManifestPath("manifest-lost-1"), LeftoverKind::kManifest},
                                           std::pair{store_->DataFilePath(orphan), LeftoverKind::kDataFile}));

  constexpr int64_t kNoWriter = std::numeric_limits<int64_t>::max();
  // A day is far older than files written just now: nothing goes.
  CleanResult kept = CleanLeftovers(r, {.older_than_micros = 86'400'000'000, .in_flight_cutoff_micros = kNoWriter});
  EXPECT_THAT(kept.removed, IsEmpty());
  EXPECT_EQ(kept.kept_young, 3);
  // The test's own store is a live writer that started before these files: they may be its commit
  // in flight, so even at 0 s nothing goes.
  Result<LiveWriters> live = FindLiveWriters(store_->LockDir());
  ASSERT_TRUE(live.ok());
  EXPECT_EQ(live->live, 1);
  CleanResult in_flight = CleanLeftovers(r, {.older_than_micros = 0, .in_flight_cutoff_micros = live->cutoff_micros});
  EXPECT_THAT(in_flight.removed, IsEmpty());
  EXPECT_EQ(in_flight.kept_in_flight, 3);
  CleanResult cleaned = CleanLeftovers(r, {.older_than_micros = 0, .in_flight_cutoff_micros = kNoWriter});
  EXPECT_EQ(cleaned.removed.size(), 3u);
  EXPECT_THAT(cleaned.errors, IsEmpty());
  const TableDirReport after = Check();
  EXPECT_TRUE(after.sound());
  EXPECT_THAT(after.leftovers, IsEmpty());
  EXPECT_EQ(after.latest_snapshot(), 2);
  EXPECT_TRUE(fs::exists(root_ + "/lock/user-job-A.lock"));
}

TEST_F(TableDirCheckTest, AWriterJoiningSkipsTheLeftoverScan) {
  Commit("job-A", 1, 1);
  ASSERT_TRUE(store_->WriteManifest("manifest-lost-1", {}).ok());
  Result<TableDirReport> r = CheckTableDir(root_, {.find_leftovers = false});
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r->leftovers, IsEmpty());
}

}  // namespace
}  // namespace commitlab::sim
