#include "commitlab/scenarios/parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "protocols/paimon/paimon_steps.h"

namespace commitlab::scenarios {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Four lines every error case below starts from, so its own lines are 5, 6, ...
constexpr std::string_view kHeader =
    "title \"t\"\n"
    "table name=T protocol=paimon primary-key=true buckets=2 levels=6\n"
    "writer name=a\n"
    "writer name=b\n";

Result<Scenario> Parse(std::string_view text) { return ParseScenario(text, "t.scn"); }

std::string ErrorOf(std::string_view text) {
  Result<Scenario> r = Parse(text);
  if (r.ok()) return "OK";
  EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
  return r.status().message();
}

Scenario MustParse(std::string_view text) {
  Result<Scenario> r = Parse(text);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *std::move(r) : Scenario{};
}

std::filesystem::path ScenarioDir() { return std::filesystem::path(COMMITLAB_SOURCE_DIR) / "scenarios"; }

// ---------------------------------------------------------------------------------------------
// The example files

TEST(ScenarioFilesTest, EveryExampleFileParses) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(ScenarioDir()))
    if (entry.path().extension() == ".scn") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 8u);
  for (const auto& f : files) {
    Result<Scenario> r = LoadScenarioFile(f.string());
    EXPECT_TRUE(r.ok()) << r.status().message();
    if (!r.ok()) continue;
    EXPECT_FALSE(r->title.empty()) << f;
    EXPECT_FALSE(r->expectations.empty()) << f;
    // `lab --lang zh` tells every file in Chinese: its title, and its claim when it has one.
    EXPECT_FALSE(r->title_zh.empty()) << f;
    EXPECT_EQ(r->claim.empty(), r->claim_zh.empty()) << f;
  }
}

TEST(ScenarioTextTest, ChineseTitleAndClaimSitBesideTheEnglish) {
  const Scenario s = MustParse(
      "title \"Two jobs race\"\ntitle.zh \"两个作业抢号\"\nclaim \"all land\"\nclaim.zh \"全部成功\"\n"
      "table name=t protocol=paimon\nwriter name=w\nw: write rows=1; commit\n");
  EXPECT_EQ(s.title, "Two jobs race");
  EXPECT_EQ(s.title_zh, "两个作业抢号");
  EXPECT_EQ(s.claim_zh, "全部成功");
  EXPECT_EQ(ErrorOf("title \"t\"\ntitle.zh \"一\"\ntitle.zh \"二\"\n"),
            "t.scn:3:1: duplicate directive title.zh (first given at line 2)");
  EXPECT_EQ(ErrorOf("title \"t\"\nclaim.zh \"\"\n"), "t.scn:2:10: the claim.zh is empty");
}

TEST(ScenarioFilesTest, ConflictScenarioPinsTheLecture) {
  Result<Scenario> r = LoadScenarioFile((ScenarioDir() / "paimon_conflict.scn").string());
  ASSERT_TRUE(r.ok()) << r.status().message();
  const Scenario& s = *r;
  ASSERT_EQ(s.tables.size(), 1u);
  EXPECT_TRUE(s.tables[0].primary_key);
  EXPECT_FALSE(s.tables[0].ignore_empty_commit);
  ASSERT_EQ(s.writers.size(), 3u);
  const Writer& writer = s.writers[0];
  ASSERT_EQ(writer.steps.size(), 6u);
  for (size_t i = 0; i < 3; ++i) {
    const auto w = OpAs<WriteOp>(writer.steps[2 * i].op);
    const auto n = static_cast<int64_t>(i + 1);
    EXPECT_EQ(w.min_key, n);
    EXPECT_EQ(w.max_key, n);
    EXPECT_EQ(OpAs<CommitOp>(writer.steps[2 * i + 1].op).identifier, n);
  }
  EXPECT_EQ(writer.steps[5].label, "loaded");
  const auto plan = OpAs<CompactOp>(s.writers[1].steps[0].op);
  EXPECT_TRUE(plan.all_files);
  EXPECT_EQ(plan.from_level, 0);
  EXPECT_EQ(plan.to_level, 5);
  EXPECT_EQ(OpAs<CommitOp>(s.writers[2].steps[1].op).identifier, 1);

  ASSERT_EQ(s.order.size(), 4u);
  EXPECT_EQ(s.order[3].text, "compact-job-1.commit -> compact-job-2.commit");
  EXPECT_EQ(s.order[3].before, (StepRef{1, 1}));
  EXPECT_EQ(s.order[3].after, (StepRef{2, 1}));
  EXPECT_EQ(s.order[0].before, (StepRef{0, 5}));

  std::vector<std::string> refusals;
  int snapshots = 0;
  for (const Expectation& e : s.expectations) {
    if (const auto* o = std::get_if<OutcomeExpect>(&e.body); o && o->outcome == Outcome::kRefused) {
      EXPECT_EQ(o->writer, 2u);
      refusals.push_back(o->message);
    }
    if (const auto* x = std::get_if<SnapshotExpect>(&e.body)) {
      ++snapshots;
      if (x->id == 5) {
        EXPECT_EQ(x->kind, CommitKind::kCompact);
        EXPECT_EQ(x->user, "compact-job-1");
        EXPECT_EQ(x->identifier, 1);
        EXPECT_EQ(x->total_records, 3);
      }
    }
    if (const auto* l = std::get_if<LatestSnapshotExpect>(&e.body)) {
      EXPECT_EQ(l->value, (Comparison{CmpOp::kEq, 6, 0}));
    }
  }
  EXPECT_EQ(snapshots, 6);
  EXPECT_THAT(refusals, ::testing::Contains("File deletion conflicts detected! Give up committing."));
  EXPECT_THAT(refusals,
              ::testing::Contains("Base commit user is: compact-job-2; Current commit user is: compact-job-2"));
}

TEST(ScenarioFilesTest, RaceScenarioExpandsRepeats) {
  Result<Scenario> r = LoadScenarioFile((ScenarioDir() / "paimon_race.scn").string());
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->writers.size(), 2u);
  EXPECT_EQ(r->TotalSteps(), 120u);
  const Writer& b = r->writers[1];
  ASSERT_EQ(b.steps.size(), 60u);
  EXPECT_EQ(OpAs<CommitOp>(b.steps[59].op).identifier, 30);
  EXPECT_EQ(b.steps[59].iteration, 30);
  // Fresh keys are handed out in file order: job-A's 30 rows first.
  EXPECT_EQ(OpAs<WriteOp>(b.steps[0].op).min_key, 31);
  ASSERT_TRUE(r->seed.has_value());
  EXPECT_EQ(*r->seed, 42u);
  ASSERT_TRUE(r->sched.has_value());
  EXPECT_EQ(r->sched->kind, SchedKind::kRandom);
  bool per_user = false;
  for (const Expectation& e : r->expectations) {
    if (const auto* p = std::get_if<PerUserExpect>(&e.body)) {
      per_user = true;
      EXPECT_EQ(p->snapshots, (std::map<std::string, int64_t>{{"job-A", 30}, {"job-B", 30}}));
    }
  }
  EXPECT_TRUE(per_user);
}

