// The scenario runner: executes a parsed Scenario against the commit engine and checks what it
// expects (scenarios/README.md, "How a file runs").
//
// Each writer runs its script on its own fiber under sim::Scheduler and sim::SimEnv (seeded,
// virtual time, byte-identical traces for one seed), or on its own OS thread with sim::RealEnv
// when the sched is `free`. `order` lines are gates: a writer blocks (it does not spin) until the
// step it waits for has finished. Afterwards the runner reads the snapshot chain back from the
// store, runs the invariant checker against what each writer was told, counts orphan files, and
// evaluates every `expect` line.
//
//   Result<RunPlan> plan = PlanRun(scenario, options);     // input errors: file:line:col
//   Result<RunReport> report = RunScenario(scenario, options);
//   report->ok()  // every expectation held, no unexpected violation, the script could go on
#ifndef COMMITLAB_SCENARIOS_RUNNER_H_
#define COMMITLAB_SCENARIOS_RUNNER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/commit_stats.h"
#include "commitlab/core/events.h"
#include "commitlab/core/model.h"
#include "commitlab/core/paimon/store.h"
#include "commitlab/core/paimon/table_lock.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/core/status.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/checker.h"
#include "commitlab/sim/fault_spec.h"
#include "commitlab/sim/latency.h"
#include "commitlab/sim/strategy.h"

namespace commitlab::sim {
class History;
class Scheduler;
}  // namespace commitlab::sim

