#include "commitlab/sim/history_diff.h"

#include <fmt/format.h>

#include <algorithm>

namespace commitlab::sim {
namespace {

std::string Compact(const Json& v, size_t max = 120) {
  std::string s = v.is_string() ? v.get<std::string>() : v.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (s.size() > max) s = s.substr(0, max) + "…";
  return s;
}

}  // namespace

bool SameHistoryValue(const Json& a, const Json& b) {
  if (a.is_object() && b.is_object()) {
    if (a.size() != b.size()) return false;
    for (const auto& [key, value] : a.items()) {
      const auto it = b.find(key);
      if (it == b.end() || !SameHistoryValue(value, *it)) return false;
    }
    return true;
  }
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!SameHistoryValue(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

std::optional<HistoryDifference> FirstDifference(const std::vector<Json>& recorded, const std::vector<Json>& replayed) {
  const size_t n = std::max(recorded.size(), replayed.size());
  for (size_t i = 0; i < n; ++i) {
    const bool has_a = i < recorded.size(), has_b = i < replayed.size();
    if (has_a && has_b && SameHistoryValue(recorded[i], replayed[i])) continue;
    HistoryDifference d{.index = i};
    if (has_a) d.recorded = recorded[i];
    if (has_b) d.replayed = replayed[i];
    return d;
  }
  return std::nullopt;
}

std::string DescribeHistoryLine(const Json& line) {
  if (!line.is_object()) return Compact(line);
  const std::string type = line.value("type", std::string("?"));
  if (type == "header" || type == "footer") return type;
  std::string out;
  if (line.contains("step") && line["step"].is_number()) out += fmt::format("step {}  ", line["step"].get<int64_t>());
  if (line.contains("t_us") && line["t_us"].is_number())
    out += fmt::format("t={:.6f}s  ", static_cast<double>(line["t_us"].get<int64_t>()) / 1e6);
  out += fmt::format("{}  {}", line.value("writer", std::string("?")), type);
  if (line.contains("op")) out += " " + Compact(line["op"]);
  for (const char* key : {"attempt", "snapshot", "saw", "outcome"})
    if (line.contains(key)) out += fmt::format("  {} {}", key, Compact(line[key]));
  if (line.contains("lost_to") && line["lost_to"].is_object()) {
    const Json& to = line["lost_to"];
    out += to.value("injected", false) ? std::string("  (lost to an injected fault)")
                                       : fmt::format("  (lost to {})", Compact(to.value("writer", Json(nullptr))));
  }
  return out;
}

std::string DescribeChangedMembers(const Json& a, const Json& b) {
  if (!a.is_object() || !b.is_object()) return fmt::format("{} -> {}", Compact(a), Compact(b));
  std::string out;
  auto add = [&out](const std::string& key, const std::string& from, const std::string& to) {
    out += fmt::format("{}{}: {} -> {}", out.empty() ? "" : ", ", key, from, to);
  };
  for (const auto& [key, value] : a.items()) {
    if (!b.contains(key)) {
      add(key, Compact(value), "(absent)");
    } else if (!SameHistoryValue(b[key], value)) {
      add(key, Compact(value), Compact(b[key]));
    }
  }
  for (const auto& [key, value] : b.items())
    if (!a.contains(key)) add(key, "(absent)", Compact(value));
  return out;
}

}  // namespace commitlab::sim
