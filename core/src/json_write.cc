#include "json_write.h"

namespace commitlab::json_io {

std::string Compact(const nlohmann::ordered_json& v) {
  return v.dump(-1, ' ', /*ensure_ascii=*/false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string Quote(std::string_view s) { return Compact(nlohmann::ordered_json(std::string(s))); }

std::string JacksonPretty(const nlohmann::ordered_json& flat) {
  if (flat.empty()) return "{ }";
  std::string out = "{\n";
  for (auto it = flat.begin(); it != flat.end(); ++it) {
    if (it != flat.begin()) out += ",\n";
    out += "  " + Quote(it.key()) + " : " + Compact(it.value());
  }
  out += "\n}";
  return out;
}

std::string SpacedLine(const nlohmann::ordered_json& flat) {
  std::string out = "{";
  for (auto it = flat.begin(); it != flat.end(); ++it) {
    if (it != flat.begin()) out += ", ";
    out += Quote(it.key()) + ": " + Compact(it.value());
  }
  out += "}";
  return out;
}

}  // namespace commitlab::json_io
