// LogPrinter: prints engine events as log lines in the format's own words, as S2 第 5 讲
// (docs/lectures.md#s2-5-race) quotes them:
//   "   0.045 WARN  [job-B] Atomic commit failed for snapshot #1 by user job-B ..."
// Thread-safe: writers on OS threads print through one mutex so lines never interleave.
#ifndef COMMITLAB_LABS_LOG_PRINTER_H_
#define COMMITLAB_LABS_LOG_PRINTER_H_

#include <cstdio>

#include "commitlab/core/events.h"
#include "commitlab/core/mutex.h"

namespace commitlab::cli {

class LogPrinter : public EventSink {
 public:
  explicit LogPrinter(std::FILE* out, bool verbose = false) : out_(out), verbose_(verbose) {}
  void OnEvent(const Event& e) override;

 private:
  Mutex mu_;
  std::FILE* const out_;
  const bool verbose_;  // also print attempts and retry waits
};

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_LOG_PRINTER_H_
