#include "commitlab/core/paimon/dir_store.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <barrier>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "commitlab/core/events.h"
#include "commitlab/core/paimon/committer.h"
#include "commitlab/core/paimon/snapshot_codec.h"
#include "commitlab/testing/test_env.h"

namespace commitlab {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

// A fresh directory under the system temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "commitlab-dir-store-XXXXXX").string();
    if (::mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

void WriteText(const std::string& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

DataFile File(int64_t i) {
  return DataFile{.name = fmt::format("data-{}.parquet", i), .min_key = i * 10, .max_key = i * 10 + 9, .row_count = 10};
}

Snapshot MakeSnapshot(int64_t id, std::string user, std::string manifest) {
  return Snapshot{.id = id,
                  .parent_id = id - 1,
                  .commit_user = std::move(user),
                  .commit_identifier = id,
                  .kind = CommitKind::kAppend,
                  .time_millis = 1000 * id,
                  .total_records = 10 * id,
                  .delta_records = 10,
                  .delta_manifest = std::move(manifest),
                  .changes = {{ChangeKind::kAdd, File(id)}}};
}

// Names in `dir` that start with '.': temp files a publish left behind.
std::vector<std::string> TempFiles(const std::string& dir) {
  std::vector<std::string> out;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.path().filename().string().starts_with(".")) out.push_back(e.path().filename().string());
  return out;
}

class DirStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(tmp_.path().empty());
    root_ = tmp_.path() + "/table";
    store_ = OpenStore();
    ASSERT_NE(store_, nullptr);
  }

  std::unique_ptr<DirStore> OpenStore(DirStoreOptions options = {}) {
    Result<std::unique_ptr<DirStore>> s = DirStore::Open(root_, options);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? std::move(s).value() : nullptr;
  }

  // Writes snapshot id's data file and manifest, then publishes it.
  PublishOutcome PublishNew(DirStore& store, int64_t id, const std::string& user = "u") {
    const std::string manifest = fmt::format("manifest-{}-{}", user, id);
    Snapshot s = MakeSnapshot(id, user, manifest);
    for (const FileChange& c : s.changes) EXPECT_TRUE(store.WriteDataFile(c.file).ok());
    Status st = store.WriteManifest(manifest, s.changes);
    EXPECT_TRUE(st.ok()) << st.ToString();
    PublishResult r = store.Publish(s);
    EXPECT_TRUE(r.error.ok()) << r.error.ToString();
    return r.outcome;
  }

  void PublishChain(int64_t n) {
    for (int64_t id = 1; id <= n; ++id) ASSERT_EQ(PublishNew(*store_, id), PublishOutcome::kPublished);
  }

  int64_t LatestId() {
    Result<std::optional<Snapshot>> latest = store_->LatestSnapshot();
    EXPECT_TRUE(latest.ok()) << latest.status().ToString();
    return latest.ok() && latest->has_value() ? (*latest)->id : 0;
  }

  std::string SnapshotDir() const { return root_ + "/snapshot"; }

  TempDir tmp_;
  std::string root_;
  std::unique_ptr<DirStore> store_;
};

TEST_F(DirStoreTest, OpenCreatesLayoutAndStartsEmpty) {
  EXPECT_TRUE(fs::is_directory(root_ + "/snapshot"));
  EXPECT_TRUE(fs::is_directory(root_ + "/manifest"));
  Result<std::optional<Snapshot>> latest = store_->LatestSnapshot();
  ASSERT_TRUE(latest.ok());
  EXPECT_FALSE(latest->has_value());
  EXPECT_THAT(store_->ListManifests(), IsEmpty());
  EXPECT_THAT(store_->ListDataFiles(), IsEmpty());
}

TEST_F(DirStoreTest, OpenReportsPathAndReason) {
  WriteText(tmp_.path() + "/file", "x");
  Result<std::unique_ptr<DirStore>> s = DirStore::Open(tmp_.path() + "/file/t");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), Code::kInvalidArgument);
  EXPECT_THAT(s.status().message(), StartsWith("cannot create directory " + tmp_.path() + "/file/t: "));
  EXPECT_THAT(s.status().message(), HasSubstr("ot a directory"));
  EXPECT_EQ(DirStore::Open("").status().code(), Code::kInvalidArgument);
  // A root whose snapshot directory is a file: someone else's folder, not a table.
  fs::create_directories(tmp_.path() + "/t2");
  WriteText(tmp_.path() + "/t2/snapshot", "x");
  Result<std::unique_ptr<DirStore>> t2 = DirStore::Open(tmp_.path() + "/t2");
  ASSERT_FALSE(t2.ok());
  EXPECT_EQ(t2.status().message(),
            tmp_.path() + "/t2 holds files but no snapshot/ directory: not a table directory; use an empty one");
  EXPECT_EQ(ReadText(tmp_.path() + "/t2/snapshot"), "x");
  EXPECT_FALSE(fs::exists(tmp_.path() + "/t2/lock"));  // nothing written into it
}

