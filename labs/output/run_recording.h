// What one run keeps of its history: --trace's file, --timeline's drawing and --explain's
// reasons, all from the same history. Without --trace the history lives in a scratch file beside
// the drawing, or in memory when only explanations are asked for, and is never left behind.
#ifndef COMMITLAB_LABS_RUN_RECORDING_H_
#define COMMITLAB_LABS_RUN_RECORDING_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/sim/explain.h"
#include "commitlab/sim/history.h"
#include "output/history_file.h"
#include "output/timeline_output.h"

namespace commitlab::cli {

class RunRecording {
 public:
  struct Wants {
    std::string trace;                                 // keep the history in this file
    std::string timeline;                              // draw it into this .html or .svg file
    bool explain = false;                              // say why each race was lost and each commit refused
    size_t explain_max_per_kind = SIZE_MAX;            // past this many of one kind, only a count
    sim::Language language = sim::Language::kEnglish;  // of the explanations and the timeline
  };

  // Opens the history with `header` (HistoryHeader's fields). Errors name the file.
  static Result<std::unique_ptr<RunRecording>> Start(Wants wants, const sim::Json& header);
  ~RunRecording();

  // What the run records into; null when nothing was asked for.
  sim::History* history();
  // After the run: writes the footer, draws the timeline and explains. Errors say which flag.
  Status Finish(std::string_view command, const sim::Json& footer);

  // "OUT: N writer(s), ..." once drawn; "" otherwise.
  const std::string& timeline_summary() const { return timeline_summary_; }
  // ExplanationText's lines ("why: ..."); "" when not asked for or nothing needed explaining.
  const std::string& explanation() const { return explanation_; }
  // The explanations themselves, each whole (for `lab --class`, which picks one).
  const std::vector<sim::Explanation>& explanations() const { return explanations_; }

 private:
  explicit RunRecording(Wants wants) : wants_(std::move(wants)) {}

  Wants wants_;
  std::string path_;  // the history file, when there is one
  std::unique_ptr<TemporaryFile> scratch_;
  std::unique_ptr<HistoryFile> file_;
  std::unique_ptr<sim::History> memory_;
  std::string timeline_summary_;
  std::string explanation_;
  std::vector<sim::Explanation> explanations_;
};

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_RUN_RECORDING_H_
