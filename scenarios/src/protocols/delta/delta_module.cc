// Delta's module: its words, the fault points its transaction passes, its defaults.
#include "protocols/delta/delta_module.h"

#include "protocols/delta/delta_table.h"

namespace commitlab::scenarios::internal {

const ProtocolWords& DeltaModule::words() const {
  static const ProtocolWords kWords{.chain_entry = "version",
                                    .narrated = false,
                                    .invariants = "every acknowledged version holds its writer's commit"};
  return kWords;
}

// OptimisticTransaction::Commit (core/src/delta/transaction.cc) writes no manifest before its
// commit: the log entry is the commit. A catalog on a real server is Iceberg's.
bool DeltaModule::HasFaultPoint(const Table& table, std::string_view point) const {
  (void)table;
  return point != fault::kManifestBefore && point != fault::kCatalogBefore && point != fault::kCatalogAfter;
}

std::string_view DeltaModule::WhyNoFaultPoint(std::string_view point) const {
  return point == fault::kManifestBefore ? "a Delta commit writes no manifest first" : "";
}

std::unique_ptr<TableRun> DeltaModule::NewTableRun(const TableRunContext& ctx) const {
  return std::make_unique<DeltaTableRun>(ctx.scenario->tables[ctx.table]);
}

std::unique_ptr<ProtocolModule> MakeDeltaModule() { return std::make_unique<DeltaModule>(); }

}  // namespace commitlab::scenarios::internal
