#include "commands/run_settings.h"

#include <algorithm>

namespace commitlab::cli {

std::string RunSettings::Line() const {
  std::string line;
  for (const auto& [key, value] : settings_) line += (line.empty() ? "" : " ") + key + "=" + value;
  return line;
}

std::string ShellQuote(const std::string& arg) {
  if (!arg.empty() && arg.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,") ==
                          std::string::npos)
    return arg;
  std::string out = "'";
  for (char c : arg) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
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

}  // namespace commitlab::cli
