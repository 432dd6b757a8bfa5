// Catalogs on real servers for the Iceberg tables of a run (`catalog=jdbc`, `catalog=rest-server`).
// This library reaches no server itself: a binary that can installs an opener at start-up (the
// CLI's, labs/catalog/real_catalogs.cc, on core/catalogs), and a run of such a table without one is
// refused with a message saying so.
#ifndef COMMITLAB_SCENARIOS_REAL_CATALOGS_H_
#define COMMITLAB_SCENARIOS_REAL_CATALOGS_H_

#include <functional>
#include <memory>
#include <string>

#include "commitlab/core/env.h"
#include "commitlab/core/iceberg/catalog.h"
#include "commitlab/core/status.h"

namespace commitlab::scenarios {

// One table's catalog on a real server, for the length of a run.
class RealCatalogTable {
 public:
  virtual ~RealCatalogTable() = default;
  // The catalog the run reads the table through.
  virtual iceberg::IcebergCatalog* catalog() = 0;
  // A client of its own for `writer`, which asks `env` at catalog.before and catalog.after (so
  // that one writer's injected delay never holds another's connection).
  virtual Result<std::unique_ptr<iceberg::IcebergCatalog>> WriterCatalog(const std::string& writer, Env* env) = 0;
};

// Opens table `table` (new and empty) on a catalog of `kind` ("jdbc" or "rest-server").
using RealCatalogOpener =
    std::function<Result<std::unique_ptr<RealCatalogTable>>(const std::string& kind, const std::string& table)>;

// Thread-safe; replaces any earlier opener.
void InstallRealCatalogs(RealCatalogOpener opener);
// InvalidArgument when no opener is installed.
Result<std::unique_ptr<RealCatalogTable>> OpenRealCatalog(const std::string& kind, const std::string& table);

}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_REAL_CATALOGS_H_
