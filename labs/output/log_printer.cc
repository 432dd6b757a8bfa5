#include "output/log_printer.h"

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "commands/cli.h"

namespace commitlab::cli {

void LogPrinter::OnEvent(const Event& e) {
  if (!verbose_ && (e.type == EventType::kAttempt || e.type == EventType::kRetryWait)) return;
  // A refusal's message is long (causes, entry lists): the log shows its first line.
  std::string_view first = e.message;
  first = first.substr(0, first.find('\n'));
  const std::string line = fmt::format("{:8.3f} {:<5} [{}] {}\n", static_cast<double>(e.time_micros) / 1e6,
                                       LevelName(e.level), e.user, first);
  MutexLock lock(&mu_);
  WriteText(out_, line);
}

}  // namespace commitlab::cli
