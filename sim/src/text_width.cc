#include "commitlab/sim/text_width.h"

namespace commitlab::sim {

char32_t NextCodePoint(std::string_view s, size_t* i) {
  const unsigned char c = static_cast<unsigned char>(s[*i]);
  const size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
  if (n == 1 || *i + n > s.size()) {
    ++*i;
    return c;
  }
  char32_t cp = n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[*i + k]) & 0x3F);
  *i += n;
  return cp;
}

bool IsWide(char32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
         (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x20000 && cp <= 0x3FFFD);
}

size_t DisplayColumns(std::string_view text) {
  size_t columns = 0;
  for (size_t i = 0; i < text.size();) columns += IsWide(NextCodePoint(text, &i)) ? size_t{2} : size_t{1};
  return columns;
}

namespace {

// Chinese punctuation (、。「」（），：；): no space before or after it in typeset Chinese.
bool IsFullWidthPunctuation(char32_t cp) { return (cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFF00 && cp <= 0xFF60); }

}  // namespace

std::string TidyChinese(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char32_t before = 0;  // the last code point written
  bool indent = true;   // only spaces since the start or the last line break
  for (size_t i = 0; i < text.size();) {
    const size_t start = i;
    const char32_t cp = NextCodePoint(text, &i);
    // An indent (spaces at the start or after a line break) stays; elsewhere a run of spaces
    // between two wide characters, or next to Chinese punctuation, is dropped.
    indent = cp == '\n' || (indent && cp == ' ');
    if (cp == ' ' && !indent) {
      size_t j = i;
      while (j < text.size() && text[j] == ' ') ++j;
      size_t k = j;
      const char32_t after = j < text.size() ? NextCodePoint(text, &k) : 0;
      if ((IsWide(before) && IsWide(after)) || IsFullWidthPunctuation(before) ||
          (after != 0 && IsFullWidthPunctuation(after))) {
        i = j;
        continue;
      }
    }
    out.append(text.substr(start, i - start));
    before = cp;
  }
  return out;
}

}  // namespace commitlab::sim
