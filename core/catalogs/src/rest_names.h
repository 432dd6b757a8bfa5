// Names and bodies as the REST catalog's handlers take them: namespace levels, table names that
// become folders, and request bodies parsed with a depth bound.
#ifndef COMMITLAB_CATALOGS_SRC_REST_NAMES_H_
#define COMMITLAB_CATALOGS_SRC_REST_NAMES_H_

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/catalogs/rest_tables.h"

namespace commitlab::catalogs::internal {

// Names become folders: letters, digits, '_' and '-' only, so no request reaches outside the
// warehouse (and '.', which joins a namespace's levels into its folder, is free).
inline bool ValidName(std::string_view s) {
  return !s.empty() && s.size() <= 128 && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

// The levels of a namespace path parameter (separated by 0x1F), when each is a valid name.
inline std::optional<std::vector<std::string>> NamespaceLevels(std::string_view ns) {
  std::vector<std::string> levels;
  size_t start = 0;
  while (true) {
    const size_t end = std::min(ns.find('\x1f', start), ns.size());
    levels.emplace_back(ns.substr(start, end - start));
    if (!ValidName(levels.back()) || levels.size() > 16) return std::nullopt;
    if (end == ns.size()) break;
    start = end + 1;
  }
  return levels;
}

// A namespace as messages name it: its levels joined by '.' (also its folder's name).
inline std::string Dotted(const std::vector<std::string>& levels) { return fmt::format("{}", fmt::join(levels, ".")); }

// The levels of a namespace folder's name.
inline std::vector<std::string> LevelsOfDir(std::string_view dir) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t end = std::min(dir.find('.', start), dir.size());
    out.emplace_back(dir.substr(start, end - start));
    if (end == dir.size()) return out;
    start = end + 1;
  }
}

inline RestReply NoSuchNamespace(std::string_view ns) {
  return RestError(404, "NoSuchNamespaceException", fmt::format("Namespace does not exist: {}", ns));
}
inline RestReply NoSuchTable(std::string_view ns, std::string_view table) {
  return RestError(404, "NoSuchTableException", fmt::format("Table does not exist: {}.{}", ns, table));
}

constexpr int kMaxBodyDepth = 64;

// An object, nested at most kMaxBodyDepth deep (what is echoed back or re-encoded must not recurse
// without bound).
inline std::optional<nlohmann::json> ParseBody(std::string_view body) {
  bool too_deep = false;
  nlohmann::json j = nlohmann::json::parse(
      body,
      [&too_deep](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
        if (depth > kMaxBodyDepth) too_deep = true;
        return !too_deep;
      },
      /*allow_exceptions=*/false);
  if (too_deep || j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

}  // namespace commitlab::catalogs::internal

#endif  // COMMITLAB_CATALOGS_SRC_REST_NAMES_H_
