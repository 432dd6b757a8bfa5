// libFuzzer target for the history reader: each line as `commitlab replay` reads it
// (sim::ParseHistoryLine), and the first as the header it checks (scenarios::CheckHistoryHeader)
// and turns into run options and a scenario. Errors are InvalidArgument; nothing crashes.
#include <string>

#include "commitlab/scenarios/replay.h"
#include "commitlab/sim/history.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using commitlab::fuzz::Check;
  std::string_view rest = commitlab::fuzz::AsText(data, size);
  for (size_t n = 1; !rest.empty(); ++n) {
    const size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    commitlab::Result<commitlab::sim::Json> j = commitlab::sim::ParseHistoryLine(line, n);
    if (!j.ok()) {
      Check(j.status().code() == commitlab::Code::kInvalidArgument &&
            j.status().message().starts_with("line " + std::to_string(n) + ":"));
      continue;
    }
    if (n != 1) continue;
    if (!commitlab::scenarios::CheckHistoryHeader(*j).ok()) continue;
    // A header that passed its check must give options and a scenario, or say why not.
    auto options = commitlab::scenarios::RecordedRunOptions(*j);
    Check(options.ok() || options.status().code() == commitlab::Code::kInvalidArgument);
    auto scenario = commitlab::scenarios::RecordedScenario(*j);
    Check(scenario.ok() || scenario.status().code() == commitlab::Code::kInvalidArgument);
  }
  return 0;
}
