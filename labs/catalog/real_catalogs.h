// The CLI's opener of catalogs on real servers for scenario tables (catalog=jdbc, rest-server).
#ifndef COMMITLAB_LABS_REAL_CATALOGS_H_
#define COMMITLAB_LABS_REAL_CATALOGS_H_

#include "commitlab/scenarios/real_catalogs.h"

namespace commitlab::cli {

// Installs it (scenarios::InstallRealCatalogs); main() does, before any command runs.
void InstallRealCatalogs();

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_REAL_CATALOGS_H_