TEST_F(DirStoreTest, PublishWritesPaimonLayoutAndReadsBack) {
  PublishChain(3);
  const Snapshot expected = MakeSnapshot(2, "u", "manifest-u-2");
  EXPECT_EQ(ReadText(root_ + "/snapshot/snapshot-2"), EncodeSnapshot(expected));
  EXPECT_EQ(ReadText(root_ + "/manifest/manifest-u-2"), EncodeManifest(expected.changes));
  EXPECT_EQ(ReadText(root_ + "/snapshot/LATEST"), "3");
  Result<Snapshot> s = store_->ReadSnapshot(2);
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(*s, expected);
  Result<std::optional<Snapshot>> latest = store_->LatestSnapshot();
  ASSERT_TRUE(latest.ok());
  ASSERT_TRUE(latest->has_value());
  EXPECT_EQ(**latest, MakeSnapshot(3, "u", "manifest-u-3"));
  EXPECT_THAT(TempFiles(SnapshotDir()), IsEmpty());
  EXPECT_THAT(store_->ListManifests(), ElementsAre("manifest-u-1", "manifest-u-2", "manifest-u-3"));
}

TEST_F(DirStoreTest, MissingSnapshotIsNotFound) {
  PublishChain(1);
  for (int64_t id : {2, 0, -1}) {
    Result<Snapshot> s = store_->ReadSnapshot(id);
    EXPECT_EQ(s.status().code(), Code::kNotFound);
    EXPECT_EQ(s.status().message(), fmt::format("Snapshot file {}/snapshot/snapshot-{} does not exist.", root_, id));
  }
}

TEST_F(DirStoreTest, RelativeRootStaysRelativeInMessages) {
  const std::string relative = fs::relative(root_, fs::current_path()).string();
  ASSERT_FALSE(fs::path(relative).is_absolute());
  Result<std::unique_ptr<DirStore>> s = DirStore::Open(relative + "/");
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ((*s)->root(), relative + "/");
  EXPECT_EQ((*s)->ReadSnapshot(9).status().message(),
            fmt::format("Snapshot file {}/snapshot/snapshot-9 does not exist.", relative));
  ASSERT_EQ(PublishNew(**s, 1), PublishOutcome::kPublished);
  EXPECT_EQ(LatestId(), 1);  // the absolute-path store sees it too
}

TEST_F(DirStoreTest, PublishOfExistingIdLeavesOriginalByteIdentical) {
  for (bool rename_noreplace : {true, false}) {
    root_ = fmt::format("{}/table-{}", tmp_.path(), rename_noreplace);
    std::unique_ptr<DirStore> store = OpenStore({.rename_noreplace = rename_noreplace});
    ASSERT_EQ(PublishNew(*store, 1, "first"), PublishOutcome::kPublished);
    const std::string before = ReadText(root_ + "/snapshot/snapshot-1");
    ASSERT_FALSE(before.empty());
    EXPECT_EQ(PublishNew(*store, 1, "second"), PublishOutcome::kAlreadyExists);
    EXPECT_EQ(ReadText(root_ + "/snapshot/snapshot-1"), before);
    EXPECT_EQ(store->ReadSnapshot(1)->commit_user, "first");
    EXPECT_THAT(TempFiles(root_ + "/snapshot"), IsEmpty());
  }
}

TEST_F(DirStoreTest, PublishRefusesBadSnapshots) {
  PublishResult gap = store_->Publish(MakeSnapshot(2, "u", "m"));
  EXPECT_EQ(gap.outcome, PublishOutcome::kError);
  EXPECT_EQ(gap.error.message(), "snapshot-2 would leave a gap after snapshot-1");
  EXPECT_EQ(store_->Publish(MakeSnapshot(0, "u", "m")).outcome, PublishOutcome::kError);
  EXPECT_EQ(store_->Publish(MakeSnapshot(1, "u", "../m")).outcome, PublishOutcome::kError);
  EXPECT_EQ(store_->Publish(MakeSnapshot(1, "u", "")).outcome, PublishOutcome::kError);
  EXPECT_EQ(LatestId(), 0);
  EXPECT_FALSE(fs::exists(root_ + "/snapshot/snapshot-1"));
}

// A snapshot naming a file that is gone is refused before anything is published: publishing it
// would acknowledge a commit whose data cannot be read (an orphan cleaner run too early, an rm).
TEST_F(DirStoreTest, PublishRefusesASnapshotWhoseFilesAreGone) {
  const Snapshot s = MakeSnapshot(1, "u", "manifest-u-1");
  ASSERT_TRUE(store_->WriteManifest(s.delta_manifest, s.changes).ok());
  PublishResult no_data = store_->Publish(s);  // its data file was never written
  EXPECT_EQ(no_data.outcome, PublishOutcome::kError);
  EXPECT_EQ(no_data.error.code(), Code::kNotFound);
  EXPECT_EQ(no_data.error.message(),
            fmt::format("cannot publish snapshot-1: its data file {}/bucket-0/data-1.parquet is gone (removed by an "
                        "orphan cleaner or by hand?); nothing was published",
                        root_));
  ASSERT_TRUE(store_->WriteDataFile(File(1)).ok());
  fs::remove(root_ + "/manifest/manifest-u-1");
  PublishResult no_manifest = store_->Publish(s);
  EXPECT_EQ(no_manifest.error.code(), Code::kNotFound);
  EXPECT_THAT(no_manifest.error.message(), HasSubstr("its manifest " + root_ + "/manifest/manifest-u-1 is gone"));
  EXPECT_FALSE(fs::exists(root_ + "/snapshot/snapshot-1"));
  ASSERT_TRUE(store_->WriteManifest(s.delta_manifest, s.changes).ok());
  EXPECT_EQ(store_->Publish(s).outcome, PublishOutcome::kPublished);
}

