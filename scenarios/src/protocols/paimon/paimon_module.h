// Paimon in the scenario language (protocols/protocol.h): the table line's primary-key, buckets,
// levels and ignore-empty-commit, the writer line's buckets and strict mode, the steps of a Flink
// writer and committer (paimon_steps.h), tables on a snapshot store (memory, a directory, an
// object store) checked by sim/checker.h.
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_MODULE_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_MODULE_H_

#include <memory>
#include <span>
#include <string_view>

#include "protocols/protocol.h"

namespace commitlab::scenarios::internal {

class PaimonModule final : public ProtocolModule {
 public:
  const ProtocolWords& words() const override;

  // paimon_parse.cc
  std::span<const std::string_view> table_keys() const override;
  Status ParseTableKeys(const LineContext& ctx, const Args& args, Table* table) const override;
  std::span<const std::string_view> writer_keys() const override;
  Status ParseWriterKeys(const LineContext& ctx, const Args& args, Writer* writer) const override;
  std::span<const std::string_view> step_names() const override;
  Status ParseStep(const StepLine& line, Tokens toks, OpTemplate* out) const override;
  Status Instantiate(StepPostPass& pass, StepOp* op) const override;
  std::span<const std::string_view> operation_names() const override;

  // paimon_module.cc
  bool uses_snapshot_store() const override { return true; }
  RetryPolicy default_retry() const override { return PaimonDefaultPolicy(); }
  bool HasFaultPoint(const Table& table, std::string_view point) const override;
  std::unique_ptr<ProtocolRunState> NewRunState() const override;
  std::unique_ptr<TableRun> NewTableRun(const TableRunContext& ctx) const override;
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_PAIMON_MODULE_H_
