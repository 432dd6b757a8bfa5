// Placeholder until its issue lands: the command exists so the CLI's table is complete.
#include "cli.h"

namespace commitlab::cli {

int RunLab(const std::vector<std::string>&) { return UsageError("lab", "not built yet"); }

}  // namespace commitlab::cli
