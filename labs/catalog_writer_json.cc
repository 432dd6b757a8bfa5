#include "catalog_writer_json.h"

#include <nlohmann/json.hpp>

namespace commitlab::cli {

using nlohmann::json;

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
  return json({{"summary", s}}).dump() + "\n";
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
      r.user = s.value("user", "");
      r.acknowledged = s.value("acknowledged", int64_t{0});
      r.stats.attempts = s.value("attempts", int64_t{0});
      r.stats.atomic_failures = s.value("atomic_failures", int64_t{0});
      r.stats.conflicts = s.value("conflicts", int64_t{0});
      r.stats.gave_up = s.value("gave_up", int64_t{0});
      r.unknown = s.value("unknown", int64_t{0});
      r.error = s.value("error", "");
      r.error_code = static_cast<Code>(s.value("error_code", 0));
      if (s.contains("fired_faults") && s["fired_faults"].is_array())
        for (const json& f : s["fired_faults"])
          if (f.is_string()) out.fired.push_back(f.get<std::string>());
      out.summary = r;
    }
  }
  return out;
}

}  // namespace commitlab::cli