TEST(ScenarioFilesTest, UnknownOutcomeFilesDifferOnlyInTheCheck) {
  Result<Scenario> with = LoadScenarioFile((ScenarioDir() / "paimon_unknown.scn").string());
  Result<Scenario> without = LoadScenarioFile((ScenarioDir() / "paimon_unknown_no_check.scn").string());
  ASSERT_TRUE(with.ok() && without.ok());
  EXPECT_TRUE(with->idempotency_check);
  EXPECT_FALSE(without->idempotency_check);
  ASSERT_EQ(with->faults.size(), 1u);
  EXPECT_EQ(with->faults[0].text, "job-A:publish.after:nth=1:unknown");
  int violations = 0;
  for (const Expectation& e : without->expectations) violations += std::holds_alternative<InvariantExpect>(e.body);
  EXPECT_GE(violations, 1);
}

// ---------------------------------------------------------------------------------------------
// Round trips

TEST(ParserTest, MinimalScenario) {
  Scenario s = MustParse("title \"Two jobs race\"\ntable name=T protocol=paimon\nwriter name=a\n");
  EXPECT_EQ(s.title, "Two jobs race");
  EXPECT_EQ(s.file_name, "t.scn");
  ASSERT_EQ(s.tables.size(), 1u);
  EXPECT_EQ(s.tables[0].protocol, Protocol::kPaimon);
  EXPECT_FALSE(s.tables[0].primary_key);
  EXPECT_EQ(s.tables[0].buckets, 1);
  EXPECT_EQ(s.tables[0].levels, 6);
  EXPECT_FALSE(s.tables[0].ignore_empty_commit);
  ASSERT_EQ(s.writers.size(), 1u);
  EXPECT_EQ(s.writers[0].commit_user, "a");
  EXPECT_EQ(s.writers[0].pos, (SourcePos{3, 1}));
  EXPECT_TRUE(s.idempotency_check);
  EXPECT_FALSE(s.retry.has_value());
  EXPECT_FALSE(s.seed.has_value());
}

TEST(ParserTest, CommentsBlankLinesCrlfAndQuotes) {
  Scenario s = MustParse(
      "# a comment\r\n\r\n   \t\r\ntitle \"say \\\"hi\\\" # not a comment\\\\\"   # comment\r\n"
      "table name=T protocol=iceberg # trailing\r\nwriter name=w user=job-7 table=T\r\n");
  EXPECT_EQ(s.title, "say \"hi\" # not a comment\\");
  EXPECT_EQ(s.tables[0].protocol, Protocol::kIceberg);
  EXPECT_EQ(s.writers[0].commit_user, "job-7");
  EXPECT_EQ(s.writers[0].pos.line, 6);
}

TEST(ParserTest, TableOptions) {
  Scenario s = MustParse(
      "title \"t\"\n"
      "table name=P protocol=paimon primary-key=true partitions=dt,hr buckets=4 levels=3 ignore-empty-commit=true\n"
      "table name=Q protocol=delta\n"
      "writer name=a table=P\n"
      "a: write rows=5 partition=dt=2024-01-01/hr=1 bucket=3\n"
      "a: compact partition=\"dt=2024-01-01/hr=1\" bucket=3 from=0 files=0 to=2 keys=1..9 rows=4\n");
  const Table& p = s.tables[0];
  EXPECT_EQ(p.protocol, Protocol::kPaimon);
  EXPECT_EQ(s.tables[1].protocol, Protocol::kDelta);
  EXPECT_EQ(s.tables[1].isolation, "Serializable");  // open-source Delta's default
  EXPECT_TRUE(p.primary_key);
  EXPECT_EQ(p.partition_keys, (std::vector<std::string>{"dt", "hr"}));
  EXPECT_EQ(p.buckets, 4);
  EXPECT_EQ(p.levels, 3);
  EXPECT_TRUE(p.ignore_empty_commit);
  const auto w = OpAs<WriteOp>(s.writers[0].steps[0].op);
  EXPECT_EQ(w.partition, "dt=2024-01-01/hr=1");
  EXPECT_EQ(w.bucket, 3);
  EXPECT_EQ(w.rows, 5);
  EXPECT_EQ(w.min_key, 1);
  EXPECT_EQ(w.max_key, 5);
  const auto c = OpAs<CompactOp>(s.writers[0].steps[1].op);
  EXPECT_EQ(c.partition, "dt=2024-01-01/hr=1");
  EXPECT_FALSE(c.all_files);
  EXPECT_EQ(c.files, (std::vector<int32_t>{0}));
  EXPECT_EQ(c.min_key, 1);
  EXPECT_EQ(c.max_key, 9);
  EXPECT_EQ(c.rows, 4);
}

TEST(ParserTest, WriteKeysAreFreshPerTableUnlessGiven) {
  Scenario s = MustParse(std::string(kHeader) +
                         "a: write rows=3\n"       // 1..3
                         "b: write keys=10..11\n"  // given: rows 2
                         "a: write\n"              // 12..12
                         "b: write rows=2 keys=5..5\n");
  const auto a0 = OpAs<WriteOp>(s.writers[0].steps[0].op);
  const auto b0 = OpAs<WriteOp>(s.writers[1].steps[0].op);
  const auto a1 = OpAs<WriteOp>(s.writers[0].steps[1].op);
  const auto b1 = OpAs<WriteOp>(s.writers[1].steps[1].op);
  EXPECT_EQ(std::tie(a0.min_key, a0.max_key, a0.rows), std::make_tuple(1, 3, 1 * 3));
  EXPECT_EQ(std::tie(b0.min_key, b0.max_key, b0.rows), std::make_tuple(10, 11, 2));
  EXPECT_EQ(std::tie(a1.min_key, a1.max_key, a1.rows), std::make_tuple(12, 12, 1));
  EXPECT_EQ(std::tie(b1.min_key, b1.max_key, b1.rows), std::make_tuple(5, 5, 2));
}

