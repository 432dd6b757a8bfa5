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
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "commitlab/core/check.h"
#include "commitlab/core/model.h"
#include "commitlab/core/protocol.h"
#include "commitlab/core/retry_policy.h"

namespace commitlab::scenarios {

// 1-based line and byte column in the scenario file.
struct SourcePos {
  int line = 0;
  int col = 0;

  bool operator==(const SourcePos&) const = default;
};

// ---------------------------------------------------------------------------------------------
// Tables and writers

// A table line. name, protocol and partitions are every protocol's; the other keys are parsed by
// the protocols that take them (ProtocolModule::ParseTableKeys in scenarios/src/protocols/<p>/).
struct Table {
  SourcePos pos;
  std::string name;
  Protocol protocol = {};                   // set by the parser: a protocol of the registry
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

// ---------------------------------------------------------------------------------------------
// Steps

// One step's operation as its protocol parsed it. Each protocol declares its own steps in its
// folder (scenarios/src/protocols/<p>/<p>_steps.h); the shared code (parser, runner, explorer,
// labs) asks only what is here, and a protocol's writer reads its own with OpAs<T> or OpIf<T>.
class StepOp {
 public:
  virtual ~StepOp() = default;
  // A copy, for the parser to instantiate once per repeat iteration.
  virtual std::unique_ptr<StepOp> Clone() const = 0;

  // The step word: "write", "commit", "append", ...
  virtual std::string_view name() const = 0;
  // Whether the step publishes (its line can be named as W.L.publish in an order line).
  virtual bool publishes() const { return false; }
  // Whether it touches state shared between writers outside the engine's storage brackets (saved
  // checkpoints, files removed behind the engine's back), so that the explorer must not reorder
  // its line past anything.
  virtual bool shares_state() const { return false; }
  // Whether a writer whose step failed goes on here (Paimon's restart: the job fails over).
  virtual bool resumes_after_failure() const { return false; }
  // Whether a narration leaves the step to its log lines and snapshots (Paimon's commit).
  virtual bool told_by_its_log() const { return false; }
  // Entries of its lists (files, checkpoints): the parser bounds them over the whole file.
  virtual size_t list_entries() const { return 0; }
  // For a repeated line held once (StepList): this step `keys` fresh keys and `identifiers` commit
  // identifiers further on, as a later iteration instantiates it. Null (the default) when its
  // iterations differ in anything else: the parser then expands the line step by step.
  virtual std::unique_ptr<StepOp> Advanced(int64_t /*keys*/, int64_t /*identifiers*/) const { return nullptr; }
};

// The usual base of a step: Clone by copy.
template <typename Self>
class StepOpBase : public StepOp {
 public:
  std::unique_ptr<StepOp> Clone() const override { return std::make_unique<Self>(static_cast<const Self&>(*this)); }
};

// A step's operation, a value: copies share the immutable StepOp.
class Op {
 public:
  Op() = default;
  template <typename T, typename = std::enable_if_t<std::is_base_of_v<StepOp, T>>>
  Op(T op) : op_(std::make_shared<const T>(std::move(op))) {}  // NOLINT: an Op is made from any step
  explicit Op(std::unique_ptr<StepOp> op) : op_(std::move(op)) {}

  const StepOp* get() const { return op_.get(); }
  const StepOp* operator->() const { return op_.get(); }
  const StepOp& operator*() const { return *op_; }

 private:
  std::shared_ptr<const StepOp> op_;
};

// The step as a T when it is one, else null.
template <typename T>
const T* OpIf(const Op& op) {
  return dynamic_cast<const T*>(op.get());
}
template <typename T>
bool OpIs(const Op& op) {
  return OpIf<T>(op) != nullptr;
}
// The step as a T, which it must be.
template <typename T>
const T& OpAs(const Op& op) {
  const T* t = OpIf<T>(op);
  COMMITLAB_CHECK(t != nullptr, "OpAs: the step is not of the type asked for");
  return *t;
}

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
  // `title.zh "..."`, `claim.zh "..."`: the same in Chinese, for `--lang zh` (the lab, the stepper,
  // the timeline). "" when the file has none; readers fall back to the English.
  std::string title_zh;
  std::string claim_zh;
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
