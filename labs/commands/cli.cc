#include "commands/cli.h"

#include <unistd.h>

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace commitlab::cli {

namespace po = boost::program_options;

Result<std::string> ScratchDir(std::string_view prefix) {
  namespace fs = std::filesystem;
  const auto stamp = std::chrono::system_clock::now().time_since_epoch().count();
  std::error_code ec;
  fs::path parent = "results/tmp";
  if (!fs::is_directory("results", ec)) {
    const fs::path temp = fs::temp_directory_path(ec);
    if (ec) {
      const char* tmpdir = std::getenv("TMPDIR");
      return Status::InvalidArgument(fmt::format(
          "no directory for scratch tables: TMPDIR={} is not a directory ({}); set TMPDIR to a directory, or pass --dir for a single run",
          tmpdir != nullptr ? tmpdir : "", ec.message()));
    }
    parent = temp / "commitlab";
  }
  return (parent / fmt::format("{}-{}-{}", prefix, getpid(), stamp % 1'000'000)).string();
}

namespace {
std::atomic<int> g_first_write_error{0};
}  // namespace

void WriteText(std::FILE* out, std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), out) == text.size()) return;
  int none = 0;
  g_first_write_error.compare_exchange_strong(none, errno != 0 ? errno : EIO);
}

int FirstWriteError() { return g_first_write_error.load(); }

int UsageError(std::string_view command, std::string_view message) {
  fmt::print(stderr, "commitlab {}: {}\nTry 'commitlab {} --help'.\n", command, message, command);
  return kExitUsage;
}

namespace {

template <typename T>
bool IsTyped(const po::value_semantic* s) {
  return dynamic_cast<const po::typed_value<T>*>(s) != nullptr;
}

// Boost reads an unsigned option with lexical_cast, which turns "-1" into 2^64-1: a negative seed
// would run as a different, huge one. Refused here once for every unsigned option of every command.
bool RefuseNegativeUnsigned(std::string_view command, const po::parsed_options& parsed,
                            const po::options_description& options) {
  for (const po::option& o : parsed.options) {
    const po::option_description* d = options.find_nothrow(o.string_key, false);
    if (d == nullptr) continue;
    const po::value_semantic* s = d->semantic().get();
    if (!IsTyped<unsigned long>(s) && !IsTyped<unsigned long long>(s) && !IsTyped<unsigned>(s)) continue;
    for (const std::string& v : o.value) {
      if (v.find('-') == std::string::npos) continue;
      UsageError(command, fmt::format("the argument ('{}') for option '--{}' is invalid: expected a whole number >= 0",
                                      v, o.string_key));
      return false;
    }
  }
  return true;
}

}  // namespace

bool ParseArgs(std::string_view command, const std::vector<std::string>& args, const po::options_description& options,
               const po::positional_options_description* positional, po::variables_map* vm) {
  // A command without positional arguments collects stray words here to name them in its error;
  // Boost would otherwise say only "too many positional options".
  constexpr const char* kStray = "stray-argument";
  po::options_description all;
  all.add(options);
  po::positional_options_description strays;
  if (positional == nullptr) {
    all.add_options()(kStray, po::value<std::vector<std::string>>());
    strays.add(kStray, -1);
  }
  try {
    po::command_line_parser parser(args);
    // Boost guesses an unambiguous prefix by default ("--trac" runs "--trace"); a typo must be an
    // error instead, and a flag added later must not change what an old command line means.
    parser.style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing);
    parser.options(all);
    parser.positional(positional != nullptr ? *positional : strays);
    const po::parsed_options parsed = parser.run();
    if (!RefuseNegativeUnsigned(command, parsed, all)) return false;
    po::store(parsed, *vm);
    if (vm->count(kStray)) {
      UsageError(command,
                 fmt::format("unexpected argument '{}'", (*vm)[kStray].as<std::vector<std::string>>().front()));
      return false;
    }
    po::notify(*vm);
    return true;
  } catch (const po::error& e) {
    UsageError(command, e.what());
    return false;
  }
}

}  // namespace commitlab::cli
