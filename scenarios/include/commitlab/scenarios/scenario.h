// Scenario: the parsed form of a scenarios/*.scn file (the language is documented in
// scenarios/README.md). The parser resolves everything that does not need a run: repeats are
// expanded, commit identifiers and fresh write keys are assigned, labels and checkpoint names are
// resolved to step indexes, the retry policy is parsed. What only a run can decide (which files a
// compaction picks, fault and latency specs owned by sim/) is kept as written, with its position.
//
// Every node keeps its SourcePos so a runner can report "scenarios/x.scn:12: expect failed: ...".
#ifndef COMMITLAB_SCENARIOS_SCENARIO_H_
#define COMMITLAB_SCENARIOS_SCENARIO_H_

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "commitlab/core/iceberg/expression.h"
#include "commitlab/core/iceberg/operation.h"
#include "commitlab/core/model.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/scenarios/iceberg_counter.h"

namespace commitlab::scenarios {

// 1-based line and byte column in the scenario file.
struct SourcePos {
  int line = 0;
  int col = 0;

  bool operator==(const SourcePos&) const = default;
};

// ---------------------------------------------------------------------------------------------
// Tables and writers

enum class Protocol { kPaimon, kIceberg, kDelta };
std::string_view ProtocolName(Protocol p);  // "paimon", "iceberg", "delta"

struct Table {
  SourcePos pos;
  std::string name;
  Protocol protocol = Protocol::kPaimon;
  bool primary_key = false;                 // false: append-only
  std::vector<std::string> partition_keys;  // empty: unpartitioned
  int32_t buckets = 1;
  int32_t levels = 6;  // L0 .. L(levels-1), Paimon's default num-levels
  // Paimon's StreamWriteBuilder commits with ignoreEmptyCommit(false), the API S2 第 5 讲 uses
  // (docs/lectures.md#s2-5-details).
  bool ignore_empty_commit = false;
  // Iceberg: "serializable" or "snapshot" (the default level of overwrite and delete steps);
  // Delta: "Serializable" or "WriteSerializable" (delta.isolationLevel). "" for Paimon.
  std::string isolation;
  // Delta: "oss" (open-source Delta: Serializable only) or "databricks" (WriteSerializable too).
  std::string flavour = "oss";
  // Iceberg: "in-memory" (a pointer swap, as Java's InMemoryCatalog, JDBC or Hive) or "rest" (a
  // REST catalog: requirements and updates, applied by the server to the current metadata), both
  // in memory; or the same two on real servers: "jdbc" (PostgreSQL at $COMMITLAB_PG) and
  // "rest-server" (a REST catalog server the run starts on a loopback port).
  std::string catalog = "in-memory";
};

// write: a new L0 data file, pending in the writer until it commits or checkpoints.
struct WriteOp {
  int64_t rows = 1;
  // Given with keys=LO..HI, or else the table's next fresh keys in file order, so the same file
  // always gives the same keys whatever the schedule.
  int64_t min_key = 0;
  int64_t max_key = 0;
  std::string partition;  // "" or "dt=2024-01-01/hr=1"
  int32_t bucket = 0;
};

// commit: the pending files (and pending compaction) as one committable with `identifier`
// (Paimon: an APPEND snapshot, then a COMPACT snapshot when a compaction is pending); or, with
// `checkpoint`, the saved committable of that name, as a Flink committer does once the checkpoint
// completes.
struct CommitOp {
  int64_t identifier = 0;  // given, else the writer's previous identifier + 1; the checkpoint's
  std::string checkpoint;  // "" or the name of a checkpoint saved on an earlier line
  // Runs conflict detection on the APPEND too, as TableCommitImpl.commit(..., checkAppendFiles)
  // does; a plain commit of fresh files skips it (FileStoreCommitImpl.commit).
  bool check_append_files = false;
  // For this commit only, FileStoreCommit.ignoreEmptyCommit(...); unset: the table's setting.
  std::optional<bool> ignore_empty_commit;
  // `overwrite=PARTITION|all`: FileStoreCommit.overwrite of that partition ("" = all), an
  // OVERWRITE snapshot that first deletes the target's live files.
  std::optional<std::string> overwrite;
};

// compact: rewrite chosen files of one bucket from one level into one file of another level; the
// result is pending until the next commit or checkpoint.
struct CompactOp {
  std::string partition;
  int32_t bucket = 0;
  int32_t from_level = 0;
  int32_t to_level = 0;
  // Indexes into the writer's view of from_level when the step runs (oldest file first), or all.
  bool all_files = true;
  std::vector<int32_t> files;
  // The output file's key range and row count; by default the union of the inputs' ranges and the
  // sum of their rows.
  std::optional<int64_t> min_key;
  std::optional<int64_t> max_key;
  std::optional<int64_t> rows;
};

// checkpoint: Flink's prepareCommit. The pending files and compaction become a committable with
// `identifier`, saved under `name`; the writer has nothing pending afterwards.
struct CheckpointOp {
  std::string name;        // unique in the scenario; "name[i]" when saved inside a repeat
  int64_t identifier = 0;  // given, else the writer's previous identifier + 1
};

// filter-and-commit: Paimon's filterAndCommit of saved committables after a restart: those whose
// identifier this commit user has already committed are dropped, the rest committed in order.
struct FilterAndCommitOp {
  std::vector<std::string> checkpoints;  // strictly increasing identifiers
};

// delete-data-files: removes from the table's directory, behind the table's back, the data files
// the saved checkpoints' committables name (new files and compaction inputs and outputs).
struct DeleteDataFilesOp {
  std::vector<std::string> checkpoints;
};

// restart: the writer's job fails over: a new committer with the same commit user; pending files
// and compaction are lost, saved checkpoints and the identifier counter survive.
struct RestartOp {};

// --- Iceberg and Delta steps (scenarios/README.md, "Iceberg steps", "Delta steps") ---

// The rows of one new data file: {id: k} for k in [min_key, max_key], assigned like `write` keys.
struct DataSpec {
  int64_t rows = 1;
  int64_t min_key = 0;
  int64_t max_key = 0;
  std::string partition;  // "" or "dt=2024-01-01"
};

// A row filter in Iceberg's Expressions (scenarios/README.md, "Filters"), each literal already
// checked against its column's type.
struct FilterSpec {
  iceberg::Expression expr;
  std::string text;  // as written
};

// Iceberg `read`: reads the catalog pointer and pins its current snapshot; the writer's next
// operation starts from it (validates what was committed since) and `scan` reads its files.
// Delta `read`: the transaction's filterFiles on a partition or by a filter, a full scan, or
// `read whole-table` (readWholeTable).
struct ReadOp {
  // Delta only: filterFiles on one partition, by a filter, or (neither) a full scan; or
  // readWholeTable().
  std::string partition;
  std::optional<FilterSpec> filter;
  bool whole_table = false;
};
// Iceberg `scan`: reads every file the last `read` planned (a long query's tasks).
struct ScanOp {};
// Iceberg `append`: one new data file, committed as MergeAppend.
struct AppendOp {
  DataSpec data;
};
// Iceberg `overwrite filter=C=V`: a new file replacing the rows matching the filter.
struct OverwriteOp {
  FilterSpec filter;
  DataSpec data;
  std::string isolation;  // "" = the table's
};
// Iceberg `delete filter=C=V`: Spark's copy-on-write DELETE of the files the filter matches.
struct DeleteOp {
  FilterSpec filter;
  std::string isolation;  // "" = the table's
};
// Iceberg `replace-partitions`: ReplacePartitions (dynamic partition overwrite) adding one new file
// per partition listed, which drops every live file of those partitions.
struct ReplacePartitionsOp {
  std::vector<DataSpec> files;  // one per partition, in the order written
  iceberg::ReplaceValidation validation;
  bool validate_from_start = false;  // validate-from=start: no validateFromSnapshot, the whole history
};
// Iceberg `row-delta`: a RowDelta (merge-on-read DELETE/UPDATE/MERGE) of position deletes for the
// rows a filter matches, an equality delete of some ids, and/or a new data file.
struct RowDeltaOp {
  std::optional<FilterSpec> delete_filter;                 // position deletes of the live rows it matches
  std::optional<std::pair<int64_t, int64_t>> delete_keys;  // an equality delete on id, LO..HI
  std::optional<DataSpec> data;                            // a new data file (rows=/keys=)
  std::string partition;                                   // of the equality delete (and the new data)
  std::optional<FilterSpec> conflict_filter;               // conflictDetectionFilter; alwaysTrue when unset
  iceberg::RowDeltaValidation validation;
  bool validate_from_start = false;
};
// Iceberg `rewrite [partition=P]`: compaction of the live files (of P) into one.
struct RewriteOp {
  std::string partition;
};
// Iceberg `schema id=N`: a schema change (no snapshot).
struct SchemaOp {
  int32_t schema_id = 1;
};
// Iceberg `expire [retain-last=N]`: expire_snapshots keeping the newest N ancestors.
struct ExpireOp {
  int32_t retain_last = 1;
};
// Iceberg `orphans count` / `orphans clean`: find (and remove) files no snapshot reaches.
// `older-than=DURATION`: only files written at least that long before the step count (upstream's
// remove_orphan_files guard, 3 days by default, so that a commit in flight keeps its files).
// Unset: every unreachable file, also an in-flight commit's.
struct OrphansOp {
  bool clean = false;
  std::optional<int64_t> older_than_micros;
};
// Iceberg's lost-update counter (iceberg_counter.h): a one-row file {name: KEY, value: N} per value.
struct CounterOp {
  enum class Action { kInit, kRead, kAdd, kCommit };
  Action action = Action::kRead;
  std::string key;    // init, read
  int64_t value = 0;  // init: the value; add: the increment
  // commit: what a ValidationException makes it do (give-up, recommit-stale, reread).
  OnValidationFailure on_validation = OnValidationFailure::kGiveUp;
};
// Delta `begin`: a new OptimisticTransaction at the latest version.
struct BeginOp {};
// Delta `add [file=F] [partition=P] [rows=N] [data-change=false]`.
struct AddOp {
  std::string file;  // "" = a fresh name
  std::string partition;
  int64_t rows = 1;
  bool data_change = true;
};
// Delta `remove files=F1,F2 [data-change=false]`: files live at the transaction's version.
struct RemoveOp {
  std::vector<std::string> files;
  bool data_change = true;
};
// Delta `commit [op=OPERATION]`: commits the transaction (INSERT, UPDATE, DELETE, MERGE, OPTIMIZE,
// STREAMING UPDATE).
struct DeltaCommitOp {
  std::string operation = "INSERT";  // Delta's name
};
// Delta `txn app=ID version=N`: the transaction records that application ID has committed its
// version N (SetTransaction), which makes a streaming batch idempotent.
struct TxnOp {
  std::string app;
  int64_t version = 0;
};
// Delta `read-txn app=ID`: txnVersion(ID), the application's last committed version or -1
// (recorded: a concurrent commit of the same app id conflicts).
struct ReadTxnOp {
  std::string app;
};
// Delta `metadata [schema=TEXT]`: a Metadata action (a schema change, ALTER TABLE), the table's
// metadata with the schema replaced when given; any concurrent transaction then fails with
// MetadataChangedException.
struct MetadataOp {
  std::string schema;  // "" keeps the table's
};
// Delta `protocol [reader-version=N] [writer-version=N]`: a Protocol action (an upgrade), the
// table's protocol with the versions given replaced.
struct ProtocolOp {
  std::optional<int32_t> reader_version;
  std::optional<int32_t> writer_version;
};

using Op = std::variant<WriteOp, CommitOp, CompactOp, CheckpointOp, FilterAndCommitOp, RestartOp, ReadOp, ScanOp,
                        AppendOp, OverwriteOp, DeleteOp, RewriteOp, SchemaOp, ExpireOp, OrphansOp, CounterOp, BeginOp,
                        AddOp, RemoveOp, DeltaCommitOp, TxnOp, ReadTxnOp, MetadataOp, ProtocolOp, ReplacePartitionsOp,
                        DeleteDataFilesOp, RowDeltaOp>;
std::string_view OpName(const Op& op);  // "write", "commit", "compact", ...
// Whether the step publishes (its line can be named as W.L.publish in an order line).
bool OpPublishes(const Op& op);

struct Step {
  SourcePos pos;      // the step's operation word
  std::string label;  // on the first step of a labelled line; "c[3]" in iteration 3 of a repeat
  int iteration = 0;  // 1-based iteration of its repeat; 0 outside a repeat
  Op op;
};

// A writer's steps in script order with its repeats expanded, read as a std::vector<Step> was
// (size(), [i], a range-for), but a `repeat N` line whose iterations differ only in their fresh
// keys and commit identifiers (its steps write and commit) is held once, and the steps of its
// iterations are made as they are read. A race of a million commits is two parsed steps, not two
// million of about a kilobyte each. A step is read by value: hold a Step, not a reference into
// one read from the list.
class StepList {
 public:
  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Step;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Step;