namespace commitlab::scenarios {

inline constexpr uint64_t kDefaultSeed = 1;
inline constexpr char kDefaultSched[] = "random";
// Budgets that end a run which would not end by itself (a writer retrying without limit against a
// fault that always fires). The defaults grow with the script, so that no run the limits allow
// is cut: 10,000,000 steps plus 200 per scripted step (a commit takes about 12 uncontended);
// 7 days of virtual time; on OS threads 10 minutes plus 50 ms per scripted step (a commit with
// the default latency takes about 24 ms). README, "Limits, budgets and a hostile machine".
struct RunBudgets {
  int64_t max_steps = 0;           // 0: no limit
  int64_t max_virtual_micros = 0;  // 0: no limit
  int64_t max_wall_micros = 0;     // 0: no limit
};
RunBudgets DefaultBudgets(const Scenario& scenario);

// False when `rule` could never fire in `scenario`: its writer is not declared, or no writer it
// names passes its point (a Delta commit has no manifest.before). PlanRun refuses such a rule.
bool FaultCanFire(const Scenario& scenario, const sim::FaultRule& rule);

// kDir: each table in <dir>/<table name>. kTableDir: `dir` is the one table (a scenario with a
// single Paimon table, as `commitlab race --dir D` puts it).
enum class StoreKind { kMemory, kDir, kTableDir };

struct StepReport;
class RunObserver;
class EffectGate;

struct RunOptions {
  // Unset: the scenario's `seed` line, else kDefaultSeed.
  std::optional<uint64_t> seed = {};
  // "free" (OS threads) or a strategy spec (random, pct, pct:depth=N, round-robin). Unset: the
  // scenario's `sched` line, else kDefaultSched.
  std::optional<std::string> sched = {};
  // Replays this schedule string (simulated runs only).
  std::string schedule = {};
  StoreKind store = StoreKind::kMemory;
  // kDir, kTableDir: where the tables live. Kept as given in messages.
  std::string dir = {};
  // Added to the scenario's `fault` lines.
  std::vector<sim::FaultRule> faults = {};
  // Set: replaces the scenario's `latency` lines.
  std::optional<sim::LatencyModel> latency = {};
  // Every engine event (log lines); must be thread-safe for free runs. May be null.
  EventSink* events = nullptr;
  // May be null. The run's history (sim/history.h): the caller writes the header and the footer
  // (HistoryFooter), the runner everything in between and the scheduler's step counter.
  sim::History* history = nullptr;
  // May be null: steps, new snapshots, for narration.
  RunObserver* observer = nullptr;
  // May be null; simulated runs with a history only. Holds each read of the latest snapshot and
  // each publish until it may take effect (replaying a history recorded on OS threads).
  EffectGate* effect_gate = nullptr;
  // Simulated runs: latency is ordering only (Scheduler::set_untimed): sleeps do not move the
  // clock and the strategy alone decides who goes first. `commitlab explore` runs so.
  bool untimed = false;
  // May be empty. Decides each hit of a `maybe` fault rule (else a draw with p = 1/2).
  sim::ScriptedFaultPlan::Chooser choose_fault = {};
  // Simulated runs: the step and virtual-time budget (Scheduler::set_budget); OS-thread runs: the
  // wall-clock budget (RealEnv::set_max_wall_micros). Unset: DefaultBudgets(scenario); 0: no
  // limit. A run that passes one is stopped and reports it in run_errors ("gave up after N steps
  // ...: still running then: job-A ...").
  std::optional<int64_t> max_steps = {};
  std::optional<int64_t> max_virtual_micros = {};
  std::optional<int64_t> max_wall_micros = {};
  // May be null; not owned. The lock `store object:locked` holds across HEAD and PUT in place of
  // its in-process flag (a catalog's lock, e.g. Paimon's JDBC lock on PostgreSQL); for every
  // Paimon table of the run.
  TableLock* table_lock = nullptr;
  // May be empty; simulated runs only. Wraps the strategy the plan names (the stepper drives a
  // run through one that follows the picks made so far and then pauses).
  std::function<std::unique_ptr<sim::Strategy>(std::unique_ptr<sim::Strategy>)> wrap_strategy = {};
  // Off: the steps of the hot paths (a Paimon write and commit, an Iceberg or Delta commit) leave
  // StepResult::detail empty. It is narration (the history, the lab, a step's observer) and a
  // search that runs the scenario a million times reads none of it (`commitlab explore`).
  bool step_details = true;
  // Off (simulated runs): the scheduler keeps no schedule and RunReport::schedule stays empty. The
  // explorer picks every step itself and formats a schedule only for the executions it reports.
  bool record_schedule = true;
};

// What a run will do, resolved from the scenario and the options before anything runs.
struct RunPlan {
  uint64_t seed = kDefaultSeed;
  bool free = false;          // OS threads and the real clock
  std::string sched = {};     // "free", or the strategy spec as given
  std::string strategy = {};  // what the simulator runs: sched, or replay:<schedule>
  sim::LatencyModel latency = {};
  std::vector<sim::FaultRule> faults = {};  // the scenario's, then the options'
  RetryPolicy retry = {};
  bool idempotency_check = true;
  StoreKind store = StoreKind::kMemory;
  std::string object_store = {};  // the scenario's `store object:MODE`: "check-then-put", ...; "" for none
  bool step_details = true;       // RunOptions::step_details
};

// Checks the scenario's fault and latency lines (errors are "file:line:col: ..."), the options
// and the tables' protocols. InvalidArgument: nothing can run.
Result<RunPlan> PlanRun(const Scenario& scenario, const RunOptions& options);

// How one step went.
enum class StepStatus {
  kNotRun,   // the writer stopped before it
  kSkipped,  // passed over after a crash, on the way to the next restart
  kOk,
  kFailed,
};
std::string_view StepStatusName(StepStatus s);  // "not run", "skipped", "ok", "failed"

// A counter step's values, for the history (step_end's `counter`) and a lost update's explanation.
struct CounterStepValues {
  std::string action = {};  // read, add, commit
  std::string key = {};
  int64_t read = 0;     // the value read (commit: the read the committed value was computed from)
  int64_t read_at = 0;  // the metadata version it was read at
  int64_t value = 0;    // add: the value written; commit: the value committed; read: as read
};

struct StepResult {
  StepStatus status = StepStatus::kNotRun;
  Outcome outcome = Outcome::kOk;  // kFailed: how it failed
  std::string error = {};          // kFailed: the whole message
  // commit: snapshots it published (also before it failed); filter-and-commit: committables.
  int64_t committed = 0;
  std::string detail = {};  // what it did, for narration: "data-...-0.parquet", "compactBefore = [...]"
  std::optional<CounterStepValues> counter = {};  // counter read, add and commit
};

// What a run's report keeps of a step once it has ended: what expectations read. The step's detail
// and counter values are told while it ends (RunObserver::OnStep, the history) and not kept: a
// million-commit race would hold two of them a commit.
// Its error, if it failed, is kept apart (WriterReport::StepError): most steps have none.
struct StepRecord {
  StepStatus status = StepStatus::kNotRun;
  Outcome outcome = Outcome::kOk;  // kFailed: how it failed
  int64_t committed = 0;           // as StepResult::committed
};

// The counters of `expect writer W COUNTER` and `expect tally COUNTER`: core's one tally, as the
// engines count it and the runner sums it (per writer over its committers, per run over its writers).
using Counters = CommitStats;
// The value `expect ... COUNTER` compares.
int64_t CounterValue(const Counters& c, Counter counter);

struct WriterReport {
  std::string name = {};
  std::string user = {};
  Counters counters = {};  // over every committer it had (a restart makes a new one)
  int crashes = 0;
  // How the script ended: kOk when it reached its end (a crash followed by a restart that went on
  // counts as recovered); otherwise the failure that stopped it, with its message.
  Outcome outcome = Outcome::kOk;
  std::string error = {};              // "" when kOk
  std::vector<StepRecord> steps = {};  // one per Writer::steps entry
  // The whole message of each failed step, by step index, in step order.
  std::vector<std::pair<size_t, std::string>> step_errors = {};

