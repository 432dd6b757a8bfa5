// libFuzzer target for the snapshot decoder (core/paimon/snapshot_codec.h): any bytes give a Snapshot or
// a Corruption naming the path; a decoded snapshot encodes to text that decodes to it again.
#include "commitlab/core/paimon/snapshot_codec.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using commitlab::fuzz::Check;
  commitlab::Result<commitlab::Snapshot> s = commitlab::DecodeSnapshot(commitlab::fuzz::AsText(data, size), "fuzz");
  if (!s.ok()) {
    Check(s.status().code() == commitlab::Code::kCorruption && s.status().message().starts_with("fuzz: "));
    return 0;
  }
  commitlab::Result<commitlab::Snapshot> again = commitlab::DecodeSnapshot(commitlab::EncodeSnapshot(*s), "again");
  Check(again.ok() && *again == *s);
  return 0;
}