    const_iterator() = default;
    const_iterator(const StepList* list, size_t i) : list_(list), i_(i) {}
    Step operator*() const { return (*list_)[i_]; }
    const_iterator& operator++() { return ++i_, *this; }
    const_iterator operator++(int) { return {list_, i_++}; }
    friend const_iterator operator+(const_iterator a, difference_type n) {
      return {a.list_, a.i_ + static_cast<size_t>(n)};
    }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return static_cast<difference_type>(a.i_) - static_cast<difference_type>(b.i_);
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.i_ == b.i_; }

   private:
    const StepList* list_ = nullptr;
    size_t i_ = 0;
  };

  Step operator[](size_t i) const;
  size_t size() const { return size_; }
  // The first step at or after `from` whose op passes `test`, or size(): without making the steps
  // of a repeated line, whose iterations hold the same ops.
  size_t NextWhere(size_t from, bool (*test)(const Op&)) const;
  bool empty() const { return size_ == 0; }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

  // Building (the parser). A step as it is.
  void push_back(Step s);
  // Step i, which push_back added (not one of a repeated line's).
  Step& stored(size_t i);
  // A repeated line: `first` is its first iteration's steps (iteration 1), and iteration k's are
  // the same but for `iteration` = k, each write's keys `key_stride` * (k - 1) higher, and each
  // commit's identifier `id_stride` * (k - 1) higher. REQUIRES: no label, and only WriteOp and
  // CommitOp steps.
  void push_repeat(std::vector<Step> first, int64_t count, int64_t key_stride, int64_t id_stride);

 private:
  // A run of stored steps (count 0), or a repeated line's first iteration (count > 0).
  struct Segment {
    size_t begin = 0;  // index of its first step in the list
    std::vector<Step> steps = {};
    int64_t count = 0;
    int64_t key_stride = 0;
    int64_t id_stride = 0;
    size_t size() const { return count == 0 ? steps.size() : steps.size() * static_cast<size_t>(count); }
  };
  const Segment& SegmentOf(size_t i) const;

  std::vector<Segment> segments_;
  size_t size_ = 0;
};