  // Step `i`'s error: "" unless it failed.
  std::string_view StepError(size_t i) const;
};

// Iceberg and Delta tables are reported in the same shape: an Iceberg snapshot's id is its
// sequence number (1, 2, ... along the table's one line; expired ones are missing), a Delta
// snapshot is a log version after the table's creation (version 0).
struct TableReport {
  std::string name = {};
  Protocol protocol = {};
  SnapshotChain chain = {};  // read back from the store, ids 1..latest (shared with it, not copied)
  // Per chain entry: Iceberg's or Delta's operation. Empty for a Paimon table: the kind is its
  // operation (operation()).
  std::vector<std::string> operations = {};
  int64_t latest_snapshot = 0;
  int64_t orphan_files = 0;                      // manifests and data files no snapshot of the chain references
  std::map<std::string, int64_t> counters = {};  // Iceberg counters (iceberg_counter.h) in the current snapshot

  // The operation of chain entry `i`: its entry in `operations`, or else its kind.
  std::string_view operation(size_t i) const {
    return i < operations.size() ? std::string_view(operations[i]) : CommitKindName(chain[i].kind);
  }
};

struct ViolationReport {
  sim::Violation violation = {};
  bool expected = false;  // an `expect invariant-violation` line names its kind
};

struct ExpectationResult {
  SourcePos pos = {};
  std::string where = {};  // "file:line"
  std::string text = {};   // the line as written
  bool passed = false;
  std::string seen = {};  // what the run showed
};

struct RunReport {
  std::string scenario = {};  // the file name as given
  std::string title = {};
  RunPlan plan = {};
  std::vector<TableReport> tables = {};  // in declaration order; expectations look at the first
  std::vector<WriterReport> writers = {};
  Counters tally = {};
  std::vector<ViolationReport> violations = {};
  std::vector<ExpectationResult> expectations = {};
  // The script could not go on as written: an order gate that can never open, a deadlock, a
  // checkpoint not saved yet, a compaction of files that do not exist. Each fails the run.
  std::vector<std::string> run_errors = {};
  std::vector<std::string> fired_faults = {};  // the first ScriptedFaultPlan::kMaxFiredKept
  int64_t fired_faults_total = 0;              // all of them
  std::string schedule = {};                   // simulated runs: the schedule string to replay
  std::string drawn_settings = {};             // what the strategy drew when the run started ("" if nothing)
  int64_t virtual_micros = 0;                  // simulated runs: when the last writer finished

