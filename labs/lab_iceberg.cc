// `commitlab lab iceberg`: the experiments of seeds 002 and 003 (Iceberg's transactions, lost
// updates, orphans, expiry) run on the Iceberg engine and narrated. Each run is scripted: a
// catalog hook lets the winner's whole commit land between the loser's refresh and its swap, the
// Env's clock moves only when a writer sleeps, and the random stream has a fixed seed, so every
// run prints the same text. Each verdict is computed from the run and compared with the seed.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/iceberg/committer.h"
#include "commitlab/core/iceberg/counter.h"
#include "commitlab/core/iceberg/file_io.h"
#include "commitlab/core/iceberg/maintenance.h"
#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/iceberg/operation.h"
#include "commitlab/core/iceberg/reader.h"
#include "commitlab/core/retry_policy.h"
#include "lab_narration.h"
#include "protocol_labs.h"

namespace commitlab::cli {
namespace {

using iceberg::CommitResult;
using iceberg::Expression;
using iceberg::FileKind;
using iceberg::FileRef;
using iceberg::IcebergCommitter;
using iceberg::IsolationLevel;
using iceberg::MetadataRef;
using iceberg::Operation;
using iceberg::Row;
using iceberg::SnapshotRef;
using iceberg::StoredFile;

constexpr uint64_t kSeed = 5;  // issue 5; any fixed seed gives a fixed text
constexpr int64_t kMinute = 60'000'000;

// A catalog that lets one competing commit land just before the next swap: the winner builds
// from the same metadata as the loser, and the loser's swap then finds the pointer moved.
class RaceCatalog final : public iceberg::InMemoryCatalog {
 public:
  using InMemoryCatalog::InMemoryCatalog;

  void BeforeNextSwap(std::function<void()> hook) { hook_ = std::move(hook); }
  iceberg::CasResult CompareAndSwap(int64_t expected_version, MetadataRef new_metadata) override {
    // One shot, disarmed before it runs: the winner's own swap must not fire it again.
    if (std::function<void()> hook = std::exchange(hook_, nullptr)) hook();
    return InMemoryCatalog::CompareAndSwap(expected_version, std::move(new_metadata));
  }

 private:
  std::function<void()> hook_;
};

// The table's object store, telling the lab about each data file a worker writes (the counter's
// computed values are only visible there).
class NarratedFileIO final : public iceberg::FileIO {
 public:
  void set_on_data(std::function<void(const StoredFile&)> f) { on_data_ = std::move(f); }
  Status Write(StoredFile f) override {
    if (on_data_ && f.kind == FileKind::kData) on_data_(f);
    return inner_.Write(std::move(f));
  }
  Result<FileRef> ReadDataFile(const std::string& path) override { return inner_.ReadDataFile(path); }
  bool Exists(const std::string& path) override { return inner_.Exists(path); }
  Status Delete(const std::string& path) override { return inner_.Delete(path); }
  std::vector<StoredFile> List() override { return inner_.List(); }

 private:
  iceberg::InMemoryFileIO inner_;
  std::function<void(const StoredFile&)> on_data_;
};

// One table and everything around it; every experiment (and every part of one) builds its own.
class IcebergWorld {
 public:
  IcebergWorld(Narration* n, std::string table) : n_(n), catalog_(std::move(table)), sink_(n) {
    sink_.set_after([this](const Event& e) {
      if (e.type == EventType::kPublished) n_->State(IcebergSnapshotLine(*Current()));
    });
  }
  IcebergWorld(const IcebergWorld&) = delete;
  IcebergWorld& operator=(const IcebergWorld&) = delete;

  LabEnv& env() { return env_; }
  NarratedFileIO& io() { return io_; }
  RaceCatalog& catalog() { return catalog_; }