TEST(ParserTest, IdentifiersCheckpointsAndRestart) {
  Scenario s = MustParse(std::string(kHeader) +
                         "a: commit\n"               // 1
                         "a: commit identifier=7\n"  // 7
                         "a: checkpoint name=cp\n"   // 8
                         "a: commit\n"               // 9
                         "a: restart\n"
                         "a: commit checkpoint=cp\n"  // cp's 8, counter stays 9
                         "a: commit\n"                // 10
                         "a: filter-and-commit checkpoints=cp\n");
  const StepList& st = s.writers[0].steps;
  ASSERT_EQ(st.size(), 8u);
  EXPECT_EQ(OpAs<CommitOp>(st[0].op).identifier, 1);
  EXPECT_EQ(OpAs<CommitOp>(st[1].op).identifier, 7);
  EXPECT_EQ(OpAs<CheckpointOp>(st[2].op).identifier, 8);
  EXPECT_EQ(OpAs<CheckpointOp>(st[2].op).checkpoint, "cp");
  EXPECT_EQ(OpAs<CommitOp>(st[3].op).identifier, 9);
  EXPECT_TRUE(OpIs<RestartOp>(st[4].op));
  EXPECT_EQ(OpAs<CommitOp>(st[5].op).identifier, 8);
  EXPECT_EQ(OpAs<CommitOp>(st[5].op).checkpoint, "cp");
  EXPECT_EQ(OpAs<CommitOp>(st[6].op).identifier, 10);
  EXPECT_EQ(OpAs<FilterAndCommitOp>(st[7].op).checkpoints, (std::vector<std::string>{"cp"}));
  EXPECT_EQ(OpName(st[7].op), "filter-and-commit");
}

TEST(ParserTest, WritersWithTheirOwnBucketCountAndStrictMode) {
  Scenario s = MustParse(
      "title \"t\"\n"
      "table name=T protocol=paimon buckets=1\n"
      "writer name=a buckets=4 strict-mode-last-safe-snapshot=-1\n"
      "writer name=b\n"
      "a: write bucket=3; checkpoint name=cp\n"
      "b: delete-data-files checkpoints=cp\n");
  EXPECT_EQ(s.writers[0].buckets, 4);
  EXPECT_EQ(s.writers[0].strict_mode_last_safe_snapshot, -1);
  EXPECT_EQ(s.writers[1].buckets, 0);  // the table's
  EXPECT_FALSE(s.writers[1].strict_mode_last_safe_snapshot.has_value());
  EXPECT_EQ(OpAs<WriteOp>(s.writers[0].steps[0].op).bucket, 3);
  const Step del = s.writers[1].steps[0];
  EXPECT_EQ(OpAs<DeleteDataFilesOp>(del.op).checkpoints, (std::vector<std::string>{"cp"}));
  EXPECT_EQ(OpName(del.op), "delete-data-files");
  EXPECT_FALSE(OpPublishes(del.op));
}

TEST(ParserTest, RepeatExpandsLabelsAndCheckpointNames) {
  Scenario s = MustParse(std::string(kHeader) +
                         "repeat 3: a.c: write rows=1; checkpoint name=cp; commit checkpoint=cp\n"
                         "b.x: filter-and-commit checkpoints=cp[1],cp[3]\n"
                         "order a.c[2] -> b.x\n");
  const StepList& st = s.writers[0].steps;
  ASSERT_EQ(st.size(), 9u);
  EXPECT_EQ(st[0].label, "c[1]");
  EXPECT_EQ(st[3].label, "c[2]");
  EXPECT_EQ(st[1].label, "");
  EXPECT_EQ(st[6].iteration, 3);
  EXPECT_EQ(OpAs<CheckpointOp>(st[4].op).checkpoint, "cp[2]");
  EXPECT_EQ(OpAs<CheckpointOp>(st[4].op).identifier, 2);
  // A name saved earlier on the same line means this iteration's checkpoint.
  EXPECT_EQ(OpAs<CommitOp>(st[5].op).checkpoint, "cp[2]");
  EXPECT_EQ(OpAs<CommitOp>(st[5].op).identifier, 2);
  EXPECT_EQ(OpAs<FilterAndCommitOp>(s.writers[1].steps[0].op).checkpoints,
            (std::vector<std::string>{"cp[1]", "cp[3]"}));
  ASSERT_EQ(s.order.size(), 1u);
  // A labelled line finishes with its last step and starts with its first.
  EXPECT_EQ(s.order[0].before, (StepRef{0, 5}));
  EXPECT_EQ(s.order[0].after, (StepRef{1, 0}));
  EXPECT_EQ(s.order[0].pos, (SourcePos{7, 7}));
}

// A repeated line of fresh writes and plain commits is held once (StepList::push_repeat); read
// back, each of its steps is the one the line expanded step by step gives, and so is every step
// after it (the keys and identifiers the held line skips over).
TEST(ParserTest, ARepeatHeldOnceReadsAsTheExpandedOne) {
  // A partitioned table (a write names its partition), so that a held line's partitions are read back too.
  const std::string text =
      "title \"t\"\n"
      "table name=T protocol=paimon primary-key=true partitions=dt buckets=2 levels=6\n"
      "writer name=a\n"
      "writer name=b\n"
      "a: write rows=2 partition=dt=0\n"
      "repeat 4: a: write rows=3 partition=dt=0; commit\n"
      "repeat 3: b: write rows=1 partition=dt=0; write rows=2 partition=dt=1; commit; commit\n"
      "repeat 2: a: write rows=1 keys=5..6 partition=dt=0; commit\n"    // given keys: expanded
      "repeat 2: b.x: write rows=1 partition=dt=1; commit\n"            // a label: expanded
      "repeat 2: a: write rows=1 partition=dt=0; checkpoint name=cp\n"  // another op: expanded
      "a: restart\n"
      "repeat 5: a: write rows=1 partition=dt=1; commit\n"
      "b: write rows=4 partition=dt=0; commit\n";
  Result<Scenario> lazy = ParseScenario(text, "t.scn");
  Result<Scenario> eager = ParseScenario(text, "t.scn", {.lazy_repeats = false});
  ASSERT_TRUE(lazy.ok()) << lazy.status().message();
  ASSERT_TRUE(eager.ok()) << eager.status().message();
  for (size_t w = 0; w < 2; ++w) {
    const StepList& l = lazy->writers[w].steps;
    const StepList& e = eager->writers[w].steps;
    ASSERT_EQ(l.size(), e.size());
    size_t i = 0;
    for (const Step& step : l) {  // the range-for reads as [i] does
      const Step want = e[i];
      SCOPED_TRACE(::testing::Message() << "writer " << w << " step " << i);
      EXPECT_EQ(step.pos, want.pos);
      EXPECT_EQ(step.label, want.label);
      EXPECT_EQ(step.iteration, want.iteration);
      EXPECT_EQ(OpName(step.op), OpName(want.op));
      if (const auto* x = OpIf<WriteOp>(step.op)) {
        const auto y = OpAs<WriteOp>(want.op);
        EXPECT_EQ(std::tie(x->rows, x->min_key, x->max_key, x->partition, x->bucket),
                  std::tie(y.rows, y.min_key, y.max_key, y.partition, y.bucket));
      }
      if (const auto* x = OpIf<CommitOp>(step.op)) {
        const auto y = OpAs<CommitOp>(want.op);
        EXPECT_EQ(std::tie(x->identifier, x->checkpoint), std::tie(y.identifier, y.checkpoint));
      }
      ++i;
    }
    EXPECT_EQ(i, e.size());
    auto is_restart = [](const Op& op) { return OpIs<RestartOp>(op); };
    for (size_t from = 0; from <= e.size(); ++from) {
      size_t want = from;
      while (want < e.size() && !is_restart(e[want].op)) ++want;
      EXPECT_EQ(l.NextWhere(from, is_restart), want) << "from " << from;
    }
  }
  // The last iteration of the first held line: keys after the 2 rows before it and 3 x 3 rows.
  const Step last = lazy->writers[0].steps[7];
  EXPECT_EQ(last.iteration, 4);
  EXPECT_EQ(OpAs<WriteOp>(last.op).min_key, 12);
}

