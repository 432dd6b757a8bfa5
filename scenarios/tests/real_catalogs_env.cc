// Every scenario test may run a file whose Iceberg table is on a real server (catalog=rest-server):
// the CLI's opener is installed before any test, as commitlab's main() installs it.
#include <gtest/gtest.h>

#include "catalog/real_catalogs.h"

namespace {

class RealCatalogsEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { commitlab::cli::InstallRealCatalogs(); }
};

const ::testing::Environment* const kInstalled = ::testing::AddGlobalTestEnvironment(new RealCatalogsEnvironment);

}  // namespace