// An open store is a live writer of its table until it is destroyed.
TEST_F(DirStoreTest, AnOpenStoreIsALiveWriter) {
  Result<LiveWriters> open = FindLiveWriters(store_->LockDir());
  ASSERT_TRUE(open.ok());
  EXPECT_EQ(open->live, 1);
  store_.reset();
  EXPECT_EQ(FindLiveWriters(root_ + "/lock")->live, 0);
  Result<std::unique_ptr<DirStore>> reader = DirStore::OpenExisting(root_);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(FindLiveWriters(root_ + "/lock")->live, 0);  // a reader is not a writer
}

TEST_F(DirStoreTest, PublishErrorNamesPathAndReason) {
  ASSERT_TRUE(store_->WriteManifest("m", {}).ok());
  ASSERT_TRUE(store_->WriteDataFile(File(1)).ok());
  fs::remove_all(SnapshotDir());  // pulled out from under the store
  PublishResult r = store_->Publish(MakeSnapshot(1, "u", "m"));
  EXPECT_EQ(r.outcome, PublishOutcome::kError);
  EXPECT_EQ(r.error.code(), Code::kIOError);
  EXPECT_EQ(r.error.message(), "cannot write " + SnapshotDir() + "/snapshot-1: No such file or directory");
  Result<std::optional<Snapshot>> latest = store_->LatestSnapshot();
  EXPECT_EQ(latest.status().code(), Code::kIOError);
  EXPECT_THAT(latest.status().message(), StartsWith("cannot list " + SnapshotDir() + ": "));
}

TEST_F(DirStoreTest, StaleLatestHintStillFindsRealLatest) {
  PublishChain(5);
  WriteText(root_ + "/snapshot/LATEST", "2");
  EXPECT_EQ(LatestId(), 5);
}

TEST_F(DirStoreTest, MalformedOrMissingHintFallsBackToListing) {
  PublishChain(5);
  const std::string too_long(100, '1');
  for (std::string_view hint : {"9", "abc", "", "-3", "0", "05", "5x", "99999999999999999999999", "9223372036854775807",
                                "\xff\xfe", " 5", too_long.c_str()}) {
    WriteText(root_ + "/snapshot/LATEST", hint);
    EXPECT_EQ(LatestId(), 5) << "hint " << hint;
  }
  WriteText(root_ + "/snapshot/LATEST", "5\n");
  EXPECT_EQ(LatestId(), 5);
  fs::remove(root_ + "/snapshot/LATEST");
  EXPECT_EQ(LatestId(), 5);
  fs::create_directory(root_ + "/snapshot/LATEST");
  EXPECT_EQ(LatestId(), 5);
}

TEST_F(DirStoreTest, HintIsTrustedWhenTheNextIdIsAbsent) {
  // Paimon's findLatest only looks one id past the hint: with snapshot-4 missing (a gap nobody can
  // publish into), snapshot-6 stays unseen until the hint moves.
  PublishChain(3);
  fs::copy_file(root_ + "/snapshot/snapshot-3", root_ + "/snapshot/snapshot-6");
  EXPECT_EQ(LatestId(), 3);
  fs::remove(root_ + "/snapshot/LATEST");
  Result<std::optional<Snapshot>> latest = store_->LatestSnapshot();
  EXPECT_EQ(latest.status().code(), Code::kCorruption);  // listing finds 6, which holds id 3
  EXPECT_EQ(latest.status().message(), root_ + "/snapshot/snapshot-6: holds id 3, expected 6");
}

TEST_F(DirStoreTest, HintFarBehindIsWalkedForwardOrListed) {
  PublishChain(20);
  for (std::string_view hint : {"19", "12", "11", "1"}) {  // within the forward probes, and beyond them
    WriteText(root_ + "/snapshot/LATEST", hint);
    EXPECT_EQ(LatestId(), 20) << "hint " << hint;
  }
}

