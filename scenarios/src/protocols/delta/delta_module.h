// Delta in the scenario language (protocols/protocol.h): the table line's isolation and flavour,
// the steps of an OptimisticTransaction (delta_steps.h), tables on a log in memory, checked by
// DeltaTableRun.
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_DELTA_MODULE_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_DELTA_MODULE_H_

#include <memory>
#include <span>
#include <string_view>

#include "protocols/protocol.h"

namespace commitlab::scenarios::internal {

class DeltaModule final : public ProtocolModule {
 public:
  const ProtocolWords& words() const override;

  // delta_parse.cc
  std::span<const std::string_view> table_keys() const override;
  Status ParseTableKeys(const LineContext& ctx, const Args& args, Table* table) const override;
  std::span<const std::string_view> step_names() const override;
  Status ParseStep(const StepLine& line, Tokens toks, OpTemplate* out) const override;
  std::span<const std::string_view> operation_names() const override;

  // delta_module.cc
  // Delta never waits between attempts (doCommitRetryIteratively retries a lost version at
  // once) and ignores the policy; a run's plan shows Paimon's, as it always has.
  RetryPolicy default_retry() const override { return PaimonDefaultPolicy(); }
  bool HasFaultPoint(const Table& table, std::string_view point) const override;
  std::string_view WhyNoFaultPoint(std::string_view point) const override;
  std::unique_ptr<TableRun> NewTableRun(const TableRunContext& ctx) const override;
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_DELTA_MODULE_H_
