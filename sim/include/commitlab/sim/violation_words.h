// An invariant violation as a reader is told it, in English (the checker's own sentence) or in
// Chinese: the checkers (sim/src/checker.cc for Paimon chains, the Iceberg and Delta table runs,
// the counter check) write English; `--lang zh` retells the forms they write, and names the kind
// of any other in Chinese before the checker's sentence.
#ifndef COMMITLAB_SIM_VIOLATION_WORDS_H_
#define COMMITLAB_SIM_VIOLATION_WORDS_H_

#include <string>

#include "commitlab/sim/language.h"

namespace commitlab::sim {

// "丢失更新", "丢失的提交", ...: the Chinese name of a violation kind; the kind itself in English.
std::string ViolationKindName(const std::string& kind, Language language);
// The checker's `message` of a violation of `kind`, in `language`; in Chinese it starts with the
// kind's name ("丢失更新：计数器 hits 是 15，...").
std::string ViolationSentence(const std::string& kind, const std::string& message, Language language);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_VIOLATION_WORDS_H_
