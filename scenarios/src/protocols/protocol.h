// One protocol of the scenario language behind one interface: everything the shared parser
// (lang/), runner (run/), reports and labs ask of Paimon, Iceberg, Delta or a test's toy protocol.
// Each implements it in its own folder, scenarios/src/protocols/<p>/:
//   <p>_steps.h    its steps (StepOp), read by its writer with OpAs / OpIf
//   <p>_parse.cc   its table and writer keys and its steps' words, parsed
//   <p>_writer.cc  its ProtocolWriter: one writer's steps on the protocol's engine (core/<p>/)
//   <p>_table.*    its TableRun: the table's state in a run, what writers were told, the checks
//   <p>_history.*  its history: per-writer handles that note each call, and the table's lookups
//   <p>_module.cc  the ProtocolModule: its words, fault points and defaults
// and registry.cc lists it, one line per protocol.
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_PROTOCOL_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_PROTOCOL_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/env.h"
#include "commitlab/core/events.h"
#include "commitlab/core/model.h"
#include "commitlab/core/retry_policy.h"
#include "commitlab/core/status.h"
#include "commitlab/scenarios/protocols.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/scenarios/scenario.h"
#include "commitlab/sim/checker.h"
#include "commitlab/sim/step_access.h"
#include "lang/args.h"
#include "lang/step_parse.h"

namespace commitlab::scenarios::internal {

class TableLookup;
class WriterHistory;

// ---- A writer ----------------------------------------------------------------------------------

// What a protocol writer is given. `script_error` turns a mistake of the script that only a run
// can find into the step's error (and marks it as a run error).
struct ProtocolContext {
  const Scenario* scenario = nullptr;
  const Writer* writer = nullptr;
  Env* env = nullptr;  // the writer's PointEnv
  EventSink* events = nullptr;
  WriterHistory* history = nullptr;  // null when the run keeps no history
  RetryPolicy retry = {};
  bool idempotency_check = true;
  bool step_details = true;  // RunOptions::step_details: false when nobody reads StepResult::detail
  std::function<Status(std::string)> script_error = {};
  // Before touching state shared with other writers outside the storage brackets (which Iceberg
  // counters are initialised): Scheduler::OpaqueStep in a simulated run; may be empty.
  std::function<void(sim::StepAccess)> opaque_step = {};
};

// How one writer runs its steps on its table's engine. WriterRun (run/runner_writer.h) keeps the
// script (gates, failures, outcomes) and hands each step to it.
class ProtocolWriter {
 public:
  virtual ~ProtocolWriter() = default;
  // Runs one step of the writer's script (parsed for this protocol).
  virtual Status Run(const Step& step, StepResult* r) = 0;
  // The writer's counters so far, without orphan files.
  virtual Counters counters() const = 0;
  // Once its table has reported: the files this writer wrote that no snapshot references.
  virtual int64_t orphan_files() const { return 0; }
  // Whether a failed step its engine did not report gets an ERROR event from the runner, so that
  // the log and the history show every failure. (Paimon's outcome recorder reads ERROR events as
  // commit outcomes: its script errors stay run errors.)
  virtual bool reports_silent_failures() const { return true; }
};

// ---- A table ---------------------------------------------------------------------------------

// What a protocol shares between its tables in one run (Paimon's saved checkpoints, which any
// writer may commit); made once per run by ProtocolModule::NewRunState.
class ProtocolRunState {
 public:
  virtual ~ProtocolRunState() = default;
};

// What a table run is given when the run opens its table.
struct TableRunContext {
  const Scenario* scenario = nullptr;
  size_t table = 0;  // index into scenario->tables
  const RunOptions* options = nullptr;
  const RunPlan* plan = nullptr;
  ProtocolRunState* shared = nullptr;  // null when the protocol has none
};

// One table in one run: its engine's storage, what writers were told, and afterwards the chain
// read back and checked. Writers on OS threads use it concurrently.
class TableRun {
 public:
  virtual ~TableRun() = default;

