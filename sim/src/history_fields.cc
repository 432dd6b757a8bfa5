#include "commitlab/sim/history_fields.h"

#include <algorithm>
#include <string_view>

namespace commitlab::sim {
namespace {

// The scenario text of a header, "" when it has none.
std::string ScenarioText(const Json& header) {
  if (!header.is_object() || !header.contains("scenario") || !header["scenario"].is_object()) return "";
  return StringField(header["scenario"], "text");
}

// Calls `each` with every line of `text`.
template <typename F>
void ForEachLine(const std::string& text, F each) {
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    each(std::string_view(text.data() + at, end - at));
    at = end + 1;
  }
}

// The quoted text of `directive "..."` on `line`, "" when the line is not that directive.
std::string Quoted(std::string_view line, std::string_view directive) {
  if (!line.starts_with(directive) || line.size() <= directive.size() + 2 || line[directive.size()] != ' ') return "";
  const size_t open = line.find('"', directive.size());
  const size_t close = line.rfind('"');
  if (open == std::string_view::npos || close <= open) return "";
  return std::string(line.substr(open + 1, close - open - 1));
}

}  // namespace

std::string KeyValue(std::string_view line, std::string_view key) {
  for (size_t p = line.find(key); p != std::string_view::npos; p = line.find(key, p + 1)) {
    if (p > 0 && line[p - 1] != ' ' && line[p - 1] != '\t') continue;
    std::string_view v = line.substr(p + key.size());
    return std::string(v.substr(0, v.find_first_of(" \t#")));
  }
  return "";
}

std::string StringField(const Json& e, const char* key) {
  return e.is_object() && e.contains(key) && e[key].is_string() ? e[key].get<std::string>() : std::string();
}

int64_t IntField(const Json& e, const char* key, int64_t otherwise) {
  return e.is_object() && e.contains(key) && e[key].is_number_integer() ? e[key].get<int64_t>() : otherwise;
}

std::string ShortFileName(const std::string& name) {
  // <prefix>-<uuid>-N.parquet: the uuid's first block and the counter are enough to tell files apart.
  const size_t slash = name.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : name.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  const size_t first_dash = base.find('-');
  const size_t last_dash = base.rfind('-');
  if (base.size() < 40 || first_dash == std::string::npos || last_dash <= first_dash + 9) return name;
  return dir + base.substr(0, first_dash + 9) + "…" + base.substr(last_dash);
}

size_t HistoryTables::TableOf(const std::string& writer) const {
  auto it = of_writer.find(writer);
  return it == of_writer.end() ? 0 : it->second;
}

HistoryTables TablesOfHeader(const Json& header) {
  HistoryTables t;
  std::map<std::string, std::string> table_of;  // writer -> its table= ("" for the first)
  ForEachLine(ScenarioText(header), [&](std::string_view line) {
    if (line.starts_with("table ")) {
      t.tables.push_back({KeyValue(line, "name="), KeyValue(line, "protocol=")});
    } else if (line.starts_with("writer ")) {
      const std::string name = KeyValue(line, "name=");
      if (!name.empty() && !table_of.contains(name)) t.writers.push_back(name);
      table_of[name] = KeyValue(line, "table=");
    }
  });
  if (t.tables.empty()) t.tables.push_back({"", "paimon"});
  for (const auto& [writer, table] : table_of) {
    size_t index = 0;
    for (size_t i = 0; i < t.tables.size(); ++i)
      if (t.tables[i].name == table) index = i;
    t.of_writer[writer] = index;
  }
  return t;
}

std::string ScenarioTitle(const Json& header, Language language) {
  std::string title, title_zh;
  ForEachLine(ScenarioText(header), [&](std::string_view line) {
    if (title.empty()) title = Quoted(line, "title");
    if (title_zh.empty()) title_zh = Quoted(line, "title.zh");
  });
  if (language == Language::kChinese && !title_zh.empty()) return title_zh;
  if (!title.empty()) return title;
  const Json* scenario = header.is_object() && header.contains("scenario") ? &header["scenario"] : nullptr;
  const std::string file = scenario != nullptr ? StringField(*scenario, "file") : "";
  return file.empty() ? "commitlab run" : file;
}

}  // namespace commitlab::sim