TEST(ParserTest, OrderChainsAndForwardReferences) {
  Scenario s = MustParse(std::string(kHeader) +
                         "order a.x -> b.y -> a.z\n"
                         "a.x: write; commit\n"
                         "b.y: commit\n"
                         "a.z: commit\n");
  ASSERT_EQ(s.order.size(), 2u);
  EXPECT_EQ(s.order[0].text, "a.x -> b.y");
  EXPECT_EQ(s.order[0].before, (StepRef{0, 1}));
  EXPECT_EQ(s.order[0].after, (StepRef{1, 0}));
  EXPECT_EQ(s.order[1].text, "b.y -> a.z");
  EXPECT_EQ(s.order[1].before, (StepRef{1, 0}));
  EXPECT_EQ(s.order[1].after, (StepRef{0, 2}));
  EXPECT_EQ(s.order[1].pos, (SourcePos{5, 14}));
}

TEST(ParserTest, SettingsRetrySchedSeedFaultsLatency) {
  Scenario s = MustParse(std::string(kHeader) +
                         "retry paimon retries=3 base=5ms\n"
                         "sched pct depth=4\n"
                         "seed 18446744073709551615\n"
                         "idempotency-check off\n"
                         "fault job-B:publish.after:nth=1:unknown\n"
                         "fault \"*:publish.before:p=0.1:error\"\n"
                         "latency publish=uniform:1,5\n"
                         "latency \"publish=normal:10,2;read-latest=const:1\"\n");
  ASSERT_TRUE(s.retry.has_value());
  EXPECT_EQ(s.retry->spec, "paimon:retries=3,base=5ms");
  EXPECT_EQ(s.retry->policy.max_retries, 3);
  EXPECT_EQ(s.retry->policy.base_micros, 5000);
  EXPECT_EQ(s.retry->pos, (SourcePos{5, 7}));
  EXPECT_EQ(s.sched->kind, SchedKind::kPct);
  EXPECT_EQ(s.sched->pct_depth, 4);
  EXPECT_EQ(*s.seed, UINT64_MAX);
  EXPECT_FALSE(s.idempotency_check);
  ASSERT_EQ(s.faults.size(), 2u);
  EXPECT_EQ(s.faults[0].pos, (SourcePos{9, 7}));
  EXPECT_EQ(s.faults[1].text, "*:publish.before:p=0.1:error");
  EXPECT_EQ(s.faults[1].pos, (SourcePos{10, 8}));  // inside the quotes
  ASSERT_EQ(s.latencies.size(), 2u);
  EXPECT_EQ(s.latencies[0].text, "publish=uniform:1,5");
  EXPECT_EQ(s.latencies[1].text, "publish=normal:10,2;read-latest=const:1");
  EXPECT_EQ(s.latencies[1].pos, (SourcePos{12, 10}));

  Scenario spec = MustParse(std::string(kHeader) + "retry paimon:retries=3,base=5ms\n");
  EXPECT_EQ(spec.retry->policy.max_retries, s.retry->policy.max_retries);
  EXPECT_EQ(spec.retry->policy.base_micros, s.retry->policy.base_micros);
}

template <typename T>
const T& Body(const Scenario& s, size_t i) {
  return std::get<T>(s.expectations.at(i).body);
}

TEST(ParserTest, ExpectationKinds) {
  Scenario s = MustParse(std::string(kHeader) +
                         "a.c1: write; commit\n"
                         "expect snapshot 5 kind=COMPACT user=a identifier=1 total=3 delta=-2   # note\n"
                         "expect latest-snapshot >= 6\n"
                         "expect per-user a=30 b=0\n"
                         "expect tally atomic_failures 18..25\n"
                         "expect writer b refused \"File deletion conflicts detected!\"\n"
                         "expect writer a gave-up\n"
                         "expect writer a conflicts <= 1\n"
                         "expect step a.c1 committed == 1\n"
                         "expect step a.c1 crashed \"simulated crash\"\n"
                         "expect some-writer gave-up \"Commit failed after\"\n"
                         "expect invariant-violation duplicate\n"
                         "expect writer a ok\n");
  ASSERT_EQ(s.expectations.size(), 12u);
  EXPECT_EQ(s.expectations[0].text, "expect snapshot 5 kind=COMPACT user=a identifier=1 total=3 delta=-2");
  EXPECT_EQ(s.expectations[0].pos, (SourcePos{6, 1}));
  const auto& snap = Body<SnapshotExpect>(s, 0);
  EXPECT_EQ(snap.id, 5);
  EXPECT_EQ(snap.kind, CommitKind::kCompact);
  EXPECT_EQ(snap.user, "a");
  EXPECT_EQ(snap.identifier, 1);
  EXPECT_EQ(snap.total_records, 3);
  EXPECT_EQ(snap.delta_records, -2);
  EXPECT_EQ(Body<LatestSnapshotExpect>(s, 1).value, (Comparison{CmpOp::kGe, 6, 0}));
  EXPECT_EQ(Body<PerUserExpect>(s, 2).snapshots, (std::map<std::string, int64_t>{{"a", 30}, {"b", 0}}));
  EXPECT_EQ(Body<TallyExpect>(s, 3).counter, Counter::kAtomicFailures);
  EXPECT_EQ(Body<TallyExpect>(s, 3).value, (Comparison{CmpOp::kRange, 18, 25}));
  const auto& refused = Body<OutcomeExpect>(s, 4);
  EXPECT_EQ(refused.subject, Subject::kWriter);
  EXPECT_EQ(refused.writer, 1u);
  EXPECT_EQ(refused.outcome, Outcome::kRefused);
  EXPECT_EQ(refused.message, "File deletion conflicts detected!");
  EXPECT_EQ(Body<OutcomeExpect>(s, 5).outcome, Outcome::kGaveUp);
  EXPECT_EQ(Body<OutcomeExpect>(s, 5).message, "");
  EXPECT_EQ(Body<CounterExpect>(s, 6).counter, Counter::kConflicts);
  EXPECT_EQ(Body<CounterExpect>(s, 6).value, (Comparison{CmpOp::kLe, 1, 0}));
  const auto& step = Body<CounterExpect>(s, 7);
  EXPECT_EQ(step.subject, Subject::kStep);
  EXPECT_EQ(step.writer, 0u);
  EXPECT_EQ(step.first_step, 0u);
  EXPECT_EQ(step.last_step, 1u);
  EXPECT_EQ(step.value, (Comparison{CmpOp::kEq, 1, 0}));
  EXPECT_EQ(Body<OutcomeExpect>(s, 8).subject, Subject::kStep);
  EXPECT_EQ(Body<OutcomeExpect>(s, 8).last_step, 1u);
  EXPECT_EQ(Body<OutcomeExpect>(s, 8).outcome, Outcome::kCrashed);
  EXPECT_EQ(Body<OutcomeExpect>(s, 9).subject, Subject::kSomeWriter);
  EXPECT_EQ(Body<InvariantExpect>(s, 10).violation, "duplicate");
  EXPECT_EQ(Body<OutcomeExpect>(s, 11).outcome, Outcome::kOk);
}

