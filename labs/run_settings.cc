#include "run_settings.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

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

std::vector<std::string> WithoutFlags(const std::vector<std::string>& args, const std::vector<std::string>& valued,
                                      const std::vector<std::string>& switches) {
  auto is_one_of = [](const std::string& a, const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), a) != names.end();
  };
  auto has_inline_value = [&](const std::string& a) {
    const size_t eq = a.find('=');
    return eq != std::string::npos && is_one_of(a.substr(0, eq), valued);
  };
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (is_one_of(args[i], valued)) {
      ++i;  // and its value
    } else if (!is_one_of(args[i], switches) && !has_inline_value(args[i])) {
      out.push_back(args[i]);
    }
  }
  return out;
}

Status OpenTrace(const std::string& path, const RunSettings& settings, TraceOutput* out) {
  if (path.empty()) return Status::OK();
  out->file.open(path, std::ios::trunc);
  if (!out->file) return Status::InvalidArgument(fmt::format("--trace: cannot write {}", path));
  out->writer = std::make_unique<sim::TraceWriter>(&out->file);
  out->writer->WriteHeader(settings.HeaderFields());
  return Status::OK();
}

}  // namespace commitlab::cli