  const TableReport& table() const { return tables.front(); }
  int64_t latest_snapshot() const { return tables.empty() ? 0 : table().latest_snapshot; }
  bool invariants_ok() const;  // every violation found is one the scenario expects
  int expectations_passed() const;
  int expectations_failed() const;
  bool ok() const { return invariants_ok() && expectations_failed() == 0 && run_errors.empty(); }
};

// Called from the writers as the run goes (serialized by the runner, also on OS threads).
class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // Once, before any writer's first step; `drawn` is what the strategy drew ("" if nothing).
  virtual void OnStart(const RunPlan& plan, const std::string& drawn) {
    (void)plan;
    (void)drawn;
  }
  // Each snapshot once, in id order: right after its writer was told of the publish (also of one
  // whose outcome it could not know), or at the end of the step during which it appeared. Only
  // when wants_snapshots(): reading them back costs store reads the run would not make.
  virtual bool wants_snapshots() const { return true; }
  virtual void OnSnapshot(const Table& table, const Snapshot& s) {
    (void)table;
    (void)s;
  }
  // After each step that ran or failed (not after steps skipped or never reached).
  virtual void OnStep(const Writer& writer, const Step& step, const StepResult& result) {
    (void)writer;
    (void)step;
    (void)result;
  }
};

// The moment a writer's read of the latest snapshot, or its publish, takes effect on its table
// (Paimon's snapshot store, Iceberg's catalog, Delta's log). Called on the writer's own fiber.
class EffectGate {
 public:
  enum class Effect { kRead, kPublish };
  virtual ~EffectGate() = default;
  // Once, before the writers run.
  virtual void Attach(sim::Scheduler* scheduler) = 0;
  // Before the effect; may block the writer in the scheduler until it may go on.
  virtual void Before(size_t writer, Effect effect) = 0;
  // After it: what a read saw (`snapshot`), or which snapshot a publish tried and its outcome (a
  // read's outcome is kPublished, and means nothing).
  virtual void After(size_t writer, Effect effect, int64_t snapshot, PublishOutcome outcome) = 0;
};

// The chooser for `--maybe-faults MODE`: "skip" (never fire), "fire" (always); empty for "draw"
// (p = 1/2 from the run's stream) and for anything else.
sim::ScriptedFaultPlan::Chooser MaybeFaultChooser(std::string_view mode);

// Runs the scenario. Errors (InvalidArgument) are input errors: a bad fault or latency line, a
// store that cannot be opened, a replayed schedule that diverged. Everything else is in the report.
Result<RunReport> RunScenario(const Scenario& scenario, const RunOptions& options);

// --- text forms of a report (runner_text.cc; JSON: report_json.h) ------------------------------

// "snapshot 5  COMPACT  user=compact-job-1  identifier=1  total=3"
std::string SnapshotLine(const Snapshot& s);
// "PASS scenarios/x.scn:34  expect latest-snapshot 6  (saw 6)"
std::string ExpectationLine(const ExpectationResult& e);
// "invariants: ok (...)" or "invariants: VIOLATED" and one line per violation.
std::vector<std::string> InvariantLines(const RunReport& r);
// "atomic commit failures: 18 (job-A 7, job-B 11)"
std::string AtomicFailuresLine(const RunReport& r);
// What made a run fail, in one line: "lost, duplicate; 2 expectation(s) failed; 1 run error(s)"
// (the kinds of unexpected violation); "" for a run that held.
std::string FailureSummary(const RunReport& r);
// One thing that made a run fail: an unexpected violation (its kind, "lost"), a failed
// expectation ("expect FILE:LINE") or a run error ("run error"), and what it said.
struct RunFailure {
  std::string kind = {};
  std::string detail = {};
};
std::vector<RunFailure> RunFailures(const RunReport& r);
// "{job-A=30, job-B=30}": snapshots per commit user of the first table.
std::string PerUserLine(const RunReport& r);
std::string PerUserLine(const TableReport& t);

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_RUNNER_H_
