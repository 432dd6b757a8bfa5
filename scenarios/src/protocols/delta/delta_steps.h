// The steps of a Delta table's writers (scenarios/README.md, "Delta steps"): what the parser makes
// of each step line, read by the writer (delta_writer.cc) with OpAs / OpIf.
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_DELTA_STEPS_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_DELTA_STEPS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/scenarios/scenario.h"
#include "lang/filter_expr.h"

namespace commitlab::scenarios {

// begin: a new OptimisticTransaction at the latest version.
struct BeginOp final : StepOpBase<BeginOp> {
  std::string_view name() const override { return "begin"; }
};
// read: the transaction's filterFiles on a partition or by a filter, a full scan (neither), or
// `read whole-table` (readWholeTable()).
struct DeltaReadOp final : StepOpBase<DeltaReadOp> {
  std::string_view name() const override { return "read"; }

  std::string partition;
  std::optional<FilterSpec> filter;
  bool whole_table = false;
};
// add [file=F] [partition=P] [rows=N] [data-change=false].
struct AddOp final : StepOpBase<AddOp> {
  std::string_view name() const override { return "add"; }

  std::string file;  // "" = a fresh name
  std::string partition;
  int64_t rows = 1;
  bool data_change = true;
};
// remove files=F1,F2 [partition=P|{}] [data-change=false]: RemoveFile actions. As upstream, a
// remove is not checked against the snapshot: a file not live at the transaction's version is
// removed too (OptimisticTransactionLegacyTests removes B_P1, which the table never held).
struct RemoveOp final : StepOpBase<RemoveOp> {
  std::string_view name() const override { return "remove"; }
  size_t list_entries() const override { return files.size(); }

  std::vector<std::string> files;
  // The RemoveFile's partitionValues: unset = a live file's own (empty for a file not live);
  // "" = empty (partition={}), which a partitioned table's conflict checker must still handle.
  std::optional<std::string> partition;
  bool data_change = true;
};
// commit [op=OPERATION]: commits the transaction (INSERT, UPDATE, DELETE, MERGE, OPTIMIZE,
// STREAMING UPDATE).
struct DeltaCommitOp final : StepOpBase<DeltaCommitOp> {
  std::string_view name() const override { return "commit"; }
  bool publishes() const override { return true; }

  std::string operation = "INSERT";  // Delta's name
};
// txn app=ID version=N: the transaction records that application ID has committed its version N
// (SetTransaction), which makes a streaming batch idempotent.
struct TxnOp final : StepOpBase<TxnOp> {
  std::string_view name() const override { return "txn"; }

  std::string app;
  int64_t version = 0;
};
// read-txn app=ID: txnVersion(ID), the application's last committed version or -1 (recorded: a
// concurrent commit of the same app id conflicts).
struct ReadTxnOp final : StepOpBase<ReadTxnOp> {
  std::string_view name() const override { return "read-txn"; }

  std::string app;
};
// metadata [schema=TEXT]: a Metadata action (a schema change, ALTER TABLE), the table's metadata
// with the schema replaced when given; any concurrent transaction then fails with
// MetadataChangedException.
struct MetadataOp final : StepOpBase<MetadataOp> {
  std::string_view name() const override { return "metadata"; }

  std::string schema;  // "" keeps the table's
};
// protocol [reader-version=N] [writer-version=N]: a Protocol action (an upgrade), the table's
// protocol with the versions given replaced.
struct ProtocolOp final : StepOpBase<ProtocolOp> {
  std::string_view name() const override { return "protocol"; }

  std::optional<int32_t> reader_version;
  std::optional<int32_t> writer_version;
};

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_DELTA_STEPS_H_
