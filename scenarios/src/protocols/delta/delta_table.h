// A Delta table in a run: the engine's log, what writers were told (to check afterwards), and
// reading it back into a TableReport. The writers' side is delta_writer.cc.
//
// The check, in the words of sim/checker.h:
//   lost  an acknowledged version does not hold its writer's commit
#ifndef COMMITLAB_SCENARIOS_PROTOCOLS_DELTA_TABLE_H_
#define COMMITLAB_SCENARIOS_PROTOCOLS_DELTA_TABLE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/delta/log_store.h"
#include "commitlab/core/mutex.h"
#include "protocols/protocol.h"

namespace commitlab::scenarios::internal {

class DeltaTableRun final : public TableRun {
 public:
  explicit DeltaTableRun(const Table& table) : table_(table) {}

  const Table& table() const { return table_; }
  delta::DeltaLog* log() { return &log_; }
  // Version 0: CREATE TABLE with the table's partition columns and delta.isolationLevel.
  Status Create();
  Status Open() override { return Create(); }
  std::unique_ptr<TableLookup> MakeLookup() override;
  std::unique_ptr<ProtocolWriter> MakeWriter(ProtocolContext ctx) override;
  void Acknowledged(const std::string& user, int64_t version);
  void Report(TableReport* out, std::vector<sim::Violation>* violations, std::vector<std::string>* run_errors) override;

 private:
  const Table& table_;
  delta::MemoryDeltaLog log_;
  Mutex mu_;
  std::vector<std::pair<std::string, int64_t>> acknowledged_ GUARDED_BY(mu_);
};

// delta_writer.cc
std::unique_ptr<ProtocolWriter> MakeDeltaWriter(ProtocolContext ctx, DeltaTableRun* table);

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_PROTOCOLS_DELTA_TABLE_H_
