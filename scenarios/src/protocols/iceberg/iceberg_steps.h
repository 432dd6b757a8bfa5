// The steps of an Iceberg table's writers (scenarios/README.md, "Iceberg steps"): what the parser
// makes of each step line, read by the writer (iceberg_writer.cc) with OpAs / OpIf.
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_ICEBERG_STEPS_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_ICEBERG_STEPS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/iceberg/operation.h"
#include "commitlab/scenarios/iceberg_counter.h"
#include "commitlab/scenarios/scenario.h"
#include "lang/filter_expr.h"

namespace commitlab::scenarios {

// The rows of one new data file: {id: k} for k in [min_key, max_key], assigned like `write` keys.
struct DataSpec {
  int64_t rows = 1;
  int64_t min_key = 0;
  int64_t max_key = 0;
  std::string partition;  // "" or "dt=2024-01-01"
};

// read: reads the catalog pointer and pins its current snapshot; the writer's next operation
// starts from it (validates what was committed since) and `scan` reads its files.
struct ReadOp final : StepOpBase<ReadOp> {
  std::string_view name() const override { return "read"; }
};
// scan: reads every file the last `read` planned (a long query's tasks).
struct ScanOp final : StepOpBase<ScanOp> {
  std::string_view name() const override { return "scan"; }
};
// append: one new data file, committed as MergeAppend.
struct AppendOp final : StepOpBase<AppendOp> {
  std::string_view name() const override { return "append"; }
  bool publishes() const override { return true; }

  DataSpec data;
};
// overwrite filter=C=V: a new file replacing the rows matching the filter.
struct OverwriteOp final : StepOpBase<OverwriteOp> {
  std::string_view name() const override { return "overwrite"; }
  bool publishes() const override { return true; }

  FilterSpec filter;
  DataSpec data;
  std::string isolation;  // "" = the table's
  // validate=data,deletes | validate=none; unset = as the isolation level asks.
  std::optional<iceberg::OverwriteValidation> validation;
};
// delete filter=C=V: Spark's copy-on-write DELETE of the files the filter matches.
struct DeleteOp final : StepOpBase<DeleteOp> {
  std::string_view name() const override { return "delete"; }
  bool publishes() const override { return true; }

  FilterSpec filter;
  std::string isolation;  // "" = the table's
};
// replace-partitions: ReplacePartitions (dynamic partition overwrite) adding one new file per
// partition listed, which drops every live file of those partitions.
struct ReplacePartitionsOp final : StepOpBase<ReplacePartitionsOp> {
  std::string_view name() const override { return "replace-partitions"; }
  bool publishes() const override { return true; }

  std::vector<DataSpec> files;  // one per partition, in the order written
  iceberg::ReplaceValidation validation;
  bool validate_from_start = false;  // validate-from=start: no validateFromSnapshot, the whole history
};
// row-delta: a RowDelta (merge-on-read DELETE/UPDATE/MERGE) of position deletes for the rows a
// filter matches, an equality delete of some ids, and/or a new data file.
struct RowDeltaOp final : StepOpBase<RowDeltaOp> {
  std::string_view name() const override { return "row-delta"; }
  bool publishes() const override { return true; }

  std::optional<FilterSpec> delete_filter;                 // position deletes of the live rows it matches
  std::optional<std::pair<int64_t, int64_t>> delete_keys;  // an equality delete on id, LO..HI
  std::optional<DataSpec> data;                            // a new data file (rows=/keys=)
  std::string partition;                                   // of the equality delete (and the new data)
  std::optional<FilterSpec> conflict_filter;               // conflictDetectionFilter; alwaysTrue when unset
  iceberg::RowDeltaValidation validation;
  bool validate_from_start = false;
};
// rewrite [partition=P]: compaction of the live files (of P) into one.
struct RewriteOp final : StepOpBase<RewriteOp> {
  std::string_view name() const override { return "rewrite"; }
  bool publishes() const override { return true; }

  std::string partition;
};
// schema id=N: a schema change (no snapshot).
struct SchemaOp final : StepOpBase<SchemaOp> {
  std::string_view name() const override { return "schema"; }
  bool publishes() const override { return true; }

  int32_t schema_id = 1;
};
// expire [retain-last=N]: expire_snapshots keeping the newest N ancestors.
struct ExpireOp final : StepOpBase<ExpireOp> {
  std::string_view name() const override { return "expire"; }
  bool publishes() const override { return true; }
  bool shares_state() const override { return true; }  // deletes files

  int32_t retain_last = 1;
};
// orphans count / orphans clean: find (and remove) files no snapshot reaches.
// `older-than=DURATION`: only files written at least that long before the step count (upstream's
// remove_orphan_files guard, 3 days by default, so that a commit in flight keeps its files).
// Unset: every unreachable file, also an in-flight commit's.
struct OrphansOp final : StepOpBase<OrphansOp> {
  std::string_view name() const override { return "orphans"; }
  bool shares_state() const override { return true; }  // deletes files

  bool clean = false;
  std::optional<int64_t> older_than_micros;
};
// The lost-update counter (iceberg_counter.h): a one-row file {name: KEY, value: N} per value.
struct CounterOp final : StepOpBase<CounterOp> {
  std::string_view name() const override { return "counter"; }
  bool publishes() const override { return action == Action::kInit || action == Action::kCommit; }

  enum class Action { kInit, kRead, kAdd, kCommit };
  Action action = Action::kRead;
  std::string key;    // init, read
  int64_t value = 0;  // init: the value; add: the increment
  // commit: what a ValidationException makes it do (give-up, recommit-stale, reread).
  OnValidationFailure on_validation = OnValidationFailure::kGiveUp;
};

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_ICEBERG_STEPS_H_
