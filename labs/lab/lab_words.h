// The lab's own words (`lab --lang en|zh`): section labels, summary lines, verdicts. Log lines stay
// in the engines' English, names and numbers as they are; the explanations have their own
// (sim/explain.h). Every entry takes its arguments in the same order in both languages.
#ifndef COMMITLAB_LABS_LAB_WORDS_H_
#define COMMITLAB_LABS_LAB_WORDS_H_

#include <string_view>

#include "commitlab/sim/explain.h"

namespace commitlab::cli {

struct LabWords {
  sim::Language language;
  std::string_view source;           // {0}: the source passage
  std::string_view claim;            // {0}: the claim
  std::string_view lecture_run;      // {0} run, {1} lost races, {2} seed
  std::string_view on_threads;       // how the Paimon race runs by default
  std::string_view simulated;        // {0} seed, {1} strategy
  std::string_view atomic_failures;  // {0} total, {1} "job-A 12, job-B 13": Paimon's lost races
  std::string_view tally;            // {0} conflicts, {1} unknown outcomes, {2} idempotent matches
  std::string_view failed_jobs;      // {0} count, {1} " (w refused)" or ""
  std::string_view latest;           // {0} "table t: " or "", {1} id
  std::string_view per_user;         // {0} "table t: " or "", {1} {user=n, ...}
  std::string_view table_prefix;     // {0} table name
  std::string_view matrix_tally;     // {0} atomic failures, {1} conflicts, {2} writers refused
  std::string_view expectations;     // {0} held, {1} of, {2} file
  std::string_view chain_heading;    // {0} table, {1} protocol
  std::string_view lectures;         // {0} note
  std::string_view timeline;         // {0} "OUT: N writer(s), ..."
  std::string_view verdict;          // {0} AGREES/DIFFERS word, {1} " — claim" or ""
  std::string_view agrees;
  std::string_view differs;
  std::string_view verdicts_heading;
  std::string_view invariants;  // the label of the invariants line, for --brief's wrapping
};

// "en" or "zh"; null for anything else.
const LabWords* FindLabWords(std::string_view lang);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_LAB_WORDS_H_