struct Writer {
  SourcePos pos;
  std::string name;
  std::string commit_user;  // defaults to the name
  size_t table = 0;         // index into Scenario::tables
  // Paimon: the writer's bucket count (its files' totalBuckets); 0 = the table's.
  int32_t buckets = 0;
  // Paimon: commit.strict-mode.last-safe-snapshot of the writer's committer (unset: off).
  std::optional<int64_t> strict_mode_last_safe_snapshot;
  StepList steps;  // in script order, repeats expanded
};

struct StepRef {
  size_t writer = 0;  // index into Scenario::writers
  size_t step = 0;    // index into Writer::steps

  bool operator==(const StepRef&) const = default;
};

// `order A.x -> B.y`, RocksDB sync-point style: B's step y does not start until A's step x has
// finished. A label on a line of several steps stands for the line: `before` is its last step and
// `after` its first. `A.x.publish` names the moment the line's publishing step reaches its first
// publish (Iceberg's swap, Delta's put-if-absent, Paimon's rename): as `before`, "once A has got
// there"; as `after`, "B waits there" (the step has read and built, and publishes only then).
struct OrderEdge {
  SourcePos pos;  // the `before` reference
  StepRef before;
  StepRef after;
  bool before_publish = false;
  bool after_publish = false;
  std::string text;  // "job-1.c1 -> job-2.c2", for messages
};

