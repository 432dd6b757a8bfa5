// Fill: the Chinese form of a message an engine or checker writes in English, from a pattern's
// match (detail_words.cc, violation_words.cc): one template filler for both tables. Kept out of
// language.h so that its includers need no <regex>.
#ifndef COMMITLAB_SIM_FILL_H_
#define COMMITLAB_SIM_FILL_H_

#include <string>

#include "commitlab/sim/std_regex.h"

namespace commitlab::sim {

// `zh` with {1} .. {99} replaced by the groups of `m` (a group `m` lacks: nothing).
std::string Fill(const char* zh, const std::smatch& m);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_FILL_H_