  IcebergCommitter Writer(std::string name, RetryPolicy policy = IcebergDefaultPolicy()) {
    iceberg::IcebergCommitOptions options;
    options.retry = policy;
    return IcebergCommitter(std::move(name), options, &env_, &catalog_, &io_, &sink_);
  }
  // data/[<partition>/]<writer>-<n>.parquet, written to the store as the writer's.
  FileRef Data(const std::string& writer, const std::string& partition, std::vector<Row> rows) {
    const std::string path =
        fmt::format("data/{}{}{}-{}.parquet", partition, partition.empty() ? "" : "/", writer, files_[writer]++);
    FileRef f = iceberg::MakeDataFile(path, std::move(rows), partition);
    // The name is new for this writer, so the write cannot fail.
    (void)io_.Write({.path = path, .kind = FileKind::kData, .written_micros = env_.NowMicros(), .writer = writer,
                     .data = f});
    return f;
  }
  MetadataRef Current() { return *catalog_.Current(); }  // the in-memory catalog never fails
  // `winner` runs its whole commit between `loser`'s refresh and its (next) swap.
  void LandBeforeSwapOf(const std::string& loser, const std::string& winner, std::function<void()> commit) {
    catalog_.BeforeNextSwap([this, loser, winner, commit = std::move(commit)] {
      n_->Step(fmt::format("{}'s commit lands between {}'s refresh and its swap:", winner, loser));
      commit();
    });
  }
  // Live data file paths of the current snapshot.
  std::vector<std::string> LivePaths() {
    std::vector<std::string> out;
    for (const auto& entry : Current()->LiveFiles()) out.push_back(entry.first);
    return out;
  }
  Result<std::vector<Row>> ReadAll() {
    Result<iceberg::PinnedReader> r = iceberg::PinnedReader::Open(&catalog_, &io_, &env_);
    if (!r.ok()) return r.status();
    return r->ReadAll();
  }

