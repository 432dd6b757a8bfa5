// `lab --brief`, for a projector: every line at most 100 columns, long ids short, and nothing said
// twice. The lab prints as usual; its stdout goes through BriefFilter line by line.
#ifndef COMMITLAB_LABS_BRIEF_OUTPUT_H_
#define COMMITLAB_LABS_BRIEF_OUTPUT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "commitlab/sim/text_width.h"

namespace commitlab::cli {

inline constexpr size_t kBriefColumns = 100;

using sim::DisplayColumns;

class BriefFilter {
 public:
  // One line in (without its newline); the lines to print now. A line may be held back until the
  // next shows whether it says the same thing.
  std::vector<std::string> Feed(std::string_view line);
  // What is held back, at the end.
  std::vector<std::string> Flush();

 private:
  // Prose (a source, a claim, an explanation) wraps under its label; anything else (a log line, a
  // table row) is cut with "…".
  void Emit(std::string_view line, std::vector<std::string>* out) const;

  std::string held_;  // a log line of a published snapshot, until the next line
  bool holding_ = false;
  std::string last_error_;  // the text of the last ERROR log line, which a refusal block repeats
  std::string last_claim_;  // the section's claim, which its verdict repeats
};

// While alive, the process's stdout goes through a BriefFilter to the real stdout.
class BriefStdout {
 public:
  BriefStdout();
  ~BriefStdout();
  BriefStdout(const BriefStdout&) = delete;
  BriefStdout& operator=(const BriefStdout&) = delete;
  bool ok() const { return saved_ >= 0; }

 private:
  int saved_ = -1;  // the real stdout
  int read_end_ = -1;
  std::thread pump_;
};

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_BRIEF_OUTPUT_H_
