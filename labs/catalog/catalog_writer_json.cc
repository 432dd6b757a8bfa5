#include "catalog/catalog_writer_json.h"

#include <nlohmann/json.hpp>

namespace commitlab::cli {

using nlohmann::json;

namespace {

// A field of the summary; a missing one, or one of another type, reads as empty.
int64_t Int(const json& s, const char* key) {
  return s.contains(key) && s[key].is_number_integer() ? s[key].get<int64_t>() : 0;
}
std::string String(const json& s, const char* key) {
  return s.contains(key) && s[key].is_string() ? s[key].get<std::string>() : "";
}

}  // namespace

std::string CatalogAckLine(int64_t identifier, int64_t snapshot) {
  return json({{"ack", {identifier, snapshot}}}).dump() + "\n";
}

std::string CatalogSummaryLine(const CatalogWriterResult& r, const std::vector<std::string>& fired_faults) {
  json s = {{"user", r.user},
            {"acknowledged", r.acknowledged},
            {"attempts", r.stats.attempts},
            {"atomic_failures", r.stats.atomic_failures},
            {"conflicts", r.stats.conflicts},
            {"gave_up", r.stats.gave_up},
            {"unknown", r.unknown},
            {"error", r.error},
            {"error_code", static_cast<int>(r.error_code)},
            {"fired_faults", fired_faults}};
  // The error may quote a server's answer, which need not be UTF-8.
  return json({{"summary", s}}).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

CatalogWriterOutput ParseCatalogWriterOutput(std::string_view text) {
  CatalogWriterOutput out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const json j = json::parse(text.substr(start, end - start), nullptr, /*allow_exceptions=*/false);
    start = end + 1;
    if (!j.is_object()) continue;
    if (j.contains("ack") && j["ack"].is_array() && j["ack"].size() == 2 && j["ack"][0].is_number_integer() &&
        j["ack"][1].is_number_integer()) {
      out.acks.emplace_back(j["ack"][0].get<int64_t>(), j["ack"][1].get<int64_t>());
    } else if (j.contains("summary") && j["summary"].is_object()) {
      const json& s = j["summary"];
      CatalogWriterResult r;
      r.user = String(s, "user");
      r.acknowledged = Int(s, "acknowledged");
      r.stats.attempts = Int(s, "attempts");
      r.stats.atomic_failures = Int(s, "atomic_failures");
      r.stats.conflicts = Int(s, "conflicts");
      r.stats.gave_up = Int(s, "gave_up");
      r.unknown = Int(s, "unknown");
      r.error = String(s, "error");
      r.error_code = static_cast<Code>(Int(s, "error_code"));
      if (s.contains("fired_faults") && s["fired_faults"].is_array())
        for (const json& f : s["fired_faults"])
          if (f.is_string()) out.fired.push_back(f.get<std::string>());
      out.summary = r;
    }
  }
  return out;
}

}  // namespace commitlab::cli