ino_t InodeOf(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

TEST_F(DirStoreTest, HintIsOverwrittenInPlaceAndShrinks) {
  PublishChain(12);
  const std::string hint = root_ + "/snapshot/LATEST";
  WriteText(hint, "1234567");  // longer than the next id: the write must not leave its tail
  const ino_t before = InodeOf(hint);
  ASSERT_EQ(PublishNew(*store_, 13), PublishOutcome::kPublished);
  EXPECT_EQ(ReadText(hint), "13");
  EXPECT_EQ(InodeOf(hint), before);  // the same file, written in place
  EXPECT_EQ(store_->ReadLatestHint(), 13);
}

TEST_F(DirStoreTest, HintByRenameReplacesTheFile) {
  std::unique_ptr<DirStore> renaming = OpenStore({.latest_hint = LatestHintWrite::kRename});
  PublishChain(2);
  const std::string hint = root_ + "/snapshot/LATEST";
  const ino_t before = InodeOf(hint);
  ASSERT_EQ(PublishNew(*renaming, 3), PublishOutcome::kPublished);
  EXPECT_EQ(ReadText(hint), "3");
  EXPECT_NE(InodeOf(hint), before);
  EXPECT_THAT(TempFiles(SnapshotDir()), IsEmpty());
}

TEST_F(DirStoreTest, EveryFsyncSettingCommitsAndReadsBack) {
  for (Fsync fsync : {Fsync::kOff, Fsync::kData, Fsync::kAll}) {
    SCOPED_TRACE(FsyncName(fsync));
    root_ = fmt::format("{}/fsync-{}", tmp_.path(), FsyncName(fsync));
    std::vector<std::string> synced;
    std::unique_ptr<DirStore> store =
        OpenStore({.fsync = fsync, .on_fsync = [&synced](const std::string& path) { synced.push_back(path); }});
    ASSERT_NE(store, nullptr);
    const size_t synced_at_open = synced.size();
    test::TestEnv env;
    NullEventSink sink;
    paimon::Committer c("u", {}, &env, store.get(), &sink);
    for (int64_t id = 1; id <= 3; ++id) {
      const DataFile f{.name = fmt::format("data-{}.parquet", id), .partition = "dt=1", .bucket = 2, .row_count = 1};
      ASSERT_TRUE(store->WriteDataFile(f).ok());
      Result<int> r = c.Commit({.identifier = id, .append_changes = {{ChangeKind::kAdd, f}}});
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      EXPECT_TRUE(store->VerifyDataFile(f).ok());
    }
    EXPECT_EQ(store->ListSnapshotIds().value(), (std::vector<int64_t>{1, 2, 3}));
    EXPECT_EQ(FsyncName(fsync), FsyncName(*ParseFsync(FsyncName(fsync))));
    // Files: each commit's data file, manifest and snapshot. Directories (all): each rename's
    // directory, and the new bucket directory's parents once.
    auto count = [&](std::string_view needle) {
      return std::count_if(synced.begin(), synced.end(),
                           [&](const std::string& p) { return p.find(needle) != std::string::npos; });
    };
    switch (fsync) {
      case Fsync::kOff: EXPECT_THAT(synced, IsEmpty()); break;
      case Fsync::kData:
        EXPECT_EQ(synced_at_open, 0u);
        EXPECT_EQ(synced.size(), 9u);
        EXPECT_EQ(count("/.snapshot-"), 3);
        break;
      case Fsync::kAll:
        EXPECT_GT(synced_at_open, 3u);  // snapshot/, manifest/, the root and its parents
        EXPECT_EQ(count("/.snapshot-"), 3);
        EXPECT_EQ(std::count(synced.begin(), synced.end(), root_ + "/snapshot"), 4);       // Open, then 3 publishes
        EXPECT_EQ(std::count(synced.begin(), synced.end(), root_ + "/dt=1/bucket-2"), 4);  // once, then 3 files
        break;
    }
  }
  EXPECT_FALSE(ParseFsync("sometimes").has_value());
}

TEST_F(DirStoreTest, VerifyDataFileNamesThePathAndWhy) {
  const DataFile f{.name = "data-1.parquet", .row_count = 5};
  EXPECT_EQ(store_->VerifyDataFile(f).code(), Code::kNotFound);
  ASSERT_TRUE(store_->WriteDataFile(f).ok());
  EXPECT_TRUE(store_->VerifyDataFile(f).ok());
  WriteText(store_->DataFilePath(f), "{\"fileName\":\"data-1.parq");
  const Status st = store_->VerifyDataFile(f);
  EXPECT_EQ(st.code(), Code::kCorruption);
  EXPECT_THAT(st.message(), StartsWith(store_->DataFilePath(f) + ": does not hold the file its manifest describes"));
}

TEST_F(DirStoreTest, OpenExistingCreatesNothing) {
  const std::string absent = tmp_.path() + "/absent";
  Result<std::unique_ptr<DirStore>> a = DirStore::OpenExisting(absent);
  EXPECT_EQ(a.status().message(), absent + " does not exist");
  WriteText(tmp_.path() + "/file", "x");
  EXPECT_EQ(DirStore::OpenExisting(tmp_.path() + "/file").status().message(), tmp_.path() + "/file is not a directory");
  EXPECT_FALSE(fs::exists(absent));
  fs::create_directories(tmp_.path() + "/plain");
  EXPECT_EQ(DirStore::OpenExisting(tmp_.path() + "/plain").status().message(),
            fmt::format("{0}/plain is not a table directory: {0}/plain/snapshot does not exist", tmp_.path()));
  EXPECT_FALSE(fs::exists(tmp_.path() + "/plain/snapshot"));
  PublishChain(2);
  Result<std::unique_ptr<DirStore>> t = DirStore::OpenExisting(root_);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ((*t)->ListSnapshotIds().value(), (std::vector<int64_t>{1, 2}));
}

TEST_F(DirStoreTest, JunkAndTempFilesInSnapshotDirAreIgnored) {
  PublishChain(3);
  const std::string snapshot_4 = EncodeSnapshot(MakeSnapshot(4, "u", "manifest-u-3"));
  for (std::string_view junk :
       {".snapshot-4.123-0.tmp", "snapshot-", "snapshot-abc", "snapshot-07", "snapshot-4.bak", "snapshot-+5",
        "snapshot--5", "snapshot-99999999999999999999", "EARLIEST", "snapshot-4 ", "Snapshot-9", ".LATEST.1-1.tmp"}) {
    WriteText(fmt::format("{}/{}", SnapshotDir(), junk), snapshot_4);
  }
  EXPECT_EQ(LatestId(), 3);
  fs::remove(root_ + "/snapshot/LATEST");
  EXPECT_EQ(LatestId(), 3);
  // A real snapshot-4 after the junk is found, and the store still publishes normally.
  ASSERT_EQ(PublishNew(*store_, 4), PublishOutcome::kPublished);
  EXPECT_EQ(LatestId(), 4);
  // But a directory under a snapshot's name is not junk to skip: a reader that lists names it.
  fs::create_directory(SnapshotDir() + "/snapshot-100");
  fs::remove(root_ + "/snapshot/LATEST");
  EXPECT_THAT(store_->LatestSnapshot().status().message(), HasSubstr("snapshot-100: a directory, not a snapshot file"));
}

class DirStoreCorruptSnapshotTest : public DirStoreTest {
 protected:
  void SetUp() override {
    DirStoreTest::SetUp();
    PublishChain(2);
    path_ = root_ + "/snapshot/snapshot-3";
    WriteText(root_ + "/snapshot/LATEST", "3");
  }

  // ReadSnapshot(3) and LatestSnapshot() both fail with Corruption `message`.
  void ExpectCorrupt(std::string_view content, const std::string& message) {
    WriteText(path_, content);
    Result<Snapshot> s = store_->ReadSnapshot(3);
    EXPECT_EQ(s.status().code(), Code::kCorruption) << s.status().ToString();
    EXPECT_EQ(s.status().message(), message);
    Result<std::optional<Snapshot>> latest = store_->LatestSnapshot();
    EXPECT_EQ(latest.status().code(), Code::kCorruption);
    EXPECT_EQ(latest.status().message(), message);
  }

  std::string Good() const { return EncodeSnapshot(MakeSnapshot(3, "u", "manifest-u-2")); }

  std::string path_;
};

TEST_F(DirStoreCorruptSnapshotTest, Truncated) {
  WriteText(path_, Good().substr(0, 60));
  Result<Snapshot> s = store_->ReadSnapshot(3);
  EXPECT_EQ(s.status().code(), Code::kCorruption);
  EXPECT_THAT(s.status().message(), StartsWith(path_ + ": truncated JSON: expected "));
  EXPECT_THAT(s.status().message(), HasSubstr(" at offset 60"));
  const std::string cut = Good().substr(0, Good().find(",\n  \"commitUser\""));
  ExpectCorrupt(cut, fmt::format("{}: truncated JSON: expected ',' or '}}' at offset {}", path_, cut.size()));
}

TEST_F(DirStoreCorruptSnapshotTest, Empty) { ExpectCorrupt("", path_ + ": empty file"); }

TEST_F(DirStoreCorruptSnapshotTest, Garbage) {
  ExpectCorrupt(std::string_view("\x00\x01garbage", 9), path_ + ": invalid JSON: expected a value at offset 0");
  ExpectCorrupt("{\"id\": 3} {", path_ + ": invalid JSON: unexpected trailing data at offset 10");
}

TEST_F(DirStoreCorruptSnapshotTest, WrongIdInside) {
  ExpectCorrupt(EncodeSnapshot(MakeSnapshot(4, "u", "manifest-u-2")), path_ + ": holds id 4, expected 3");
}

TEST_F(DirStoreCorruptSnapshotTest, MissingField) {
  std::string json = Good();
  const size_t at = json.find("  \"commitUser\"");
  json.erase(at, json.find('\n', at) + 1 - at);
  ExpectCorrupt(json, path_ + ": field \"commitUser\" is missing");
}

TEST_F(DirStoreCorruptSnapshotTest, BadCommitKind) {
  std::string json = Good();
  json.replace(json.find("\"APPEND\""), 8, "\"FOO\"");
  ExpectCorrupt(json, path_ + ": field \"commitKind\" has unknown value \"FOO\"");
}

TEST_F(DirStoreCorruptSnapshotTest, MissingManifest) {
  ExpectCorrupt(EncodeSnapshot(MakeSnapshot(3, "u", "manifest-gone")),
                fmt::format("{}: manifest {}/manifest/manifest-gone does not exist", path_, root_));
}

TEST_F(DirStoreCorruptSnapshotTest, CorruptManifest) {
  WriteText(root_ + "/manifest/manifest-bad", "[{\"kind\": \"ADD\"}]");
  ExpectCorrupt(EncodeSnapshot(MakeSnapshot(3, "u", "manifest-bad")),
                root_ + "/manifest/manifest-bad: entry 0: field \"partition\" is missing");
  WriteText(root_ + "/manifest/manifest-bad", "[");
  ExpectCorrupt(EncodeSnapshot(MakeSnapshot(3, "u", "manifest-bad")),
                root_ + "/manifest/manifest-bad: truncated JSON: expected a value at offset 1");
}

TEST_F(DirStoreCorruptSnapshotTest, ManifestNameEscapingTheDirectory) {
  ExpectCorrupt(EncodeSnapshot(MakeSnapshot(3, "u", "../snapshot/snapshot-1")),
                path_ + ": field \"deltaManifestList\" is not a manifest file name: \"../snapshot/snapshot-1\"");
}

TEST_F(DirStoreCorruptSnapshotTest, HugeFile) {
  ExpectCorrupt(std::string(size_t{2} << 20, ' '), path_ + ": file is larger than 1048576 bytes");
}

// Not a gap, and not "does not exist": the reader names what is there.
TEST_F(DirStoreCorruptSnapshotTest, DirectoryLinkOrFifoInPlaceOfASnapshot) {
  for (const std::string kind : {"directory", "symbolic link", "FIFO"}) {
    fs::remove_all(path_);
    if (kind == "directory") fs::create_directory(path_);
    if (kind == "symbolic link") fs::create_symlink(root_ + "/snapshot/snapshot-1", path_);
    if (kind == "FIFO") {
      ASSERT_EQ(::mkfifo(path_.c_str(), 0644), 0);
    }
    Result<Snapshot> s = store_->ReadSnapshot(3);
    EXPECT_EQ(s.status().code(), Code::kCorruption) << kind;
    EXPECT_EQ(s.status().message(), path_ + ": a " + kind + ", not a snapshot file: the table is damaged");
    EXPECT_EQ(store_->LatestSnapshot().status().message(), s.status().message());  // not skipped
    EXPECT_THAT(*store_->ListSnapshotIds(), ElementsAre(1, 2, 3));
  }
}

TEST_F(DirStoreTest, WriteManifestIsCreateIfAbsent) {
  const std::vector<FileChange> changes = {{ChangeKind::kAdd, File(1)}};
  ASSERT_TRUE(store_->WriteManifest("manifest-b", changes).ok());
  Status again = store_->WriteManifest("manifest-b", {});
  EXPECT_EQ(again.code(), Code::kInvalidArgument);
  EXPECT_EQ(again.message(), fmt::format("manifest {}/manifest/manifest-b already exists", root_));
  EXPECT_EQ(ReadText(root_ + "/manifest/manifest-b"), EncodeManifest(changes));
  for (std::string_view bad : {std::string_view(""), std::string_view(".hidden"), std::string_view("a/b"),
                               std::string_view(".."), std::string_view("a\0b", 3)})
    EXPECT_EQ(store_->WriteManifest(std::string(bad), {}).code(), Code::kInvalidArgument) << bad;
  ASSERT_TRUE(store_->WriteManifest("manifest-a", {}).ok());
  WriteText(root_ + "/manifest/.manifest-c.1-1.tmp", "[]");
  fs::create_directory(root_ + "/manifest/subdir");
  EXPECT_THAT(store_->ListManifests(), ElementsAre("manifest-a", "manifest-b"));
  EXPECT_THAT(TempFiles(root_ + "/manifest"), ElementsAre(".manifest-c.1-1.tmp"));
}

TEST_F(DirStoreTest, DataFilesLiveUnderPartitionAndBucket) {
  DataFile plain = File(1);
  DataFile dated = File(2);
  dated.partition = "dt=2024-01-01";
  dated.bucket = 2;
  dated.level = 3;
  DataFile nested = File(3);
  nested.partition = "k1=a/k2=b";
  nested.bucket = 1;
  for (const DataFile& f : {plain, dated, nested}) ASSERT_TRUE(store_->WriteDataFile(f).ok());

  EXPECT_EQ(store_->DataFilePath(dated), root_ + "/dt=2024-01-01/bucket-2/data-2.parquet");
  EXPECT_TRUE(fs::is_regular_file(root_ + "/bucket-0/data-1.parquet"));
  EXPECT_TRUE(fs::is_regular_file(root_ + "/k1=a/k2=b/bucket-1/data-3.parquet"));
  const std::string line = ReadText(root_ + "/dt=2024-01-01/bucket-2/data-2.parquet");
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1);  // one line
  EXPECT_EQ(line, R"({"fileName":"data-2.parquet","partition":"dt=2024-01-01","bucket":2,"level":3,"minKey":20,)"
                  R"("maxKey":29,"rowCount":10})"
                  "\n");
  EXPECT_TRUE(nlohmann::json::accept(line)) << line;

  EXPECT_TRUE(store_->DataFileExists(dated));
  DataFile elsewhere = dated;
  elsewhere.bucket = 0;
  EXPECT_FALSE(store_->DataFileExists(elsewhere));

  // Only files in bucket directories count; store files, temp files and strays do not.
  WriteText(root_ + "/stray.txt", "x");
  WriteText(root_ + "/bucket-0/.data-9.parquet.1-1.tmp", "x");
  ASSERT_TRUE(store_->WriteManifest("manifest-x", {}).ok());
  EXPECT_THAT(store_->ListDataFiles(), ElementsAre("data-1.parquet", "data-2.parquet", "data-3.parquet"));
}

