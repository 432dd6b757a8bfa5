// Paimon's module: its words, the fault points its committer passes, its defaults.
#include "protocols/paimon/paimon_module.h"

#include "protocols/paimon/paimon_table.h"

namespace commitlab::scenarios::internal {

const ProtocolWords& PaimonModule::words() const {
  static const ProtocolWords kWords{
      .chain_entry = "snapshot",
      .narrated = true,
      .invariants = "every acknowledged commit landed exactly once, ids contiguous, no file deleted that was not live"};
  return kWords;
}

// FileStoreCommitImpl passes every point of Committer::TryCommit (core/src/paimon/committer.cc);
// a catalog on a real server is Iceberg's.
bool PaimonModule::HasFaultPoint(const Table& table, std::string_view point) const {
  (void)table;
  return point != fault::kCatalogBefore && point != fault::kCatalogAfter;
}

std::unique_ptr<ProtocolRunState> PaimonModule::NewRunState() const { return std::make_unique<Checkpoints>(); }

std::unique_ptr<TableRun> PaimonModule::NewTableRun(const TableRunContext& ctx) const {
  return std::make_unique<PaimonTableRun>(ctx);
}

std::unique_ptr<ProtocolModule> MakePaimonModule() { return std::make_unique<PaimonModule>(); }

}  // namespace commitlab::scenarios::internal
