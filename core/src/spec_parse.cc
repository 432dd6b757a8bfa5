#include "commitlab/core/spec_parse.h"

#include <fmt/format.h>

#include <algorithm>

namespace commitlab {

std::string_view TrimBlanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> SplitOn(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (;;) {
    const size_t at = s.find(sep);
    out.push_back(s.substr(0, at));
    if (at == std::string_view::npos) return out;
    s.remove_prefix(at + 1);
  }
}

Cut CutAtFirst(std::string_view s, char sep) {
  const size_t at = s.find(sep);
  if (at == std::string_view::npos) return {s, std::nullopt};
  return {s.substr(0, at), s.substr(at + 1)};
}

std::optional<KeyValue> SplitKeyValue(std::string_view item) {
  const Cut cut = CutAtFirst(item, '=');
  if (!cut.tail) return std::nullopt;
  return KeyValue{cut.head, *cut.tail};
}

Status ForEachKeyValue(std::string_view list,
                       const std::function<Status(std::string_view key, std::string_view value)>& on_item) {
  std::vector<std::string_view> seen;
  for (const std::string_view item : SplitOn(list, ',')) {
    const std::optional<KeyValue> kv = SplitKeyValue(item);
    if (!kv) return Status::InvalidArgument(fmt::format("expected key=value, got \"{}\"", item));
    if (std::find(seen.begin(), seen.end(), kv->key) != seen.end())
      return Status::InvalidArgument(fmt::format("key {} given twice", kv->key));
    seen.push_back(kv->key);
    if (Status s = on_item(kv->key, kv->value); !s.ok()) return s;
  }
  return Status::OK();
}

}  // namespace commitlab
