// `lab --class`: each run of a lab section as one projector screen (at most 40 lines of 100
// columns) for a 45-minute class: the claim, a question to predict, a key press, the run in brief
// and the answer with its why, each message once. The full narration stays without --class.
#ifndef COMMITLAB_LABS_CLASS_MODE_H_
#define COMMITLAB_LABS_CLASS_MODE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/explain.h"
#include "lab/lab_words.h"

namespace commitlab::cli {

inline constexpr size_t kClassLines = 40;
inline constexpr size_t kClassColumns = 100;

// One run of a section, as the class screen tells it.
struct ClassRun {
  int number = 0;  // the section's
  std::string key;
  std::string file;  // under scenarios/
  std::string title;
  std::string claim;
  std::string source;
  std::string how;     // "simulated, seed=1 sched=random" or the OS threads' words
  std::string replay;  // the command that runs it again
  const scenarios::RunReport* report = nullptr;
  std::vector<sim::Explanation> why;
  std::vector<std::string> notes;         // the lectures' corrections, computed from this run
  std::vector<std::string> matrix = {};   // a conflict matrix's lines, when the section is one
  std::vector<std::string> heading = {};  // the lab's, above the first screen's section heading
};

// The screen: `ask` before the key press, `answer` after. Every line at most kClassColumns wide,
// both together at most kClassLines - 2 long (a line each for the key prompts).
struct ClassScreen {
  std::vector<std::string> ask;
  std::vector<std::string> answer;
};
ClassScreen MakeClassScreen(const ClassRun& run, const LabWords& words);

// The question a class predicts for a scenario file of the labs ("" for a file without one).
std::string ClassQuestion(const std::string& file, sim::Language language);

// `text` after `label`, wrapped to `width` columns under itself (Chinese breaks anywhere, other
// text at a space).
std::vector<std::string> Wrap(const std::string& label, const std::string& text, size_t width = kClassColumns);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_CLASS_MODE_H_
