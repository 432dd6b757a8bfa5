// The language of what commitlab says to a reader (`--lang en|zh`): the explanations, the
// stepper, the timeline page and the labs. Names, log lines and formulas stay as they are.
#ifndef COMMITLAB_SIM_LANGUAGE_H_
#define COMMITLAB_SIM_LANGUAGE_H_

#include <fmt/format.h>

#include <string>
#include <utility>

#include "commitlab/sim/text_width.h"

namespace commitlab::sim {

enum class Language { kEnglish, kChinese };

// A sentence in `language`; both forms take the same arguments ({0}, {1}, ...). The Chinese one is
// tidied (TidyChinese), so a template may put spaces around its arguments whatever they hold.
template <typename... Args>
std::string Say(Language language, const char* en, const char* zh, Args&&... args) {
  if (language != Language::kChinese) return fmt::format(fmt::runtime(en), std::forward<Args>(args)...);
  return TidyChinese(fmt::format(fmt::runtime(zh), std::forward<Args>(args)...));
}

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_LANGUAGE_H_
