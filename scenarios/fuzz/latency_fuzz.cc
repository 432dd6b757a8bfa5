// libFuzzer target for --latency specs (sim/latency.h): any text parses or is refused with
// InvalidArgument; a parsed model formats to its canonical spec, which parses back to it.
#include "commitlab/sim/latency.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using commitlab::fuzz::Check;
  commitlab::Result<commitlab::sim::LatencyModel> m =
      commitlab::sim::ParseLatencyModel(commitlab::fuzz::AsText(data, size));
  if (!m.ok()) {
    Check(m.status().code() == commitlab::Code::kInvalidArgument);
    return 0;
  }
  commitlab::Result<commitlab::sim::LatencyModel> again =
      commitlab::sim::ParseLatencyModel(commitlab::sim::FormatLatencyModel(*m));
  Check(again.ok() && *again == *m);
  return 0;
}