TEST(ParserTest, ComparisonForms) {
  struct Case {
    std::string text;
    Comparison want;
  };
  for (const Case& c : std::vector<Case>{{"5", {CmpOp::kEq, 5, 0}},
                                         {"==5", {CmpOp::kEq, 5, 0}},
                                         {"== 5", {CmpOp::kEq, 5, 0}},
                                         {">=1", {CmpOp::kGe, 1, 0}},
                                         {"<= 9", {CmpOp::kLe, 9, 0}},
                                         {"0..0", {CmpOp::kRange, 0, 0}}}) {
    Scenario s = MustParse(std::string(kHeader) + "expect latest-snapshot " + c.text + "\n");
    ASSERT_EQ(s.expectations.size(), 1u) << c.text;
    EXPECT_EQ(Body<LatestSnapshotExpect>(s, 0).value, c.want) << c.text;
  }
  const Comparison range{CmpOp::kRange, 18, 25};
  EXPECT_TRUE(range.Matches(18));
  EXPECT_TRUE(range.Matches(25));
  EXPECT_FALSE(range.Matches(26));
  EXPECT_FALSE((Comparison{CmpOp::kGe, 1, 0}).Matches(0));
  EXPECT_TRUE((Comparison{CmpOp::kLe, 1, 0}).Matches(0));
  EXPECT_EQ(range.ToString(), "18..25");
  EXPECT_EQ((Comparison{CmpOp::kGe, 1, 0}).ToString(), ">= 1");
}

TEST(ParserTest, NamesAndWhere) {
  Scenario s = MustParse(std::string(kHeader));
  EXPECT_EQ(s.Where({12, 3}), "t.scn:12:3");
  EXPECT_EQ(s.Where({12, 0}), "t.scn:12");
  EXPECT_EQ(CounterName(Counter::kOrphanFiles), "orphan_files");
  EXPECT_EQ(OutcomeName(Outcome::kGaveUp), "gave-up");
  EXPECT_EQ(ProtocolName(Protocol::kDelta), "delta");
  EXPECT_EQ(SchedKindName(SchedKind::kRoundRobin), "round-robin");
  EXPECT_EQ(s.FindWriter("b"), 1u);
  EXPECT_FALSE(s.FindWriter("c").has_value());
}

// ---------------------------------------------------------------------------------------------
// Files

TEST(LoadScenarioFileTest, MissingFileNamesThePath) {
  Result<Scenario> r = LoadScenarioFile("/nonexistent/dir/x.scn");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "cannot open scenario file \"/nonexistent/dir/x.scn\"");
}

TEST(LoadScenarioFileTest, DirectoryIsRefused) {
  Result<Scenario> r = LoadScenarioFile(ScenarioDir().string());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "cannot read scenario file \"" + ScenarioDir().string() + "\" (a directory)");
}

TEST(LoadScenarioFileTest, ErrorsArePrefixedWithThePath) {
  const std::string path = ::testing::TempDir() + "bad_scenario_test.scn";
  {
    std::ofstream out(path, std::ios::binary);
    out << kHeader << "a: write bukets=1\n";
  }
  Result<Scenario> r = LoadScenarioFile(path);
  std::remove(path.c_str());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), path +
                                      ":5:10: unknown key \"bukets\" for step write (expected one of rows, keys, "
                                      "partition, bucket)");
}

// ---------------------------------------------------------------------------------------------
// Malformed input: one case per mistake, with its exact message.

