#include "commitlab/scenarios/real_catalogs.h"

#include <fmt/format.h>

#include <utility>

#include "commitlab/core/mutex.h"

namespace commitlab::scenarios {
namespace {

Mutex& OpenerMutex() {
  static Mutex* const mu = new Mutex();
  return *mu;
}

RealCatalogOpener& Opener() {
  static RealCatalogOpener* const opener = new RealCatalogOpener();
  return *opener;
}

}  // namespace

void InstallRealCatalogs(RealCatalogOpener opener) {
  MutexLock l(&OpenerMutex());
  Opener() = std::move(opener);
}

Result<std::unique_ptr<RealCatalogTable>> OpenRealCatalog(const std::string& kind, const std::string& table) {
  RealCatalogOpener opener;
  {
    MutexLock l(&OpenerMutex());
    opener = Opener();
  }
  if (!opener)
    return Status::InvalidArgument(
        fmt::format("table {}: catalog={} needs a real server, which this program cannot reach (the commitlab CLI can)",
                    table, kind));
  return opener(kind, table);
}

}  // namespace commitlab::scenarios