TEST_F(DirStoreTest, DataFilesWithUnsafePathsAreRefused) {
  for (std::string_view partition : {"..", "../x", "/abs", "a//b", "a/", "snapshot", "manifest", ".hidden"}) {
    DataFile f = File(1);
    f.partition = std::string(partition);
    EXPECT_EQ(store_->WriteDataFile(f).code(), Code::kInvalidArgument) << partition;
    EXPECT_FALSE(store_->DataFileExists(f)) << partition;
  }
  for (std::string_view name : {"", "..", "a/b", ".tmp"}) {
    DataFile f = File(1);
    f.name = std::string(name);
    EXPECT_EQ(store_->WriteDataFile(f).code(), Code::kInvalidArgument) << name;
  }
  EXPECT_THAT(store_->ListDataFiles(), IsEmpty());
}

// Publish through renameat2 (true) or the link(2) fallback (false).
class DirStoreRaceTest : public DirStoreTest, public ::testing::WithParamInterface<bool> {};

TEST_P(DirStoreRaceTest, ThreadsRacingForTheSameIdHaveOneWinner) {
  constexpr int kThreads = 8;
  constexpr int64_t kIds = 20;
  std::unique_ptr<DirStore> store = OpenStore({.rename_noreplace = GetParam()});
  ASSERT_NE(store, nullptr);
  std::vector<std::vector<PublishResult>> results(kThreads, std::vector<PublishResult>(kIds + 1));
  auto result = [&results](int t, int64_t id) -> PublishResult& {
    return results[static_cast<size_t>(t)][static_cast<size_t>(id)];
  };
  std::barrier start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string user = fmt::format("thread-{}", t);
      for (int64_t id = 1; id <= kIds; ++id) {
        const std::string manifest = fmt::format("manifest-{}-{}", user, id);
        Snapshot s = MakeSnapshot(id, user, manifest);
        (void)store->WriteDataFile(s.changes[0].file);
        (void)store->WriteManifest(manifest, s.changes);
        start.arrive_and_wait();  // every thread publishes id at once
        result(t, id) = store->Publish(s);
      }
    });
  }
  for (std::thread& th : threads) th.join();

  for (int64_t id = 1; id <= kIds; ++id) {
    int published = 0, lost = 0, winner = -1;
    for (int t = 0; t < kThreads; ++t) {
      EXPECT_TRUE(result(t, id).error.ok()) << result(t, id).error.ToString();
      if (result(t, id).outcome == PublishOutcome::kPublished) {
        ++published;
        winner = t;
      }
      lost += result(t, id).outcome == PublishOutcome::kAlreadyExists;
    }
    EXPECT_EQ(published, 1) << "snapshot " << id;
    EXPECT_EQ(lost, kThreads - 1) << "snapshot " << id;
    Result<Snapshot> s = store->ReadSnapshot(id);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_EQ(s->commit_user, fmt::format("thread-{}", winner));
  }
  EXPECT_EQ(LatestId(), kIds);
  EXPECT_THAT(TempFiles(SnapshotDir()), IsEmpty());
}

