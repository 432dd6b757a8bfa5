// The formatters the Iceberg and Delta labs print with.
#include "lab_narration.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace commitlab::cli {
namespace {

TEST(LabNarrationTest, FirstLinesStopsAtTheCountOrTheEnd) {
  EXPECT_EQ(FirstLines("a\nb\nc", 2), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(FirstLines("one", 3), std::vector<std::string>{"one"});
  EXPECT_EQ(FirstLines("a\n", 3), (std::vector<std::string>{"a", ""}));
  EXPECT_EQ(FirstLines("", 1), std::vector<std::string>{""});
}

TEST(LabNarrationTest, ShortSnapshotIdKeepsSixDigits) {
  EXPECT_EQ(ShortSnapshotId(3051774107949218754), "305177…");
  EXPECT_EQ(ShortSnapshotId(42), "42");
  EXPECT_EQ(ShortSnapshotId(std::nullopt), "none");
}

TEST(LabNarrationTest, AbbreviateUuidsCutsEveryUuidAndNothingElse) {
  EXPECT_EQ(AbbreviateUuids("from metadata/00001-ad09e446-bf68-20e2-1722-48d38a1f56f4.metadata.json to "
                            "metadata/00002-cb41eecb-51a9-6e38-3834-e6ccbeef326c.metadata.json"),
            "from metadata/00001-ad09e446….metadata.json to metadata/00002-cb41eecb….metadata.json");
  EXPECT_EQ(AbbreviateUuids("data/dt=2024-01-01/writer-1-0.parquet"), "data/dt=2024-01-01/writer-1-0.parquet");
  // Not hex, or cut short: left alone.
  EXPECT_EQ(AbbreviateUuids("gd09e446-bf68-20e2-1722-48d38a1f56f4"), "gd09e446-bf68-20e2-1722-48d38a1f56f4");
  EXPECT_EQ(AbbreviateUuids("ad09e446-bf68-20e2-1722-48d38a1f56f"), "ad09e446-bf68-20e2-1722-48d38a1f56f");
}

TEST(LabNarrationTest, ExceptionNameIsTheLeadingExceptionWord) {
  EXPECT_EQ(ExceptionName("ValidationException: Found conflicting files"), "ValidationException");
  EXPECT_EQ(ExceptionName("ConcurrentAppendException: Files were added\nConflicting commit: {}"),
            "ConcurrentAppendException");
  EXPECT_EQ(ExceptionName("simulated crash at publish.before"), "");
  EXPECT_EQ(ExceptionName("not an Exception: at all"), "");
}

TEST(LabNarrationTest, FailureNameFallsBackToTheStatusCode) {
  EXPECT_EQ(FailureName(Status::Conflict("ValidationException: Missing required files to delete: a")),
            "ValidationException");
  EXPECT_EQ(FailureName(Status::IOError("simulated timeout")), CodeName(Code::kIOError));
}

TEST(LabNarrationTest, JoinSeparatesItems) {
  EXPECT_EQ(Join({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(Join({"a", "b"}, " <- "), "a <- b");
  EXPECT_EQ(Join({}), "");
}

TEST(LabNarrationTest, VerdictLineSaysWhetherTheRunAgreesWithItsSource) {
  Verdict v{.observed = "counter hits = 20", .as_seed = true, .claim = "it ends at 20", .source = "seed 003"};
  EXPECT_EQ(VerdictLine(v), "verdict: counter hits = 20 — as in seed 003");
  v.as_seed = false;
  EXPECT_EQ(VerdictLine(v), "verdict: counter hits = 20 — DIFFERS from seed 003: it ends at 20");
}

TEST(LabNarrationTest, SummaryLineCountsAgreeingRunsAndNamesTheOthers) {
  ExperimentReport r{.number = 3, .key = "counter", .verdicts = {{.observed = "a", .as_seed = true}}};
  EXPECT_TRUE(r.as_seed());
  EXPECT_EQ(SummaryLine(r), "3. counter      AGREES   1 of 1 run as their sources say");
  r.verdicts.push_back({.observed = "hits = 15", .as_seed = false});
  EXPECT_FALSE(r.as_seed());
  EXPECT_EQ(SummaryLine(r), "3. counter      DIFFERS  1 of 2 runs as their sources say; hits = 15");
  EXPECT_FALSE(ExperimentReport{}.as_seed());  // an experiment that judged nothing proved nothing
}

TEST(LabNarrationTest, ReportsJsonHoldsEveryVerdict) {
  std::vector<ExperimentReport> reports = {
      {.number = 1,
       .key = "race",
       .verdicts = {{.observed = "one \"line\"", .as_seed = true, .claim = "c", .source = "seed 003"}}}};
  EXPECT_EQ(ReportsJson("iceberg", reports),
            "{\"lab\": \"iceberg\", \"as_seed\": true, \"experiments\": [{\"number\": 1, \"key\": \"race\", "
            "\"as_seed\": true, \"verdicts\": [{\"observed\": \"one \\\"line\\\"\", \"as_seed\": true, \"claim\": "
            "\"c\", \"source\": \"seed 003\"}]}]}");
}

iceberg::SnapshotRef MakeSnapshot(int64_t id, std::optional<int64_t> parent, std::string by, size_t files) {
  auto live = std::make_shared<iceberg::FileSet>();
  for (size_t i = 0; i < files; ++i) {
    const std::string path = "data/f" + std::to_string(i) + ".parquet";
    live->emplace(path, iceberg::MakeDataFile(path, {}));
  }
  auto s = std::make_shared<iceberg::Snapshot>();
  s->snapshot_id = id;
  s->parent_id = parent;
  s->committed_by = std::move(by);
  s->live_files = std::move(live);
  return s;
}

TEST(LabNarrationTest, IcebergSnapshotLineShowsTheCurrentSnapshot) {
  iceberg::TableMetadata m = iceberg::NewTableMetadata("db.events");
  EXPECT_EQ(IcebergSnapshotLine(m), "v0  no snapshot yet");
  m.version = 2;
  m.snapshots = {MakeSnapshot(3051774107949218754, std::nullopt, "writer-a", 1),
                 MakeSnapshot(6557296755745970040, 3051774107949218754, "writer-b", 2)};
  m.current_snapshot_id = 6557296755745970040;
  EXPECT_EQ(IcebergSnapshotLine(m), "v2  snapshot 655729…  append     by writer-b  parent 305177…  files 2");
}

TEST(LabNarrationTest, DeltaVersionLineShowsTheCommitInfo) {
  delta::Commit c;
  c.adds.push_back({.file = {.name = "b1", .partition = "x=1"}});
  c.commit_info = {.user_name = "B",
                   .operation = delta::Operation::kInsert,
                   .read_version = 0,
                   .isolation_level = delta::IsolationLevel::kSerializable,
                   .is_blind_append = true};
  EXPECT_EQ(DeltaVersionLine(2, c), "version 2  INSERT    by B  add=1 remove=0  read v0  Serializable  blindAppend");
  c.txns.push_back({.app_id = "query-1", .version = 0});
  c.commit_info.read_version = -1;
  c.commit_info.is_blind_append = false;
  EXPECT_EQ(DeltaVersionLine(0, c), "version 0  INSERT    by B  add=1 remove=0  Serializable  txn query-1=0");
}

// Everything a Narration printed.
class Captured {
 public:
  Captured() : file_(open_memstream(&buf_, &size_)) {}
  ~Captured() {
    if (file_ != nullptr) std::fclose(file_);
    std::free(buf_);
  }
  std::FILE* file() { return file_; }
  std::string Text() {
    std::fflush(file_);
    return std::string(buf_, size_);
  }

 private:
  char* buf_ = nullptr;
  size_t size_ = 0;
  std::FILE* file_;
};

TEST(LabNarrationTest, RefusalShowsWhatTheLogLineDidNot) {
  Captured out;
  Narration n(out.file());
  const Status st =
      Status::Conflict("ConcurrentAppendException: Files were added.\nConflicting commit: {}\nRefer to x");
  n.Refusal("B", st, /*logged=*/true);
  n.Refusal("reader", Status::NotFound("FileNotFoundException: File does not exist: data/a"), /*logged=*/false);
  n.Refusal("B", st, /*logged=*/true, /*max_lines=*/2);
  EXPECT_EQ(out.Text(),
            "   [B] refused with ConcurrentAppendException\n"
            "     | Conflicting commit: {}\n"
            "     | Refer to x\n"
            "   [reader] refused: FileNotFoundException: File does not exist: data/a\n"
            "   [B] refused with ConcurrentAppendException\n"
            "     | Conflicting commit: {}\n");
}

TEST(LabNarrationTest, EventNarratorPrintsTheFirstLineThenTheHook) {
  Captured out;
  Narration n(out.file());
  EventNarrator sink(&n);
  int hooked = 0;
  sink.set_after([&](const Event&) { ++hooked; });
  sink.OnEvent({.type = EventType::kConflict, .level = Level::kError, .user = "B", .message = "Boom: one\ntwo"});
  EXPECT_EQ(out.Text(), "   ERROR [B] Boom: one\n");
  EXPECT_EQ(hooked, 1);
}

TEST(LabNarrationTest, AQuietNarrationPrintsNothing) {
  Narration n(nullptr);
  n.Line("{}", "nothing");
  n.Title(1, "race", "t", "intro");
  EXPECT_EQ(n.Judge({.observed = "x", .as_seed = true}).observed, "x");
}

}  // namespace
}  // namespace commitlab::cli
