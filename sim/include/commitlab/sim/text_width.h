// How wide text is on a terminal, for output that lines up or must fit a width (the explanations'
// tables, `lab --brief`): East Asian wide characters take two columns, every other one one.
#ifndef COMMITLAB_SIM_TEXT_WIDTH_H_
#define COMMITLAB_SIM_TEXT_WIDTH_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace commitlab::sim {

// The code point at s[*i] (UTF-8), advancing *i past it; an invalid byte counts as one character.
// REQUIRES: *i < s.size().
char32_t NextCodePoint(std::string_view s, size_t* i);
bool IsWide(char32_t code_point);
size_t DisplayColumns(std::string_view text);
// Chinese as it is typeset: no space between two wide characters ("抢 快照" -> "抢快照", "的 提交"
// -> "的提交") nor next to Chinese punctuation ("（ bucket 0" -> "（bucket 0"); spaces kept where
// Chinese meets a name or a number ("快照 #1 失败").
std::string TidyChinese(std::string_view text);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_TEXT_WIDTH_H_