// Children of fork(): each tries to publish 1..kIds in order and reports which ids it won.
TEST_P(DirStoreRaceTest, ProcessesRacingPublishEachIdExactlyOnce) {
  constexpr size_t kProcesses = 4;
  constexpr int64_t kIds = 50;
  int start_pipe[2];
  ASSERT_EQ(::pipe(start_pipe), 0);
  std::vector<pid_t> children;
  std::vector<int> result_fds;
  for (size_t p = 0; p < kProcesses; ++p) {
    int result_pipe[2];
    ASSERT_EQ(::pipe(result_pipe), 0);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // Child: no gtest macros here; the exit code and the pipe are the only reports.
      ::close(start_pipe[1]);
      ::close(result_pipe[0]);
      char c;
      while (::read(start_pipe[0], &c, 1) > 0) {
      }  // EOF: the parent has forked everyone
      Result<std::unique_ptr<DirStore>> store = DirStore::Open(root_, {.rename_noreplace = GetParam()});
      if (!store.ok()) ::_exit(10);
      const std::string user = fmt::format("proc-{}", p);
      uint64_t won = 0;
      for (int64_t id = 1; id <= kIds; ++id) {
        const std::string manifest = fmt::format("manifest-{}-{}", user, id);
        Snapshot s = MakeSnapshot(id, user, manifest);
        if (!(*store)->WriteDataFile(s.changes[0].file).ok()) ::_exit(14);
        if (!(*store)->WriteManifest(manifest, s.changes).ok()) ::_exit(11);
        const PublishResult r = (*store)->Publish(s);
        if (r.outcome == PublishOutcome::kError) ::_exit(12);
        if (r.outcome == PublishOutcome::kPublished) won |= uint64_t{1} << id;
      }
      if (::write(result_pipe[1], &won, sizeof(won)) != sizeof(won)) ::_exit(13);
      ::_exit(0);
    }
    ::close(result_pipe[1]);
    children.push_back(pid);
    result_fds.push_back(result_pipe[0]);
  }
  ::close(start_pipe[0]);
  ::close(start_pipe[1]);  // go

  std::vector<uint64_t> won(kProcesses, 0);
  for (size_t p = 0; p < kProcesses; ++p) {
    EXPECT_EQ(::read(result_fds[p], &won[p], sizeof(won[p])), static_cast<ssize_t>(sizeof(won[p])));
    ::close(result_fds[p]);
    int status = 0;
    ASSERT_EQ(::waitpid(children[p], &status, 0), children[p]);
    ASSERT_TRUE(WIFEXITED(status)) << "child " << p << " status " << status;
    EXPECT_EQ(WEXITSTATUS(status), 0) << "child " << p;
  }

  int total = 0;
  uint64_t all = 0;
  for (size_t p = 0; p < kProcesses; ++p) {
    total += std::popcount(won[p]);
    EXPECT_EQ(all & won[p], 0u) << "two processes claim the same snapshot";
    all |= won[p];
  }
  EXPECT_EQ(total, kIds);
  EXPECT_EQ(all, ((uint64_t{1} << (kIds + 1)) - 1) & ~uint64_t{1});  // ids 1..kIds
  for (int64_t id = 1; id <= kIds; ++id) {
    Result<Snapshot> s = store_->ReadSnapshot(id);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    std::string owner = "no process";
    for (size_t p = 0; p < kProcesses; ++p)
      if (won[p] & (uint64_t{1} << id)) owner = fmt::format("proc-{}", p);
    EXPECT_EQ(s->commit_user, owner) << "snapshot " << id;
    EXPECT_EQ(s->parent_id, id - 1);
    EXPECT_EQ(s->changes, MakeSnapshot(id, "", "").changes);
  }
  EXPECT_EQ(LatestId(), kIds);
  EXPECT_THAT(TempFiles(SnapshotDir()), IsEmpty());
  EXPECT_EQ(store_->ListManifests().size(), kProcesses * static_cast<size_t>(kIds));
}

