// What every fuzz harness shares: the input as text, and a check that stops the fuzzer with a
// crash it records (a failed invariant is a finding like a sanitizer report).
#ifndef COMMITLAB_SCENARIOS_FUZZ_FUZZ_CHECK_H_
#define COMMITLAB_SCENARIOS_FUZZ_FUZZ_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace commitlab::fuzz {

inline std::string_view AsText(const uint8_t* data, size_t size) { return {reinterpret_cast<const char*>(data), size}; }

inline void Check(bool ok) {
  if (!ok) __builtin_trap();
}

}  // namespace commitlab::fuzz

#endif  // COMMITLAB_SCENARIOS_FUZZ_FUZZ_CHECK_H_