 private:
  Narration* const n_;
  LabEnv env_{kSeed};
  NarratedFileIO io_;
  RaceCatalog catalog_;
  EventNarrator sink_;
  std::map<std::string, int> files_;  // data files per writer, for their names
};

Row IdRow(int64_t id) { return Row{{"id", id}}; }

bool Contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

std::string Times(int64_t n) { return n == 1 ? "once" : fmt::format("{} times", n); }

// The retained snapshots form one line: each one's parent is the one before it.
bool OneLine(const iceberg::TableMetadata& m) {
  for (size_t i = 1; i < m.snapshots.size(); ++i)
    if (m.snapshots[i]->parent_id != m.snapshots[i - 1]->snapshot_id) return false;
  return !m.snapshots.empty() && m.snapshots.back()->snapshot_id == m.current_snapshot_id;
}

// "305177… (setup) <- 655729… (writer-a) <- ..." oldest first.
std::string HistoryLine(const iceberg::TableMetadata& m) {
  std::vector<std::string> items;
  for (const SnapshotRef& s : m.snapshots)
    items.push_back(fmt::format("{} ({})", ShortSnapshotId(s->snapshot_id), s->committed_by));
  return Join(items, " <- ");
}

// --- 1. Two appends race ---

Status AppendFirstFile(Narration& n, IcebergWorld& w) {
  n.Step("setup appends the table's first file");
  IcebergCommitter setup = w.Writer("setup");
  return setup.Commit(iceberg::NewAppend(*w.Current(), {w.Data("setup", "", {IdRow(1)})})).status();
}

std::vector<Verdict> RunAppendRace(Narration& n) {
  IcebergWorld w(&n, "db.events");
  if (Status st = AppendFirstFile(n, w); !st.ok()) return {n.SetupFailed("setup", st)};

  IcebergCommitter a = w.Writer("writer-a");
  IcebergCommitter b = w.Writer("writer-b");
  const MetadataRef base = w.Current();
  n.Step(fmt::format("writer-a and writer-b both read v{} (snapshot {}) and each write one data file", base->version,
                     ShortSnapshotId(base->current_snapshot_id)));
  const Operation op_a = iceberg::NewAppend(*base, {w.Data("writer-a", "", {IdRow(2)})});
  const Operation op_b = iceberg::NewAppend(*base, {w.Data("writer-b", "", {IdRow(3)})});
  Status a_status;
  w.LandBeforeSwapOf("writer-b", "writer-a", [&] { a_status = a.Commit(op_a).status(); });
  n.Step("writer-b commits its append (MergeAppend)");
  Result<CommitResult> rb = b.Commit(op_b);

  const MetadataRef m = w.Current();
  n.Step(fmt::format("history, oldest first: {}", HistoryLine(*m)));
  const std::vector<std::string> live = w.LivePaths();
  const bool both_live = Contains(live, op_a.files_to_add[0]->path()) && Contains(live, op_b.files_to_add[0]->path());
  const bool one_line = OneLine(*m);
  std::string observed;
  if (rb.ok()) {
    observed = fmt::format(
        "writer-b lost the swap v{} -> v{} {}, re-applied on top of writer-a's snapshot and committed v{}; {} "
        "snapshots {}; {} live files, both appends among them",
        base->version, base->version + 1, Times(b.stats().atomic_failures), rb->committed->version,
        m->snapshots.size(), one_line ? "form one line (each the parent of the next)" : "do NOT form one line",
        live.size());
  } else {
    observed = fmt::format("writer-b failed: {}", FirstLines(rb.status().message(), 1).front());
  }
  return {n.Judge({.observed = observed,
                    .as_seed = a_status.ok() && rb.ok() && b.stats().atomic_failures == 1 && one_line && both_live,
                    .claim = "the loser re-applies its append on the new state and the snapshots form one line",
                    .source = "seed 003"})};
}

// --- 2. Retries set to 0 ---

// "data 1, metadata 1" for the files at `paths`, by kind.
std::string KindCounts(const std::vector<std::string>& paths, const std::vector<StoredFile>& stored) {
  std::map<std::string, int> counts;
  for (const StoredFile& f : stored)
    if (Contains(paths, f.path)) ++counts[std::string(iceberg::FileKindName(f.kind))];
  std::vector<std::string> items;
  for (const auto& [kind, count] : counts) items.push_back(fmt::format("{} {}", kind, count));
  return items.empty() ? "none" : Join(items);
}

// What the writer's own cleanup (cleanAll) left of the files it wrote.
void NarrateCleanAll(Narration& n, IcebergWorld& w, const IcebergCommitter& writer) {
  const std::vector<StoredFile> stored = w.io().List();
  int64_t manifests_left = 0;
  std::vector<std::string> left;
  for (const StoredFile& f : stored) {
    if (f.writer != writer.writer()) continue;
    left.push_back(f.path);
    manifests_left += f.kind == FileKind::kManifest || f.kind == FileKind::kManifestList ? 1 : 0;
  }
  const int64_t written = writer.stats().manifests_written;
  n.Step(fmt::format("{}'s cleanup deleted {} of the {} manifests and manifest lists it wrote; its files left: {}",
                     writer.writer(), written - manifests_left, written, KindCounts(left, stored)));
}

struct OrphanCleanup {
  std::vector<std::string> orphans = {};  // before the cleanup
  std::string orphan_kinds = {};          // "data 1, metadata 1"
  size_t removed = 0;
  size_t left = 0;       // orphans after the cleanup
  size_t reachable = 0;  // files the table reaches that the store held before the cleanup
  size_t intact = 0;     // ... and still holds after it
  bool reads = false;    // the current snapshot reads whole
};

// Counts the orphans, runs remove_orphan_files, and checks that every reachable file survived.
Result<OrphanCleanup> CleanOrphans(Narration& n, IcebergWorld& w) {
  OrphanCleanup c;
  const std::vector<StoredFile> stored = w.io().List();
  c.orphans = iceberg::FindOrphanFiles(*w.Current(), stored);
  c.orphan_kinds = KindCounts(c.orphans, stored);
  n.Step(fmt::format("files no snapshot or kept metadata file reaches (orphans): {} ({})", c.orphans.size(),
                     c.orphan_kinds));
  for (const std::string& path : c.orphans) n.State(path);
  std::vector<std::string> reachable;
  for (const std::string& path : iceberg::ReachableFiles(*w.Current()))
    if (w.io().Exists(path)) reachable.push_back(path);

  n.Step("remove_orphan_files:");
  Result<std::vector<std::string>> removed = iceberg::RemoveOrphanFiles(&w.catalog(), &w.io(), &w.env());
  if (!removed.ok()) return removed.status();
  for (const std::string& path : *removed) n.State(fmt::format("deleted {}", path));
  c.removed = removed->size();
  c.left = iceberg::FindOrphanFiles(*w.Current(), w.io().List()).size();
  c.reachable = reachable.size();
  for (const std::string& path : reachable) c.intact += w.io().Exists(path) ? 1 : 0;
  Result<std::vector<Row>> rows = w.ReadAll();
  c.reads = rows.ok();
  n.Step(fmt::format("after cleanup: {} orphans; {} of the {} files the table reaches are still there; it reads {}",
                     c.left, c.intact, c.reachable,
                     rows.ok() ? fmt::format("{} rows", rows->size()) : rows.status().message()));
  return c;
}

std::vector<Verdict> RunRetriesZero(Narration& n) {
  IcebergWorld w(&n, "db.events");
  if (Status st = AppendFirstFile(n, w); !st.ok()) return {n.SetupFailed("setup", st)};
  Result<RetryPolicy> no_retries = ParseRetryPolicy("iceberg:retries=0");
  if (!no_retries.ok()) return {n.SetupFailed("the policy iceberg:retries=0", no_retries.status())};
  IcebergCommitter a = w.Writer("writer-a");
  IcebergCommitter b = w.Writer("writer-b", *no_retries);
  const MetadataRef base = w.Current();
  n.Step(fmt::format("writer-b runs with commit.retry.num-retries = 0 (policy {}); both read v{}",
                     FormatRetryPolicy(*no_retries), base->version));
  const Operation op_a = iceberg::NewAppend(*base, {w.Data("writer-a", "", {IdRow(2)})});
  const FileRef b_file = w.Data("writer-b", "", {IdRow(3)});
  Status a_status;
  w.LandBeforeSwapOf("writer-b", "writer-a", [&] { a_status = a.Commit(op_a).status(); });
  n.Step("writer-b commits its append");
  const Status b_status = b.Commit(iceberg::NewAppend(*base, {b_file})).status();
  if (!b_status.ok()) n.Refusal("writer-b", b_status, /*logged=*/true);
  NarrateCleanAll(n, w, b);
  Result<OrphanCleanup> c = CleanOrphans(n, w);
  if (!c.ok()) return {n.SetupFailed("remove_orphan_files", c.status())};

  const bool commit_failed =
      b_status.code() == Code::kRetriesExhausted && FailureName(b_status) == "CommitFailedException";
  return {n.Judge(
      {.observed = fmt::format("writer-b failed with {} after {} attempt(s); it left {} orphan files ({}); cleanup "
                               "removed {}, {} left, {} of {} reachable files intact",
                               b_status.ok() ? "nothing" : FailureName(b_status), b.stats().attempts,
                               c->orphans.size(), c->orphan_kinds, c->removed, c->left, c->intact, c->reachable),
       .as_seed = a_status.ok() && commit_failed && b.stats().attempts == 1 && Contains(c->orphans, b_file->path()) &&
                  c->removed == c->orphans.size() && c->left == 0 && c->intact == c->reachable && c->reads,
       .claim = "with retries at 0 the loser fails with a commit-failed exception and leaves orphan files, which "
                "orphan cleanup removes",
       .source = "seed 003"})};
}

// --- 3. The lost-update counter ---

struct CounterPart {
  std::string label;
  iceberg::OnValidationFailure policy;
  std::string what_b_does;
};

Result<int64_t> ReadCounter(IcebergWorld& w) {
  Result<std::vector<Row>> rows = w.ReadAll();
  if (!rows.ok()) return rows.status();
  Result<std::optional<int64_t>> v = iceberg::CounterValue(*rows, "hits");
  if (!v.ok()) return v.status();
  return v->value_or(0);
}

std::string IncrementLine(const std::string& worker, const Result<iceberg::IncrementResult>& r) {
  if (!r.ok()) return fmt::format("{} was told: {}", worker, FirstLines(r.status().message(), 1).front());
  return fmt::format("{} was told: committed (read {}, wrote {}; {} read(s), {} commit call(s), {} validation "
                     "failure(s))",
                     worker, r->read_value, r->written_value, r->reads, r->commits, r->validation_failures);
}

// Judges one part from the counter's final value and what each worker was told.
Verdict JudgeCounter(const CounterPart& part, const Result<iceberg::IncrementResult>& a,
                     const Result<iceberg::IncrementResult>& b, int64_t value) {
  const int acknowledged = (a.ok() ? 1 : 0) + (b.ok() ? 1 : 0);
  const std::optional<std::string> lost = iceberg::CheckCounter("hits", 10, 5, acknowledged, value);
  Verdict v{.source = "seed 003"};
  v.observed = lost ? *lost
                    : fmt::format("counter hits = {}, {} acknowledged increment(s), none lost", value, acknowledged);
  const bool a_won = a.ok() && a->written_value == 15;
  switch (part.policy) {
    case iceberg::OnValidationFailure::kGiveUp:
      v.observed = fmt::format("worker-b's retry was refused ({}); {}",
                               b.ok() ? "no, it committed" : FailureName(b.status()), v.observed);
      v.as_seed = a_won && b.status().code() == Code::kConflict &&
                  b.status().message().starts_with(
                      "ValidationException: Found conflicting files that can contain records matching") &&
                  value == 15 && !lost;
      v.claim = "the first wins and validation (name = hits) stops the loser's retry";
      break;
    case iceberg::OnValidationFailure::kRecommitStale:
      if (b.ok()) v.observed = "worker-b's stale re-commit succeeded; " + v.observed;
      v.as_seed = a_won && b.ok() && b->validation_failures == 1 && value == 15 && lost.has_value();
      v.claim = "re-committing the stale 15 succeeds, the counter ends at 15 and one +5 is lost (a lost update)";
      break;
    case iceberg::OnValidationFailure::kRereadAndRecompute:
      v.as_seed = a_won && b.ok() && b->read_value == 15 && value == 20 && !lost;
      v.claim = "re-reading and recomputing makes the counter exactly 20";
      break;
  }
  return v;
}

Verdict RunCounterPart(Narration& n, const CounterPart& part) {
  n.Part(part.label, part.what_b_does);
  IcebergWorld w(&n, "db.counters");
  IcebergCommitter setup = w.Writer("setup");
  n.Step("setup writes the counter: hits = 10 (and misses = 3 in another file)");
  if (Result<CommitResult> r = setup.Commit(iceberg::NewAppend(
          *w.Current(), {w.Data("setup", "", {iceberg::CounterRow("hits", 10)}),
                         w.Data("setup", "", {iceberg::CounterRow("misses", 3)})}));
      !r.ok())
    return n.SetupFailed("setup", r.status());
  w.io().set_on_data([&n](const StoredFile& f) {
    Result<std::optional<int64_t>> v = iceberg::CounterValue(f.data->rows, "hits");
    n.Step(fmt::format("{} read the counter and writes hits = {} to {}", f.writer,
                       v.ok() && v->has_value() ? fmt::format("{}", **v) : "?", f.path));
  });

  IcebergCommitter a = w.Writer("worker-a");
  IcebergCommitter b = w.Writer("worker-b");
  Result<iceberg::IncrementResult> ra = Status::NotFound("worker-a never ran");
  w.LandBeforeSwapOf("worker-b", "worker-a", [&] {
    ra = iceberg::IncrementCounter(&a, "hits", 5, iceberg::OnValidationFailure::kGiveUp);
  });
  n.Step("worker-b adds 5: read, compute, overwrite with filter name = hits (serializable)");
  Result<iceberg::IncrementResult> rb = iceberg::IncrementCounter(&b, "hits", 5, part.policy);
  if (!rb.ok()) n.Refusal("worker-b", rb.status(), /*logged=*/true);
  n.Step(IncrementLine("worker-a", ra));
  n.Step(IncrementLine("worker-b", rb));
  Result<int64_t> value = ReadCounter(w);
  if (!value.ok()) return n.SetupFailed("reading the counter", value.status());
  return n.Judge(JudgeCounter(part, ra, rb, *value));
}

std::vector<Verdict> RunCounter(Narration& n) {
  const std::vector<CounterPart> parts = {
      {"3a.", iceberg::OnValidationFailure::kGiveUp, "worker-b reports the ValidationException"},
      {"3b.", iceberg::OnValidationFailure::kRecommitStale,
       "worker-b catches the ValidationException and re-commits its stale 15"},
      {"3c.", iceberg::OnValidationFailure::kRereadAndRecompute,
       "worker-b catches it, re-reads, recomputes and commits again"},
  };
  std::vector<Verdict> out;
  for (const CounterPart& part : parts) out.push_back(RunCounterPart(n, part));
  return out;
}

// --- 4. Overwrites and deletes under the isolation levels ---

constexpr char kDay1[] = "dt=2024-01-01";
constexpr char kDay2[] = "dt=2024-01-02";

Expression Day(std::string_view partition) {
  return Expression::Equal("dt", std::string(partition.substr(partition.find('=') + 1)));
}

// A table with one file in each of the two days.
Status SetUpDays(IcebergWorld& w) {
  IcebergCommitter setup = w.Writer("setup");
  const std::vector<FileRef> files = {w.Data("setup", kDay1, {IdRow(1)}), w.Data("setup", kDay2, {IdRow(2)})};
  return setup.Commit(iceberg::NewAppend(*w.Current(), files)).status();
}

struct RaceOutcome {
  Status winner;
  Status loser;
  std::vector<std::string> live;
};

// The loser's operation and the winner's are built from the same metadata; the winner lands first.
RaceOutcome RaceOps(Narration& n, IcebergWorld& w, const std::string& winner, Operation winner_op,
                    const std::string& loser, const Operation& loser_op) {
  IcebergCommitter wc = w.Writer(winner);
  IcebergCommitter lc = w.Writer(loser);
  RaceOutcome out;
  w.LandBeforeSwapOf(loser, winner, [&] { out.winner = wc.Commit(winner_op).status(); });
  out.loser = lc.Commit(loser_op).status();
  if (!out.loser.ok()) n.Refusal(loser, out.loser, /*logged=*/true);
  out.live = w.LivePaths();
  n.Step(fmt::format("live files: {}", Join(out.live)));
  return out;
}

std::string Outcome(const Status& st) { return st.ok() ? "committed" : "refused (" + FailureName(st) + ")"; }

Verdict RunOverwrites(Narration& n, bool same_partition) {
  n.Part(same_partition ? "4b." : "4a.",
         same_partition ? "two overwrites of dt=2024-01-01" : "overwrites of dt=2024-01-01 and dt=2024-01-02");
  IcebergWorld w(&n, "db.events");
  n.Step("setup appends one file into each day");
  if (Status st = SetUpDays(w); !st.ok()) return n.SetupFailed("setup", st);
  const MetadataRef base = w.Current();
  const char* loser_day = same_partition ? kDay1 : kDay2;
  n.Step(fmt::format("both read v{}; writer-1 overwrites {}, writer-2 overwrites {} (serializable)", base->version,
                     kDay1, loser_day));
  Operation first = iceberg::NewOverwriteByFilter(*base, Day(kDay1), {w.Data("writer-1", kDay1, {IdRow(10)})});
  Operation second =
      iceberg::NewOverwriteByFilter(*base, Day(loser_day), {w.Data("writer-2", loser_day, {IdRow(20)})});
  RaceOutcome r = RaceOps(n, w, "writer-1", first, "writer-2", second);
  const std::string observed = fmt::format("writer-1 {}, writer-2 {}", Outcome(r.winner), Outcome(r.loser));
  if (!same_partition) {
    return n.Judge({.observed = observed,
                     .as_seed = r.winner.ok() && r.loser.ok(),
                     .claim = "overwrites of different partitions both commit",
                     .source = "seed 002 2.2"});
  }
  if (FailureName(r.loser) == "ValidationException") {
    n.Step("seed 002 calls this failure CommitFailedException; it is Iceberg's ValidationException, as seed 003 "
           "says: a real conflict, never retried");
  }
  return n.Judge({.observed = observed,
                   .as_seed = r.winner.ok() && r.loser.code() == Code::kConflict,
                   .claim = "of two overwrites of the same partition the loser is refused and must re-read",
                   .source = "seed 002 2.2"});
}

Verdict RunDeleteVsInsert(Narration& n, IsolationLevel level) {
  const bool serializable = level == IsolationLevel::kSerializable;
  n.Part(serializable ? "4c." : "4d.",
         fmt::format("DELETE WHERE dt = '2024-01-01' racing an INSERT into that day, isolation {}",
                     iceberg::IsolationLevelName(level)));
  IcebergWorld w(&n, "db.events");
  n.Step("setup appends one file into each day");
  if (Status st = SetUpDays(w); !st.ok()) return n.SetupFailed("setup", st);
  const MetadataRef base = w.Current();
  Result<Operation> del = iceberg::NewDeleteByFilter(*base, Day(kDay1), level);
  if (!del.ok()) return n.SetupFailed("planning the delete", del.status());
  const FileRef inserted = w.Data("inserter", kDay1, {IdRow(3)});
  n.Step(fmt::format("deleter scans v{} and plans to drop {}; inserter appends {}", base->version,
                     del->files_to_delete[0]->path(), inserted->path()));
  RaceOutcome r = RaceOps(n, w, "inserter", iceberg::NewAppend(*base, {inserted}), "deleter", *del);
  const bool survived = Contains(r.live, inserted->path());
  std::string observed = fmt::format("deleter {}", Outcome(r.loser));
  if (r.loser.ok()) observed += survived ? "; the concurrently inserted row survives it" : "; the inserted row is gone";
  if (serializable) {
    return n.Judge({.observed = observed,
                     .as_seed = r.winner.ok() && r.loser.code() == Code::kConflict,
                     .claim = "under serializable a DELETE fails when rows were added to what it read",
                     .source = "seed 003"});
  }
  return n.Judge({.observed = observed,
                   .as_seed = r.winner.ok() && r.loser.ok() && survived,
                   .claim = "under snapshot isolation only deletes conflict, so the DELETE commits",
                   .source = "seed 003"});
}

std::vector<Verdict> RunIsolation(Narration& n) {
  return {RunOverwrites(n, false), RunOverwrites(n, true), RunDeleteVsInsert(n, IsolationLevel::kSerializable),
          RunDeleteVsInsert(n, IsolationLevel::kSnapshot)};
}

// --- 7. A long reader during snapshot expiry ---

struct Retention {
  std::string label;
  int64_t max_age_minutes;
  bool protects;  // what the seed says this retention does for a 30-minute reader
};

// t=5 min: an append; t=10 min: a delete of `old_file`, which the query has planned to read.
Status WriteWhileTheQueryRuns(Narration& n, IcebergWorld& w, const FileRef& old_file) {
  w.env().Advance(5 * kMinute);
  n.Step("t=5 min: writer-a appends new data");
  IcebergCommitter a = w.Writer("writer-a");
  COMMITLAB_RETURN_IF_ERROR(a.Commit(iceberg::NewAppend(*w.Current(), {w.Data("writer-a", "", {IdRow(5)})})).status());
  w.env().Advance(5 * kMinute);
  n.Step(fmt::format("t=10 min: writer-b deletes {}", old_file->path()));
  IcebergCommitter b = w.Writer("writer-b");
  return b.Commit(iceberg::NewDeleteFiles(*w.Current(), {old_file})).status();
}

// expire_snapshots with max-snapshot-age-ms = `max_age_minutes` and min-snapshots-to-keep = 1.
Result<iceberg::ExpireResult> ExpireOlderThan(Narration& n, IcebergWorld& w, int64_t max_age_minutes) {
  n.Step(fmt::format("t={} min: expire_snapshots", w.env().NowMicros() / kMinute));
  IcebergCommitter maintenance = w.Writer("maintenance");
  Result<iceberg::ExpireResult> expired = iceberg::ExpireSnapshots(
      &maintenance, {.retain_last = 1, .older_than_ms = (w.env().NowMicros() - max_age_minutes * kMinute) / 1000});
  if (!expired.ok()) return expired;
  std::vector<std::string> ids;
  for (int64_t id : expired->expired_snapshot_ids) ids.push_back(ShortSnapshotId(id));
  n.State(fmt::format("expired {} snapshot(s){}, deleted {} file(s), {} retained", ids.size(),
                      ids.empty() ? "" : " [" + Join(ids) + "]", expired->deleted_files.size(),
                      w.Current()->snapshots.size()));
  for (const std::string& path : expired->deleted_files) n.State(fmt::format("deleted {}", path));
  return expired;
}

Verdict RunExpiryPart(Narration& n, const Retention& retention) {
  n.Part(retention.label, fmt::format("history.expire.max-snapshot-age-ms = {} min, min-snapshots-to-keep = 1",
                                      retention.max_age_minutes));
  IcebergWorld w(&n, "db.events");
  IcebergCommitter setup = w.Writer("setup");
  n.Step("t=0 min: setup appends two files");
  const FileRef old_file = w.Data("setup", "", {IdRow(1), IdRow(2)});
  if (Result<CommitResult> r =
          setup.Commit(iceberg::NewAppend(*w.Current(), {old_file, w.Data("setup", "", {IdRow(3), IdRow(4)})}));
      !r.ok())
    return n.SetupFailed("setup", r.status());
  Result<iceberg::PinnedReader> reader = iceberg::PinnedReader::Open(&w.catalog(), &w.io(), &w.env());
  if (!reader.ok()) return n.SetupFailed("opening the reader", reader.status());
  n.Step(fmt::format("t=0 min: a 30-minute query pins snapshot {} and plans {} files",
                     ShortSnapshotId(reader->snapshot_id()), reader->files().size()));

  if (Status st = WriteWhileTheQueryRuns(n, w, old_file); !st.ok()) return n.SetupFailed("a writer", st);
  w.env().Advance(10 * kMinute);
  Result<iceberg::ExpireResult> expired = ExpireOlderThan(n, w, retention.max_age_minutes);
  if (!expired.ok()) return n.SetupFailed("expire_snapshots", expired.status());
  const std::vector<int64_t>& expired_ids = expired->expired_snapshot_ids;

  w.env().Advance(10 * kMinute);
  n.Step(fmt::format("t=30 min: the query reads the files of snapshot {}", ShortSnapshotId(reader->snapshot_id())));
  Result<std::vector<Row>> rows = reader->ReadAll();
  if (!rows.ok()) n.Refusal("reader", rows.status(), /*logged=*/false);
  const bool pinned_expired = reader->snapshot_id().has_value() &&
                              std::find(expired_ids.begin(), expired_ids.end(), *reader->snapshot_id()) !=
                                  expired_ids.end();
  const std::string observed =
      rows.ok() ? fmt::format("the reader read all {} rows of its snapshot (expiry {} it)", rows->size(),
                              pinned_expired ? "expired" : "kept")
                : fmt::format("expiry {} the reader's snapshot and the reader failed with {}",
                              pinned_expired ? "expired" : "kept", FailureName(rows.status()));
  if (retention.protects) {
    return n.Judge({.observed = observed,
                     .as_seed = rows.ok() && rows->size() == 4 && !pinned_expired,
                     .claim = "a retention that keeps the reader's snapshot protects a long query",
                     .source = "seed 002 3.1"});
  }
  return n.Judge({.observed = observed,
                   .as_seed = !rows.ok() && rows.status().code() == Code::kNotFound &&
                              rows.status().message().starts_with("FileNotFoundException") && pinned_expired,
                   .claim = "expire_snapshots can delete a long query's files and it fails with FileNotFoundException",
                   .source = "seed 002 3.1"});
}

std::vector<Verdict> RunExpiry(Narration& n) {
  return {RunExpiryPart(n, {"7a.", 60, true}), RunExpiryPart(n, {"7b.", 5, false})};
}

const std::vector<Experiment>& IcebergExperiments() {
  static const std::vector<Experiment> kExperiments = {
      {1, "race", "Two appends race for the catalog pointer",
       "Both writers read the same metadata; the first compare-and-swap wins. The loser's CAS fails\n"
       "(CommitFailedException), it re-reads the pointer, re-applies its append on top and swaps again.",
       RunAppendRace},
      {2, "retries0", "The same race with commit.retry.num-retries = 0",
       "\"If you believe only one job writes the table and turn retries off, the day a cleanup job collides\n"
       "with it, it fails for no apparent reason\" (seed 003). The loser's files become orphans.",
       RunRetriesZero},
      {3, "counter", "The lost-update counter",
       "Two workers read hits = 10, each adds 5 and overwrites the row with filter name = hits. The library\n"
       "validates files, not where your value came from (seed 003).",
       RunCounter},
      {4, "isolation", "Overwrites, deletes and the isolation levels",
       "Validation decides what counts as a conflict: serializable checks rows added to and deleted from what\n"
       "an operation read, snapshot isolation only deletes (seed 003; seed 002 2.2).",
       RunIsolation},
      {7, "expiry", "A long reader during snapshot expiry",
       "A reader sees its snapshot's files whatever writers commit, unless expiry deletes them first\n"
       "(seed 002 3.1).",
       RunExpiry},
  };
  return kExperiments;
}

}  // namespace

int RunIcebergLab(const std::vector<std::string>& args) {
  return RunNarratedLab("iceberg",
                        "Iceberg lab (seeds 002 and 003): catalog compare-and-swap, validation, isolation levels, "
                        "orphans, expiry",
                        IcebergExperiments(), args);
}

}  // namespace commitlab::cli
