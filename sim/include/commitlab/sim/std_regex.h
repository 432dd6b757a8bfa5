// <regex>, for the files that match engine and checker messages. GCC 12 at -O2 with
// -fsanitize=address warns that libstdc++'s own NFA moves a std::function before setting it
// (bits/regex_automaton.h, _NFA::_M_insert_subexpr_end): a false positive inside a system header,
// made an error by the sanitizer presets. Silenced for <regex> only; clang has no such warning.
#ifndef COMMITLAB_SIM_STD_REGEX_H_
#define COMMITLAB_SIM_STD_REGEX_H_

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <regex>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif  // COMMITLAB_SIM_STD_REGEX_H_
