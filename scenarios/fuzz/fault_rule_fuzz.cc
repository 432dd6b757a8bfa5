// libFuzzer target for --fault rules (sim/fault_spec.h): any text parses or is refused with
// InvalidArgument and an error column inside the text; a parsed rule formats to a spec that
// parses back to it.
#include "commitlab/sim/fault_spec.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using commitlab::fuzz::Check;
  size_t column = 0;
  commitlab::Result<commitlab::sim::FaultRule> r =
      commitlab::sim::ParseFaultRule(commitlab::fuzz::AsText(data, size), &column);
  if (!r.ok()) {
    Check(r.status().code() == commitlab::Code::kInvalidArgument && column <= size);
    return 0;
  }
  commitlab::Result<commitlab::sim::FaultRule> again =
      commitlab::sim::ParseFaultRule(commitlab::sim::FormatFaultRule(*r));
  Check(again.ok() && *again == *r);
  return 0;
}