// A spec string another component parses (sim's fault rules and latency models). `pos` is the
// spec's first character, so an error at offset k inside it is at column pos.col + k.
struct SpecString {
  SourcePos pos;
  std::string text;
};

struct RetrySetting {
  SourcePos pos;
  std::string spec;  // as handed to ParseRetryPolicy, e.g. "paimon:retries=10"
  RetryPolicy policy;
};

enum class SchedKind { kRandom, kPct, kRoundRobin, kFree };
std::string_view SchedKindName(SchedKind k);  // "random", "pct", "round-robin", "free"

struct SchedSetting {
  SourcePos pos;
  SchedKind kind = SchedKind::kRandom;
  int pct_depth = 3;  // kPct only
};

// ---------------------------------------------------------------------------------------------
// Expectations

enum class CmpOp { kEq, kGe, kLe, kRange };

struct Comparison {
  CmpOp op = CmpOp::kEq;
  int64_t lo = 0;  // the operand; the lower bound of a range
  int64_t hi = 0;  // kRange only

  bool Matches(int64_t v) const;
  std::string ToString() const;  // "== 3", ">= 1", "<= 9", "18..25"
  bool operator==(const Comparison&) const = default;
};

// Counters a run tallies per writer and in total (the keys of `commitlab run --json`).
enum class Counter {
  kCommitted,          // snapshots published (for a step: what the step returned)
  kAttempts,           // publish attempts
  kAtomicFailures,     // lost races for a snapshot id
  kConflicts,          // refusals by conflict detection
  kUnknownOutcomes,    // publishes that ended in an error
  kIdempotentMatches,  // unknown outcomes the idempotency check found committed
  kGaveUp,             // commits that exhausted their retries
  kOrphanFiles,        // data and manifest files no snapshot references
};
std::string_view CounterName(Counter c);  // "committed", "atomic_failures", ...

