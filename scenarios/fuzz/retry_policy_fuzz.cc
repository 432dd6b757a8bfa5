// libFuzzer target for --policy specs (core/retry_policy.h): any text parses or is refused with
// InvalidArgument; a parsed policy formats to its canonical spec, which parses back to it.
#include "commitlab/core/retry_policy.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using commitlab::fuzz::Check;
  commitlab::Result<commitlab::RetryPolicy> p = commitlab::ParseRetryPolicy(commitlab::fuzz::AsText(data, size));
  if (!p.ok()) {
    Check(p.status().code() == commitlab::Code::kInvalidArgument);
    return 0;
  }
  commitlab::Result<commitlab::RetryPolicy> again = commitlab::ParseRetryPolicy(commitlab::FormatRetryPolicy(*p));
  Check(again.ok() && *again == *p);
  return 0;
}
