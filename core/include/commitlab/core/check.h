// COMMITLAB_CHECK: an invariant that holds in every build, Release included, in the spirit of
// LevelDB's and Abseil's CHECK. A failed check means commitlab itself is wrong (not the input, not
// the machine), so it prints where and why and aborts: a simulation that went on past a broken
// invariant would print a history nobody can trust.
//
// COMMITLAB_DCHECK is the same check where its cost would show in a sweep's instruction count (a
// search, a scan): live in every build without NDEBUG (debug, checked, asan, tsan, fuzz), free in
// Release.
#ifndef COMMITLAB_CORE_CHECK_H_
#define COMMITLAB_CORE_CHECK_H_

namespace commitlab::internal {

// Prints "commitlab: check failed at FILE:LINE: CONDITION (WHY)" to stderr and aborts.
[[noreturn]] void CheckFailed(const char* file, int line, const char* condition, const char* why) noexcept;

}  // namespace commitlab::internal

// `why` is a string literal saying what the condition guards.
#define COMMITLAB_CHECK(condition, why)                                        \
  do {                                                                         \
    if (!(condition)) [[unlikely]]                                             \
      ::commitlab::internal::CheckFailed(__FILE__, __LINE__, #condition, why); \
  } while (0)

#if defined(NDEBUG)
#define COMMITLAB_DCHECK(condition, why)     \
  do {                                       \
    if (false) static_cast<void>(condition); \
  } while (0)
#else
#define COMMITLAB_DCHECK(condition, why) COMMITLAB_CHECK(condition, why)
#endif

#endif  // COMMITLAB_CORE_CHECK_H_
