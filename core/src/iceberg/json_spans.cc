#include "json_spans.h"

#include <cstring>
#include <string_view>

// A scan of JSON structure: strings (with their escapes), nesting, and the bytes of scalars.
namespace commitlab::iceberg::internal {
namespace {

constexpr size_t kNone = std::string_view::npos;

size_t SkipSpace(std::string_view t, size_t i) {
  while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) ++i;
  return i;
}

// The index after the string that starts at t[i] == '"': the next quote not escaped (preceded by
// an even number of backslashes), found with memchr.
size_t SkipString(std::string_view t, size_t i) {
  for (size_t from = i + 1; from < t.size();) {
    const void* q = std::memchr(t.data() + from, '"', t.size() - from);
    if (q == nullptr) return kNone;
    const size_t at = static_cast<size_t>(static_cast<const char*>(q) - t.data());
    size_t backslashes = 0;
    while (at - backslashes > i + 1 && t[at - backslashes - 1] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return at + 1;
    from = at + 1;
  }
  return kNone;
}

// The index after the value that starts at t[i].
size_t SkipValue(std::string_view t, size_t i) {
  if (i >= t.size()) return kNone;
  if (t[i] == '"') return SkipString(t, i);
  if (t[i] != '{' && t[i] != '[') {  // a number or a literal: up to what ends it
    size_t j = i;
    while (j < t.size() && t[j] != ',' && t[j] != '}' && t[j] != ']' && t[j] != ' ' && t[j] != '\n' && t[j] != '\t' &&
           t[j] != '\r')
      ++j;
    return j > i ? j : kNone;
  }
  size_t depth = 0;
  while (i < t.size()) {
    const char c = t[i];
    if (c == '"') {
      i = SkipString(t, i);
      if (i == kNone) return kNone;
      continue;
    }
    if (c == '{' || c == '[') ++depth;
    if ((c == '}' || c == ']') && --depth == 0) return i + 1;
    ++i;
  }
  return kNone;
}

}  // namespace

size_t FirstValue(std::string_view text) { return SkipSpace(text, 0); }

std::optional<size_t> ValueEnd(std::string_view text, size_t begin) {
  const size_t end = SkipValue(text, begin);
  return end == kNone ? std::nullopt : std::optional<size_t>(end);
}

std::optional<size_t> MemberAt(std::string_view t, size_t object, std::string_view key) {
  if (object >= t.size() || t[object] != '{') return std::nullopt;
  size_t i = SkipSpace(t, object + 1);
  while (i < t.size() && t[i] == '"') {
    const size_t key_end = SkipString(t, i);
    if (key_end == kNone) return std::nullopt;
    const std::string_view name = t.substr(i + 1, key_end - i - 2);
    i = SkipSpace(t, key_end);
    if (i >= t.size() || t[i] != ':') return std::nullopt;
    const size_t begin = SkipSpace(t, i + 1);
    if (name == key) return begin < t.size() ? std::optional<size_t>(begin) : std::nullopt;
    const size_t end = SkipValue(t, begin);
    if (end == kNone) return std::nullopt;
    i = SkipSpace(t, end);
    if (i >= t.size() || t[i] != ',') return std::nullopt;
    i = SkipSpace(t, i + 1);
  }
  return std::nullopt;
}

std::optional<std::vector<Span>> ElementsAt(std::string_view t, size_t array) {
  if (array >= t.size() || t[array] != '[') return std::nullopt;
  std::vector<Span> out;
  size_t i = SkipSpace(t, array + 1);
  if (i < t.size() && t[i] == ']') return out;
  while (i < t.size()) {
    const size_t end = SkipValue(t, i);
    if (end == kNone) return std::nullopt;
    out.push_back({i, end});
    i = SkipSpace(t, end);
    if (i < t.size() && t[i] == ']') return out;
    if (i >= t.size() || t[i] != ',') return std::nullopt;
    i = SkipSpace(t, i + 1);
  }
  return std::nullopt;
}

}  // namespace commitlab::iceberg::internal