INSTANTIATE_TEST_SUITE_P(DirStorePublish, DirStoreRaceTest, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& param_info) {
                           return param_info.param ? "RenameNoReplace" : "Link";
                         });

TEST_F(DirStoreTest, CommitterEndToEnd) {
  test::TestEnv env;
  NullEventSink events;
  paimon::Committer writer("writer-1", paimon::CommitOptions{}, &env, store_.get(), &events);
  for (int64_t i = 1; i <= 20; ++i) {
    ASSERT_TRUE(store_->WriteDataFile(File(i)).ok());
    Result<int> n = writer.Commit(Committable{.identifier = i, .append_changes = {{ChangeKind::kAdd, File(i)}}});
    ASSERT_TRUE(n.ok()) << n.status().ToString();
    EXPECT_EQ(*n, 1);
  }
  EXPECT_EQ(writer.stats().committed, 20);
  EXPECT_EQ(writer.stats().atomic_failures, 0);

  // Everything is on disk: a fresh store over the same root sees the whole chain.
  std::unique_ptr<DirStore> reopened = OpenStore();
  ASSERT_NE(reopened, nullptr);
  for (int64_t id = 1; id <= 20; ++id) {
    Result<Snapshot> s = reopened->ReadSnapshot(id);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_EQ(s->id, id);
    EXPECT_EQ(s->parent_id, id - 1);
    EXPECT_EQ(s->commit_user, "writer-1");
    EXPECT_EQ(s->commit_identifier, id);
    EXPECT_EQ(s->kind, CommitKind::kAppend);
    EXPECT_EQ(s->total_records, 10 * id);
    EXPECT_EQ(s->delta_records, 10);
    EXPECT_EQ(s->changes, (std::vector<FileChange>{{ChangeKind::kAdd, File(id)}}));
  }
  EXPECT_EQ(reopened->ReadSnapshot(21).status().code(), Code::kNotFound);
  EXPECT_EQ(ReadText(root_ + "/snapshot/LATEST"), "20");
  EXPECT_EQ(reopened->ListManifests().size(), 20u);
  EXPECT_EQ(reopened->ListDataFiles().size(), 20u);

  // A second writer on the reopened store builds on the chain it finds there.
  paimon::Committer second("writer-2", paimon::CommitOptions{}, &env, reopened.get(), &events);
  ASSERT_TRUE(reopened->WriteDataFile(File(21)).ok());
  Result<int> n = second.Commit(Committable{.identifier = 1, .append_changes = {{ChangeKind::kAdd, File(21)}}});
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(LatestId(), 21);
  EXPECT_EQ(store_->ReadSnapshot(21)->total_records, 210);
}