// How a writer's script (or a step) ended.
enum class Outcome {
  kOk,       // every step finished
  kRefused,  // a step failed with an error other than giving up or a crash (a conflict, ...)
  kGaveUp,   // a commit exhausted its retries (Code::kRetriesExhausted)
  kCrashed,  // a crash fault stopped the writer
};
std::string_view OutcomeName(Outcome o);  // "ok", "refused", "gave-up", "crashed"

// expect snapshot ID [kind=K] [user=U] [identifier=N] [total=N] [delta=N]: the snapshot exists
// and has the given fields.
struct SnapshotExpect {
  int64_t id = 0;
  std::optional<CommitKind> kind;
  std::optional<std::string> user;
  std::optional<int64_t> identifier;
  std::optional<int64_t> total_records;
  std::optional<int64_t> delta_records;
  std::optional<int64_t> parent;         // the parent snapshot id (0 for none)
  std::optional<std::string> operation;  // Iceberg append/overwrite/replace/delete, Delta INSERT/...
  size_t table = 0;                      // table=NAME; default the first table
};

// expect latest-snapshot CMP (0 when the table has none).
struct LatestSnapshotExpect {
  Comparison value;
  size_t table = 0;  // table=NAME; default the first table
};

// expect per-user U=N ...: snapshots per commit user, exactly: a user not listed has none.
struct PerUserExpect {
  std::map<std::string, int64_t> snapshots;
  size_t table = 0;  // table=NAME; default the first table
};

