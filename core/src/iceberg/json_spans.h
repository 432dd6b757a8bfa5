// Where the members and elements of a JSON text are, without reading their values: enough to
// find the snapshot objects of a metadata document and compare them byte for byte with the ones
// read last time (metadata_json_reuse.cc). It validates nothing; a text it cannot follow gives
// nullopt, and the caller then reads the text whole (json_io::Parse finds and words any error).
#ifndef COMMITLAB_CORE_SRC_ICEBERG_JSON_SPANS_H_
#define COMMITLAB_CORE_SRC_ICEBERG_JSON_SPANS_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace commitlab::iceberg::internal {

// The bytes [begin, end) of one JSON value in a text.
struct Span {
  size_t begin = 0;
  size_t end = 0;
};

// The index at which the value of member `key` of the object starting at text[object] begins
// (the key compared as written, without unescaping: a key written with escapes is not found). Only
// the members before it are scanned.
std::optional<size_t> MemberAt(std::string_view text, size_t object, std::string_view key);

// The elements of the array starting at text[array].
std::optional<std::vector<Span>> ElementsAt(std::string_view text, size_t array);

// The index after the value starting at text[begin].
std::optional<size_t> ValueEnd(std::string_view text, size_t begin);

// The index of the first byte that is not whitespace.
size_t FirstValue(std::string_view text);

}  // namespace commitlab::iceberg::internal

#endif  // COMMITLAB_CORE_SRC_ICEBERG_JSON_SPANS_H_