struct BadCase {
  std::string name;
  std::string text;
  std::string message;
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

class MalformedTest : public ::testing::TestWithParam<BadCase> {};

TEST_P(MalformedTest, ExactMessage) { EXPECT_EQ(ErrorOf(GetParam().text), GetParam().message); }

std::string H(std::string_view lines) { return std::string(kHeader) + std::string(lines); }
const std::string kT = "title \"t\"\n";

const std::vector<BadCase>& BadCases() {
  static const std::vector<BadCase> cases = {
      {"UnknownDirective", H("tabel name=x\n"),
       "t.scn:5:1: unknown directive \"tabel\" (expected one of title, title.zh, claim, claim.zh, source, table, writer, "
       "order, fault, latency, retry, idempotency-check, sched, seed, store, repeat, expect, or a step line WRITER: STEP)"},
      {"UnknownTableKey", kT + "table name=T protocol=paimon bukets=2\n",
       "t.scn:2:30: unknown key \"bukets\" for directive table (expected one of name, protocol, primary-key, "
       "partitions, buckets, levels, ignore-empty-commit, isolation, flavour, catalog)"},
      {"MissingRequiredKey", kT + "table name=T\n", "t.scn:2:1: missing required key \"protocol\" for directive table"},
      {"DuplicateKey", kT + "table name=T protocol=paimon name=U\n",
       "t.scn:2:30: duplicate key \"name\" for directive table"},
      {"PositionalArgument", kT + "table foo\n", "t.scn:2:7: expected key=value for directive table, got \"foo\""},
      {"MissingValue", kT + "table name= protocol=paimon\n", "t.scn:2:12: missing value for key \"name\""},
      {"BadProtocol", kT + "table name=T protocol=hudi\n",
       "t.scn:2:23: expected one of paimon, iceberg, delta for key \"protocol\", got \"hudi\""},
      {"NotANumber", kT + "table name=T protocol=paimon buckets=two\n",
       "t.scn:2:38: expected an integer for key \"buckets\", got \"two\""},
      {"NumberOutOfRange", kT + "table name=T protocol=paimon buckets=0\n",
       "t.scn:2:38: key \"buckets\" must be between 1 and 1024, got 0"},
      {"NumberOverflow", kT + "table name=T protocol=paimon buckets=99999999999999999999\n",
       "t.scn:2:38: key \"buckets\" must be between 1 and 1024, got 99999999999999999999"},
      {"BadBool", kT + "table name=T protocol=paimon primary-key=yes\n",
       "t.scn:2:42: expected true or false for key \"primary-key\", got \"yes\""},
      {"DuplicateTable", kT + "table name=T protocol=paimon\ntable name=T protocol=delta\n",
       "t.scn:3:12: table \"T\" is already declared at line 2"},
      {"UnterminatedQuote", "title \"Two jobs\n",
       "t.scn:1:7: unterminated quoted string (expected a closing \" on the same line)"},
      {"BadEscape", "title \"a\\q\"\n", "t.scn:1:9: unknown escape in quoted string (expected \\\" or \\\\)"},
      {"QuoteInsideWord", "title a\"b\"\n",
       "t.scn:1:8: unexpected '\"' inside a word (quote a whole value: key=\"...\")"},
      {"NoSpaceAfterQuote", "title \"a\"b\n", "t.scn:1:10: expected a space after the closing quote"},
      {"UnquotedTitle", "title Two\n", "t.scn:1:7: expected a quoted title, e.g. title \"Two jobs race\", got Two"},
      {"ControlCharacter", H("a: write\x01\n"), "t.scn:5:9: unexpected control character 0x01"},
      {"NulByte", H(std::string_view("a: \0write\n", 10)), "t.scn:5:4: unexpected control character 0x00"},
      {"LineTooLong", H("# " + std::string(5000, 'x') + "\n"),
       "t.scn:5:1: line is too long: 5002 bytes (at most 4096)"},
      {"MissingTitle", "table name=T protocol=paimon\nwriter name=a\n",
       "t.scn:1:1: missing title (add a line such as: title \"Two jobs race\")"},
      {"NoWriter", kT + "table name=T protocol=paimon\n",
       "t.scn:1:1: no writer is declared (add a line such as: writer name=job-A)"},
      {"WriterBeforeTable", kT + "writer name=a\n",
       "t.scn:2:1: no table is declared yet (declare a table before its writers)"},
      {"WriterTableAmbiguous", kT + "table name=T protocol=paimon\ntable name=U protocol=paimon\nwriter name=a\n",
       "t.scn:4:1: missing required key \"table\" for directive writer (2 tables are declared)"},
      {"WriterUnknownTable", kT + "table name=T protocol=paimon\nwriter name=a table=X\n",
       "t.scn:3:21: table \"X\" is not declared"},
      {"DuplicateWriter", H("writer name=a\n"), "t.scn:5:13: writer \"a\" is already declared at line 3"},
      {"InvalidWriterName", kT + "table name=T protocol=paimon\nwriter name=a.b\n",
       "t.scn:3:13: invalid writer name \"a.b\" (expected letters, digits, '-' and '_', not starting with '-', at "
       "most 64 bytes)"},
      {"StepBeforeWriter", kT + "table name=T protocol=paimon\nc: write\nwriter name=c\n",
       "t.scn:3:1: writer \"c\" is not declared (declare it with a writer line before its steps)"},
      {"MissingColonAfterWriter", H("a write\n"),
       "t.scn:5:2: expected ':' after writer name \"a\" (a step line is WRITER: STEP ...)"},
      {"UnknownStep", H("a: comit\n"),
       "t.scn:5:4: unknown step \"comit\" (expected one of write, commit, compact, checkpoint, filter-and-commit, "
       "delete-data-files, restart)"},
      {"WriteBucketAboveTheWritersCount",
       kT + "table name=T protocol=paimon buckets=4\nwriter name=a buckets=2\na: write bucket=2\n",
       "t.scn:4:17: key \"bucket\" must be between 0 and 1, got 2"},
      {"WriterBucketsOnIceberg", kT + "table name=T protocol=iceberg\nwriter name=a buckets=2\n",
       "t.scn:3:15: key \"buckets\" applies to writers of paimon tables only, not to iceberg table T"},
      {"StrictModeBelowMinusOne",
       kT + "table name=T protocol=paimon\nwriter name=a strict-mode-last-safe-snapshot=-2\n",
       "t.scn:3:46: key \"strict-mode-last-safe-snapshot\" must be between -1 and 1000000000000000, got -2"},
      {"DeleteDataFilesOfAnUnsavedCheckpoint", H("a: delete-data-files checkpoints=nope\n"),
       "t.scn:5:34: checkpoint \"nope\" is not saved by an earlier step"},
      {"UnknownStepKey", H("a: write row=1\n"),
       "t.scn:5:10: unknown key \"row\" for step write (expected one of rows, keys, partition, bucket)"},
      {"EmptyStep", H("a:\n"), "t.scn:5:3: expected a step after ':'"},
      {"EmptyStepAfterSemicolon", H("a: write;\n"), "t.scn:5:10: expected a step after ';'"},
      {"SemicolonInDirective", H("seed 1; seed 2\n"),
       "t.scn:5:7: unexpected \";\" (only step lines hold several steps)"},
      {"BucketOutOfRange", H("a: write bucket=2\n"), "t.scn:5:17: key \"bucket\" must be between 0 and 1, got 2"},
      {"RowsZero", H("a: write rows=0\n"), "t.scn:5:15: key \"rows\" must be between 1 and 1000000000, got 0"},
      {"BadKeyRange", H("a: write keys=5\n"), "t.scn:5:15: expected a range LO..HI for key \"keys\", got \"5\""},
      {"EmptyKeyRange", H("a: write keys=9..1\n"),
       "t.scn:5:15: range 9..1 for key \"keys\" is empty (LO must not exceed HI)"},
      {"PartitionOnUnpartitionedTable", H("a: write partition=dt=1\n"),
       "t.scn:5:10: table T is not partitioned (remove key \"partition\")"},
      {"MissingPartition", kT + "table name=P protocol=paimon partitions=dt\nwriter name=a\na: write\n",
       "t.scn:4:4: missing required key \"partition\" for step write (table P is partitioned: partition=dt=VALUE)"},
      {"BadPartition", kT + "table name=P protocol=paimon partitions=dt,hr\nwriter name=a\na: write partition=dt=1\n",
       "t.scn:4:20: bad partition \"dt=1\" for table P (expected dt=VALUE/hr=VALUE)"},
      {"CompactMissingTo", H("a: compact from=0\n"), "t.scn:5:4: missing required key \"to\" for step compact"},
      {"CompactDown", H("a: compact from=3 to=1\n"),
       "t.scn:5:22: compaction cannot move files down: key \"to\" (1) is below key \"from\" (3)"},
      {"CompactLevelOutOfRange", H("a: compact from=0 to=6\n"),
       "t.scn:5:22: key \"to\" must be between 1 and 5, got 6"},
      {"CompactBadFiles", H("a: compact from=0 to=1 files=x\n"),
       "t.scn:5:30: expected all or file indexes like 0,1 for key \"files\", got \"x\""},
      {"CompactFileTwice", H("a: compact from=0 to=1 files=0,1,0\n"), "t.scn:5:34: file index 0 listed twice"},
      {"CommitIdentifierAndCheckpoint", H("a: checkpoint name=cp\na: commit identifier=1 checkpoint=cp\n"),
       "t.scn:6:24: step commit takes identifier or checkpoint, not both"},
      {"RestartTakesNoArguments", H("a: restart now\n"),
       "t.scn:5:12: unexpected \"now\" after restart (it takes no arguments)"},
      {"UndefinedCheckpoint", H("a: filter-and-commit checkpoints=cp9\n"),
       "t.scn:5:34: checkpoint \"cp9\" is not saved by an earlier step"},
      {"CheckpointUsedBeforeSaved", H("a: commit checkpoint=cp\na: checkpoint name=cp\n"),
       "t.scn:5:22: checkpoint \"cp\" is not saved by an earlier step"},
      {"CheckpointInRepeatNeedsIndex", H("repeat 2: a: checkpoint name=cp\nb: commit checkpoint=cp\n"),
       "t.scn:6:22: checkpoint \"cp\" is not saved by an earlier step (it is saved inside a repeat: use cp[1], cp[2], "
       "...)"},
      {"DuplicateCheckpoint", H("a: checkpoint name=cp\nb: checkpoint name=cp\n"),
       "t.scn:6:20: checkpoint \"cp\" is already saved at line 5"},
      {"CheckpointsNotIncreasing",
       H("a: checkpoint name=c1 identifier=5\na: checkpoint name=c2 identifier=3\n"
         "a: filter-and-commit checkpoints=c1,c2\n"),
       "t.scn:7:37: checkpoints must have strictly increasing identifiers: \"c2\" (3) follows \"c1\" (5)"},
      {"DuplicateLabel", H("a.x: commit\na.x: write\n"),
       "t.scn:6:3: writer \"a\" already has a step labelled \"x\" (line 5)"},
      {"RepeatCountZero", H("repeat 0: a: commit\n"),
       "t.scn:5:8: the repeat count must be between 1 and 100000, got 0"},
      {"RepeatCountNotANumber", H("repeat many: a: commit\n"),
       "t.scn:5:8: expected an integer for the repeat count, got \"many\""},
      {"RepeatMissingColon", H("repeat 30 a: commit\n"),
       "t.scn:5:10: expected ':' right after the repeat count, e.g. repeat 30: job-A: write rows=1; commit"},
      {"RepeatOfDirective", H("repeat 2: seed 1\n"),
       "t.scn:5:11: repeat applies to a step line WRITER: STEP ..., got \"seed\""},
      {"TooManySteps", H("repeat 60000: a: write; commit\n"),
       "t.scn:5:8: too many steps: 120000 after expanding repeats (at most 100000)"},
      {"TooManyStepsOverLines", H("repeat 100000: a: commit\nb: commit\n"),
       "t.scn:6:1: too many steps: 100001 after expanding repeats (at most 100000)"},
      {"OrderUndefinedWriter", H("a.x: commit\norder a.x -> c.y\n"), "t.scn:6:14: writer \"c\" is not declared"},
      {"OrderUndefinedLabel", H("a.x: commit\norder a.x -> b.y\n"),
       "t.scn:6:14: writer \"b\" has no step labelled \"y\""},
      {"OrderLabelInsideRepeat", H("repeat 2: a.c: commit\nb.x: commit\norder a.c -> b.x\n"),
       "t.scn:7:7: writer \"a\" has no step labelled \"c\" (it labels a line inside a repeat: use c[1], c[2], ...)"},
      {"OrderMissingArrow", H("a.x: commit\nb.y: commit\norder a.x b.y\n"),
       "t.scn:7:11: expected \"->\" after \"a.x\", got \"b.y\" (e.g. order job-1.c1 -> job-2.c2)"},
      {"OrderDanglingArrow", H("a.x: commit\norder a.x ->\n"), "t.scn:6:13: expected a step WRITER.LABEL after \"->\""},
      {"OrderBadReference", H("order ax -> b.y\n"), "t.scn:5:7: expected a step reference WRITER.LABEL, got \"ax\""},
      {"OrderCycle", H("a.x: commit\na.y: commit\nb.p: commit\nb.q: commit\norder a.y -> b.p\norder b.q -> a.x\n"),
       "t.scn:9:7: order constraints form a cycle with the writers' step order, so no writer could go on: "
       "a.y -> b.p (line 9), b.q -> a.x (line 10)"},
      {"OrderSelfCycle", H("a.x: commit\norder a.x -> a.x\n"),
       "t.scn:6:7: order constraints form a cycle with the writers' step order, so no writer could go on: "
       "a.x -> a.x (line 6)"},
      {"OrderBackwardsInOneWriter", H("a.x: commit\na.y: commit\norder a.y -> a.x\n"),
       "t.scn:7:7: order constraints form a cycle with the writers' step order, so no writer could go on: "
       "a.y -> a.x (line 7)"},
      {"DuplicateSeed", H("seed 1\nseed 2\n"), "t.scn:6:1: duplicate directive seed (first given at line 5)"},
      {"SeedNotANumber", H("seed -1\n"), "t.scn:5:6: expected an integer for the seed, got \"-1\""},
      {"SeedTooLarge", H("seed 18446744073709551616\n"),
       "t.scn:5:6: the seed must be between 0 and 18446744073709551615, got 18446744073709551616"},
      {"UnknownSched", H("sched lottery\n"),
       "t.scn:5:7: expected one of random, pct, round-robin, free for sched, got \"lottery\""},
      {"SchedKeyForRandom", H("sched random depth=3\n"), "t.scn:5:14: unexpected \"depth=3\" after sched random"},
      {"BadIdempotencyCheck", H("idempotency-check yes\n"),
       "t.scn:5:19: expected one of on, off for idempotency-check, got \"yes\""},
      {"FaultWithoutSpec", H("fault\n"), "t.scn:5:6: expected a fault spec WRITER:POINT:TRIGGER:EFFECT after fault"},
      {"FaultTwoSpecs", H("fault a:publish.after:nth=1:unknown b:x\n"),
       "t.scn:5:37: unexpected \"b:x\" after fault a:publish.after:nth=1:unknown"},
      {"RetryWithoutPolicy", H("retry\n"),
       "t.scn:5:6: expected a retry policy after retry, e.g. retry paimon:retries=10 or retry paimon retries=10"},
      {"UnknownExpectation", H("expect snapshots 3\n"),
       "t.scn:5:8: unknown expectation \"snapshots\" (expected one of snapshot, latest-snapshot, per-user, tally, "
       "writer, step, some-writer, invariant-violation, counter)"},
      {"CommitOverwriteUnknownKey", H("a: commit overwrite=day=1\n"),
       "t.scn:5:21: bad overwrite target \"day=1\" (table T is not partitioned, so only overwrite=all)"},
      {"CommitIgnoreEmptyNotABool", H("a: commit ignore-empty-commit=no\n"),
       "t.scn:5:31: expected true or false for key \"ignore-empty-commit\", got \"no\""},
      {"CommitCheckAppendFilesNotABool", H("a: commit check-append-files=yes\n"),
       "t.scn:5:30: expected true or false for key \"check-append-files\", got \"yes\""},
      {"ExpectSnapshotIdZero", H("expect snapshot 0\n"),
       "t.scn:5:17: the snapshot id must be between 1 and 1000000000000000, got 0"},
      {"ExpectSnapshotBadKind", H("expect snapshot 5 kind=compact\n"),
       "t.scn:5:24: expected one of APPEND, COMPACT, OVERWRITE for key \"kind\", got \"compact\""},
      {"ExpectSnapshotUnknownUser", H("expect snapshot 5 user=zed\n"), "t.scn:5:24: no writer has commit user \"zed\""},
      {"ExpectBadComparison", H("expect latest-snapshot ~5\n"),
       "t.scn:5:24: expected a comparison (N, == N, >= N, <= N or LO..HI), got \"~5\""},
      {"ExpectMissingComparison", H("expect latest-snapshot\n"),
       "t.scn:5:23: expected a comparison (N, == N, >= N, <= N or LO..HI) after expect latest-snapshot"},
      {"ExpectOperatorWithoutNumber", H("expect latest-snapshot >=\n"), "t.scn:5:26: expected a number after \">=\""},
      {"ExpectEmptyRange", H("expect tally conflicts 9..1\n"),
       "t.scn:5:24: range 9..1 for the comparison is empty (LO must not exceed HI)"},
      {"ExpectUnknownCounter", H("expect tally conflict 1\n"),
       "t.scn:5:14: expected one of committed, attempts, atomic_failures, conflicts, unknown_outcomes, "
       "idempotent_matches, gave_up, orphan_files for the counter, got \"conflict\""},
      {"ExpectTrailingToken", H("expect tally conflicts 1 2\n"), "t.scn:5:26: unexpected \"2\" after the comparison"},
      {"ExpectPerUserUnknownUser", H("expect per-user a=1 zed=2\n"), "t.scn:5:21: no writer has commit user \"zed\""},
      {"ExpectPerUserTwice", H("expect per-user a=1 a=2\n"), "t.scn:5:21: user \"a\" listed twice"},
      {"ExpectWriterUndeclared", H("expect writer zed ok\n"), "t.scn:5:15: writer \"zed\" is not declared"},
      {"ExpectWriterUnknownOutcome", H("expect writer a failed\n"),
       "t.scn:5:17: unknown outcome or counter \"failed\" for expect writer (expected one of ok, refused, gave-up, "
       "crashed, committed, attempts, atomic_failures, conflicts, unknown_outcomes, idempotent_matches, gave_up, "
       "orphan_files)"},
      {"ExpectRefusedUnquoted", H("expect writer a refused File\n"),
       "t.scn:5:25: expected a quoted message after refused, got \"File\""},
      {"ExpectOkWithMessage", H("expect writer a ok \"x\"\n"), "t.scn:5:20: unexpected \"x\" after ok"},
      {"ExpectStepCounterNotCommitted", H("a.c: commit\nexpect step a.c attempts 1\n"),
       "t.scn:6:17: unknown outcome or counter \"attempts\" for expect step (expected one of ok, refused, gave-up, "
       "crashed, committed, returned)"},
      {"ExpectStepUndefinedLabel", H("expect step a.nope committed 1\n"),
       "t.scn:5:13: writer \"a\" has no step labelled \"nope\""},
      {"ExpectSomeWriterCounter", H("expect some-writer committed 1\n"),
       "t.scn:5:20: unknown outcome \"committed\" for expect some-writer (expected one of ok, refused, gave-up, "
       "crashed)"},
      {"ExpectUnknownInvariant", H("expect invariant-violation dup\n"),
       "t.scn:5:28: unknown invariant violation \"dup\" (expected one of lost, duplicate, failed_visible, misplaced, "
       "gap, duplicate_id, fork, delete_not_live, add_live, lost_update, missing_file)"},
  };
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Parser, MalformedTest, ::testing::ValuesIn(BadCases()),
                         [](const ::testing::TestParamInfo<BadCase>& p) { return p.param.name; });

TEST(MalformedRetryTest, PolicyErrorIsMappedToTheLine) {
  const std::string m = ErrorOf(H("retry paimon:retries=x\n"));
  EXPECT_THAT(m, StartsWith("t.scn:5:7: retry policy \"paimon:retries=x\": "));
  EXPECT_THAT(m, HasSubstr("retries"));
  EXPECT_THAT(ErrorOf(H("retry paimon retries=1 cap=nope\n")),
              StartsWith("t.scn:5:7: retry policy \"paimon:retries=1,cap=nope\": "));
  EXPECT_THAT(ErrorOf(H("retry \"lottery\"\n")), StartsWith("t.scn:5:8: retry policy \"lottery\": "));
  EXPECT_EQ(ErrorOf(H("retry paimon:retries=1 cap=5s\n")), "t.scn:5:24: unexpected \"cap=5s\" after the retry spec");
  EXPECT_EQ(ErrorOf(H("retry paimon\nretry none\n")), "t.scn:6:1: duplicate directive retry (first given at line 5)");
}

// The parser must stay total on arbitrary bytes: mutate the example files with a seeded
// generator (a tiny stand-in for the libFuzzer target, run on every test build).
TEST(ParserRobustnessTest, MutatedExamplesNeverCrash) {
  std::vector<std::string> seeds;
  for (const auto& entry : std::filesystem::directory_iterator(ScenarioDir())) {
    if (entry.path().extension() != ".scn") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    seeds.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  ASSERT_FALSE(seeds.empty());
  std::mt19937_64 rng(20240607);
  const std::string alphabet = " \t\n\r\"\\#;:.=->[]0123456789abcxyz-_,\x01\x80";
  int ok = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = seeds[rng() % seeds.size()];
    const int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0: text[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: text.erase(at, 1 + rng() % 16); break;
        default: text.insert(at, text.substr(rng() % text.size(), 1 + rng() % 32)); break;
      }
    }
    Result<Scenario> r = Parse(text);
    if (r.ok()) {
      ++ok;
      EXPECT_LE(r->TotalSteps(), kMaxSteps);
    } else {
      EXPECT_THAT(r.status().message(), StartsWith("t.scn:"));
    }
  }
  EXPECT_GT(ok, 0);  // some mutations (comments, spaces) still parse
}

// The documented maximum finishes (race's --writers bound): one writer more is refused where it
// is declared, before anything runs.
TEST(ParserLimitsTest, WritersPastTheLimitAreRefusedAtTheirLine) {
  std::string text = "title \"many\"\ntable name=t protocol=paimon\n";
  for (int i = 0; i <= 1000; ++i) text += "writer name=w" + std::to_string(i) + "\n";
  Result<Scenario> r = Parse(text);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "t.scn:1003:1: too many writers (at most 1000)");
}

}  // namespace
}  // namespace commitlab::scenarios
