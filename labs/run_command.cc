// Placeholder until its issue lands: the command exists so the CLI's table is complete.
#include "cli.h"

namespace commitlab::cli {

int RunScenario(const std::vector<std::string>&) { return UsageError("run", "not built yet"); }

}  // namespace commitlab::cli
