#include "commitlab/core/check.h"

#include <cstdio>
#include <cstdlib>

namespace commitlab::internal {

void CheckFailed(const char* file, int line, const char* condition, const char* why) noexcept {
  // stdio, not iostreams or fmt: nothing here may allocate or throw on the way down.
  std::fprintf(stderr, "commitlab: check failed at %s:%d: %s (%s)\n", file, line, condition, why);
  std::fflush(stderr);
  std::abort();
}

}  // namespace commitlab::internal
