// Cutting one-line specs into pieces, shared by the parsers of retry policies
// ("exponential:base=5ms,cap=2s"), retry budgets ("budget:tokens=5"), faults
// ("job-A:publish.before:nth=2:error") and latency models ("publish=normal:10,2;*=const:1").
// These functions only cut text: what a piece means, and what to say when it is wrong, stay with
// each parser. Every piece returned is a view into the text given, so `piece.data() - text.data()`
// is where the piece starts in it.
#ifndef COMMITLAB_CORE_SPEC_PARSE_H_
#define COMMITLAB_CORE_SPEC_PARSE_H_

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "commitlab/core/status.h"

namespace commitlab {

// `s` without the spaces and tabs at either end.
std::string_view TrimBlanks(std::string_view s);

// `s` cut at every `sep`, empty pieces kept: n separators give n + 1 pieces ("" gives {""},
// "a,,b" gives {"a", "", "b"}).
std::vector<std::string_view> SplitOn(std::string_view s, char sep);

// `s` cut at its first `sep`: what comes before it, and what comes after it, or nullopt when `s`
// has no `sep` ("paimon" gives {"paimon", nullopt}, "paimon:" gives {"paimon", ""}).
struct Cut {
  std::string_view head;
  std::optional<std::string_view> tail;
};
Cut CutAtFirst(std::string_view s, char sep);

// A `key=value` item cut at its first '=' (the value may hold more of them), or nullopt when it
// has none. Nothing is trimmed, and either part may be empty.
struct KeyValue {
  std::string_view key;
  std::string_view value;
};
std::optional<KeyValue> SplitKeyValue(std::string_view item);

// Walks a comma-separated list of `key=value` items (the part after the ':' of
// "exponential:base=5ms,cap=2s") in order, and stops at the first item that fails:
//   an item without '='        expected key=value, got "ITEM"
//   a key an earlier item had  key KEY given twice
//   any other item             what on_item(key, value) returns, when that is not OK
// Returns OK when every item passed. Its own failures are InvalidArgument with the message above
// alone, for the caller to say which spec it was.
Status ForEachKeyValue(std::string_view list,
                       const std::function<Status(std::string_view key, std::string_view value)>& on_item);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_SPEC_PARSE_H_
