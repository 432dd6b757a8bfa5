// Iceberg's module: its words, the fault points its committer passes, its defaults.
#include "protocols/iceberg/iceberg_module.h"

#include "protocols/iceberg/iceberg_table.h"

namespace commitlab::scenarios::internal {
namespace {

bool IsCatalogPoint(std::string_view point) { return point == fault::kCatalogBefore || point == fault::kCatalogAfter; }

}  // namespace

const ProtocolWords& IcebergModule::words() const {
  static const ProtocolWords kWords{
      .chain_entry = "snapshot",
      .narrated = false,
      .invariants =
          "the snapshots form one line, every acknowledged snapshot is retained or was expired, no file a "
          "retained snapshot reaches is gone, every counter holds its acknowledged increments"};
  return kWords;
}

// IcebergCommitter passes every point of its commit (core/src/iceberg/committer.cc); only the
// clients of a catalog on a real server (core/catalogs) pass catalog.before and catalog.after.
bool IcebergModule::HasFaultPoint(const Table& table, std::string_view point) const {
  if (!IsCatalogPoint(point)) return true;
  return table.catalog == "jdbc" || table.catalog == "rest-server";
}

std::string_view IcebergModule::FaultPointOnlyIn(std::string_view point) const {
  if (!IsCatalogPoint(point)) return {};
  return "an Iceberg table whose catalog is on a real server (catalog=jdbc or rest-server)";
}

std::unique_ptr<TableRun> IcebergModule::NewTableRun(const TableRunContext& ctx) const {
  return std::make_unique<IcebergTableRun>(ctx.scenario->tables[ctx.table]);
}

std::unique_ptr<ProtocolModule> MakeIcebergModule() { return std::make_unique<IcebergModule>(); }

}  // namespace commitlab::scenarios::internal