// A commit whose data file vanished before its publish (an orphan cleaner, an rm) fails at once
// with the store's reason: it is not retried as an unknown outcome, and nothing is published.
TEST_F(DirStoreTest, ACommitWhoseDataFileIsGoneFailsWithoutRetrying) {
  test::TestEnv env;
  NullEventSink events;
  paimon::Committer writer("writer-1", paimon::CommitOptions{}, &env, store_.get(), &events);
  Result<int> n = writer.Commit(Committable{.identifier = 1, .append_changes = {{ChangeKind::kAdd, File(1)}}});
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.status().code(), Code::kNotFound);
  EXPECT_THAT(n.status().message(), HasSubstr("cannot publish snapshot-1: its data file"));
  EXPECT_EQ(writer.stats().unknown_outcomes, 0);
  EXPECT_EQ(writer.stats().committed, 0);
  EXPECT_EQ(LatestId(), 0);
}

TEST(DirTableNameTest, IsTheLastComponentHoweverTheDirectoryIsWritten) {
  EXPECT_EQ(DirTableName("t"), "t");
  EXPECT_EQ(DirTableName("t/"), "t");
  EXPECT_EQ(DirTableName("a/b/../t//"), "t");
  EXPECT_EQ(DirTableName("."), fs::current_path().filename().string());
}

}  // namespace
}  // namespace commitlab
