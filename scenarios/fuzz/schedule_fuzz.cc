// libFuzzer target for schedule strings (sim/schedule.h, --schedule): any text parses or is
// refused with InvalidArgument; a parsed schedule formats to the same schedule.
#include "commitlab/sim/schedule.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using commitlab::fuzz::Check;
  commitlab::Result<commitlab::sim::RecordedSchedule> s =
      commitlab::sim::ParseSchedule(commitlab::fuzz::AsText(data, size));
  if (!s.ok()) {
    Check(s.status().code() == commitlab::Code::kInvalidArgument);
    return 0;
  }
  Check(s->steps() >= 0);
  commitlab::Result<commitlab::sim::RecordedSchedule> again =
      commitlab::sim::ParseSchedule(commitlab::sim::FormatSchedule(*s));
  Check(again.ok() && *again == *s);
  return 0;
}
