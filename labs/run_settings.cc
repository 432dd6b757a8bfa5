#include "run_settings.h"

#include "commitlab/core/json.h"

namespace commitlab::cli {

std::string RunSettings::Line() const {
  std::string line;
  for (const auto& [key, value] : settings_) line += (line.empty() ? "" : " ") + key + "=" + value;
  return line;
}

sim::TraceFields RunSettings::HeaderFields() const {
  std::string argv = "[";
  for (const std::string& a : args_) argv += (argv.size() > 1 ? "," : "") + JsonQuote(a);
  argv += "]";
  sim::TraceFields fields;
  fields.Add("command", command_).AddJson("argv", argv);
  for (const auto& [key, value] : settings_) fields.Add(key, value);
  return fields;
}

std::vector<std::string> WithoutFlags(const std::vector<std::string>& args, const std::vector<std::string>& flags) {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    bool dropped = false;
    for (const std::string& f : flags) {
      if (args[i] == f) {
        ++i;  // and its value
        dropped = true;
        break;
      }
      if (args[i].rfind(f + "=", 0) == 0) {
        dropped = true;
        break;
      }
    }
    if (!dropped) out.push_back(args[i]);
  }
  return out;
}

}  // namespace commitlab::cli
