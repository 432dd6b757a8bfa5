// libFuzzer target for the manifest decoder (core/paimon/snapshot_codec.h): any bytes give the changes
// or a Corruption naming the path; decoded changes encode to text that decodes to them again.
#include "commitlab/core/paimon/snapshot_codec.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using commitlab::fuzz::Check;
  auto changes = commitlab::DecodeManifest(commitlab::fuzz::AsText(data, size), "fuzz");
  if (!changes.ok()) {
    Check(changes.status().code() == commitlab::Code::kCorruption && changes.status().message().starts_with("fuzz: "));
    return 0;
  }
  auto again = commitlab::DecodeManifest(commitlab::EncodeManifest(*changes), "again");
  Check(again.ok() && *again == *changes);
  return 0;
}
