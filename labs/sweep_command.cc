// Placeholder until its issue lands: the command exists so the CLI's table is complete.
#include "cli.h"

namespace commitlab::cli {

int RunSweep(const std::vector<std::string>&) { return UsageError("sweep", "not built yet"); }

}  // namespace commitlab::cli