// expect tally COUNTER CMP: the counter summed over all writers.
struct TallyExpect {
  Counter counter = Counter::kCommitted;
  Comparison value;
};

enum class Subject {
  kWriter,      // expect writer W ...
  kStep,        // expect step W.L ...: the labelled line's steps
  kSomeWriter,  // expect some-writer ...: at least one writer
};

// expect writer W OUTCOME ["text"] (and step / some-writer): `message` must occur in the error
// that ended it ("" matches any; always "" for kOk).
struct OutcomeExpect {
  Subject subject = Subject::kWriter;
  size_t writer = 0;      // kWriter, kStep
  size_t first_step = 0;  // kStep: the labelled line's steps [first_step, last_step]
  size_t last_step = 0;
  Outcome outcome = Outcome::kOk;
  std::string message;
};

// expect writer W COUNTER CMP, expect step W.L committed CMP.
struct CounterExpect {
  Subject subject = Subject::kWriter;  // kWriter or kStep
  size_t writer = 0;
  size_t first_step = 0;  // kStep: the sum over the line's steps
  size_t last_step = 0;
  Counter counter = Counter::kCommitted;
  Comparison value;
};

// expect invariant-violation KIND: the checker must report this violation (the file's expected
// result is the checker's finding); other violations still fail the run.
struct InvariantExpect {
  std::string violation;  // a kind name of sim/checker.h: "duplicate", "lost", ...
};

// expect counter KEY CMP [table=NAME]: the Iceberg counter KEY's value in the table's current
// snapshot (default the first table, which must then be an Iceberg table).
struct CounterValueExpect {
  std::string key;
  Comparison value;
  size_t table = 0;
};

using ExpectBody = std::variant<SnapshotExpect, LatestSnapshotExpect, PerUserExpect, TallyExpect, OutcomeExpect,
                                CounterExpect, InvariantExpect, CounterValueExpect>;

struct Expectation {
  SourcePos pos;     // the `expect` word
  std::string text;  // the line as written, without its comment: "expect latest-snapshot 6"
  ExpectBody body;
};

// The violation kinds `expect invariant-violation` accepts.
const std::vector<std::string_view>& InvariantViolationNames();

// ---------------------------------------------------------------------------------------------

struct Scenario {
  std::string file_name;  // as given to the parser; prefixes every position in messages
  std::string text;       // the source text, as parsed
  std::string title;
  // What the source says happens, which the expectations check, and the source passage it rests
  // on: a lab prints both with its verdict. "" when the file has none.
  std::string claim;
  std::string source;
  std::vector<Table> tables;
  std::vector<Writer> writers;
  std::vector<OrderEdge> order;
  std::vector<SpecString> faults;     // WRITER:POINT:TRIGGER:EFFECT, for sim::ParseFaultRule
  std::vector<SpecString> latencies;  // storage-latency specs, for the simulator
  std::optional<RetrySetting> retry;  // unset: the protocol's default policy
  bool idempotency_check = true;
  std::optional<SchedSetting> sched;  // unset: the command line decides
  std::optional<uint64_t> seed;
  // `store object:MODE`: Paimon tables live on a simulated object store ("check-then-put",
  // "locked", "conditional-put"); "" = memory (or what the command line says).
  std::string object_store;
  SourcePos store_pos;
  std::vector<Expectation> expectations;

  size_t TotalSteps() const;
  std::optional<size_t> FindWriter(std::string_view name) const;
  // "file:line:col", or "file:line" when col is 0.
  std::string Where(const SourcePos& pos) const;
};

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_SCENARIO_H_