  // Opens the table's storage. InvalidArgument saying why when it cannot be had (a directory
  // that already holds a table, a server that is not there).
  virtual Status Open() = 0;
  // Sinks of the table's events besides the caller's (an outcome recorder for its checks).
  virtual void AddSinks(std::vector<EventSink*>* sinks) { (void)sinks; }
  // Once the run's Env exists, before the lookup and the writers are made.
  virtual void Start(Env* env) { (void)env; }
  // Who committed what, read from the table without the Env (run/runner_history.h).
  virtual std::unique_ptr<TableLookup> MakeLookup() = 0;
  virtual std::unique_ptr<ProtocolWriter> MakeWriter(ProtocolContext ctx) = 0;
  // A narrated protocol's (ProtocolWords::narrated): `show` each snapshot up to `id` (the latest
  // when nullopt) not shown yet, in id order. The caller serializes the calls.
  virtual void ShowSnapshots(std::optional<int64_t> id, const std::function<void(const Snapshot&)>& show) {
    (void)id;
    (void)show;
  }
  // After every writer has finished: the chain, counters and orphans into `out`; violations and
  // run errors (the run could not test the protocol) appended.
  virtual void Report(TableReport* out, std::vector<sim::Violation>* violations,
                      std::vector<std::string>* run_errors) = 0;
};

// ---- The protocol ----------------------------------------------------------------------------

class ProtocolModule {
 public:
  virtual ~ProtocolModule() = default;

  virtual const ProtocolWords& words() const = 0;

  // -- The table and writer lines.
  // Keys of a `table` line this protocol takes besides name, protocol and partitions.
  virtual std::span<const std::string_view> table_keys() const = 0;
  // Reads them into `table` (named, with its protocol) and sets the defaults of those not given.
  virtual Status ParseTableKeys(const LineContext& ctx, const Args& args, Table* table) const = 0;
  // Keys of a `writer` line besides name, user and table.
  virtual std::span<const std::string_view> writer_keys() const { return {}; }
  virtual Status ParseWriterKeys(const LineContext& ctx, const Args& args, Writer* writer) const {
    (void)ctx;
    (void)args;
    (void)writer;
    return Status::OK();
  }

  // -- Steps.
  // Its steps' names, in the order messages list them.
  virtual std::span<const std::string_view> step_names() const = 0;
  // Per table, while the file is parsed; null when it keeps nothing.
  virtual std::unique_ptr<TableParseState> NewParseState() const { return nullptr; }
  // Parses one step: toks[0] is one of step_names().
  virtual Status ParseStep(const StepLine& line, Tokens toks, OpTemplate* out) const = 0;
  // The post-pass over one instantiated step (a fresh copy of the template's op).
  virtual Status Instantiate(StepPostPass& pass, StepOp* op) const {
    (void)pass;
    (void)op;
    return Status::OK();
  }

  // -- Expectations.
  // The names `expect snapshot ... operation=` takes ('-' for a space).
  virtual std::span<const std::string_view> operation_names() const = 0;
  // Whether its tables keep counters (`expect counter KEY ...`).
  virtual bool keeps_counters() const { return false; }

  // -- The run.
  // Whether its tables are a snapshot store (core/paimon/store.h) that a directory or an object
  // store can hold (`--dir`, `store object:MODE`); the others keep their own state in memory.
  virtual bool uses_snapshot_store() const { return false; }
  // The retry policy when the scenario has no retry line and its first table is of this protocol.
  virtual RetryPolicy default_retry() const = 0;
  // Whether a commit to `table` passes fault point `point` (core/.../env.h, namespace fault).
  virtual bool HasFaultPoint(const Table& table, std::string_view point) const = 0;
  // For a point only some of its tables pass: which ("an Iceberg table whose catalog is ...").
  virtual std::string_view FaultPointOnlyIn(std::string_view point) const {
    (void)point;
    return {};
  }
  // For a point it never passes: why ("a Delta commit writes no manifest first").
  virtual std::string_view WhyNoFaultPoint(std::string_view point) const {
    (void)point;
    return {};
  }
  // Once per run in which it has a table; null when its tables share nothing.
  virtual std::unique_ptr<ProtocolRunState> NewRunState() const { return nullptr; }
  virtual std::unique_ptr<TableRun> NewTableRun(const TableRunContext& ctx) const = 0;
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_PROTOCOL_H_
