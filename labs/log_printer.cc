#include "log_printer.h"

#include <fmt/format.h>

#include <string_view>

namespace commitlab::cli {

void LogPrinter::OnEvent(const Event& e) {
  if (!verbose_ && (e.type == EventType::kAttempt || e.type == EventType::kRetryWait)) return;
  // A refusal's message is long (causes, entry lists): the log shows its first line.
  std::string_view first = e.message;
  first = first.substr(0, first.find('\n'));
  std::lock_guard<std::mutex> lock(mu_);
  fmt::print(out_, "{:8.3f} {:<5} [{}] {}\n", static_cast<double>(e.time_micros) / 1e6, LevelName(e.level), e.user,
             first);
}

}  // namespace commitlab::cli
