// Iceberg in the scenario language (protocols/protocol.h): the table line's isolation and catalog,
// the steps of Iceberg's table operations and of the lost-update counter (iceberg_steps.h), tables
// on a catalog in memory or on a real server, checked by IcebergTableRun.
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_ICEBERG_MODULE_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_ICEBERG_MODULE_H_

#include <memory>
#include <span>
#include <string_view>

#include "protocols/protocol.h"

namespace commitlab::scenarios::internal {

class IcebergModule final : public ProtocolModule {
 public:
  const ProtocolWords& words() const override;

  // iceberg_parse.cc
  std::span<const std::string_view> table_keys() const override;
  Status ParseTableKeys(const LineContext& ctx, const Args& args, Table* table) const override;
  std::span<const std::string_view> step_names() const override;
  std::unique_ptr<TableParseState> NewParseState() const override;
  Status ParseStep(const StepLine& line, Tokens toks, OpTemplate* out) const override;
  Status Instantiate(StepPostPass& pass, StepOp* op) const override;
  std::span<const std::string_view> operation_names() const override;
  bool keeps_counters() const override { return true; }

  // iceberg_module.cc
  RetryPolicy default_retry() const override { return IcebergDefaultPolicy(); }
  bool HasFaultPoint(const Table& table, std::string_view point) const override;
  std::string_view FaultPointOnlyIn(std::string_view point) const override;
  std::unique_ptr<TableRun> NewTableRun(const TableRunContext& ctx) const override;
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_ICEBERG_MODULE_H_
