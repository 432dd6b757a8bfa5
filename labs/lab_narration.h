// Narration shared by the Iceberg and Delta labs: experiment titles, the writers' log lines (the
// engines' events in the format's own words), table-state lines, the first lines of a refusal, and
// verdict lines that compare what a run did with what the seed documents say.
//
// Everything goes through one Narration, which prints to stdout or nowhere (--json prints only the
// verdicts). The formatters are pure functions so that tests can pin them.
#ifndef COMMITLAB_LABS_LAB_NARRATION_H_
#define COMMITLAB_LABS_LAB_NARRATION_H_

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/delta/actions.h"
#include "commitlab/core/env.h"
#include "commitlab/core/events.h"
#include "commitlab/core/iceberg/model.h"
#include "commitlab/core/rng.h"
#include "commitlab/core/status.h"

namespace commitlab::cli {

// --- pure formatters ---

// The first `n` lines of `text` (all of them when it has fewer).
std::vector<std::string> FirstLines(std::string_view text, size_t n);
// Cuts every UUID (8-4-4-4-12 hex digits) in `text` to its first 8 digits and "…": paths such
// as metadata/00002-cb41eecb-51a9-6e38-3834-e6ccbeef326c.metadata.json stay recognizable and the
// log lines stay readable.
std::string AbbreviateUuids(std::string_view text);
// The exception a failure's message starts with ("ValidationException" of "ValidationException:
// Found ..."); "" when the first word is not one.
std::string ExceptionName(std::string_view message);
// The exception a failure names, else its status code ("Conflict").
std::string FailureName(const Status& st);
// "a, b, c".
std::string Join(const std::vector<std::string>& items, std::string_view sep = ", ");
// A snapshot id cut to its first six digits, "305177…", as a reader matches it against the full
// id in "Committed snapshot 3051774107949218754"; "none" for no snapshot.
std::string ShortSnapshotId(std::optional<int64_t> id);
// "v2  snapshot 655729…  append     by writer-b  parent 305177…  files 3"
std::string IcebergSnapshotLine(const iceberg::TableMetadata& m);
// "version 2  INSERT    by B  add=1 remove=0  read v0  Serializable  blindAppend"
std::string DeltaVersionLine(int64_t version, const delta::Commit& c);

// What a run showed, and whether that is what the seed documents say.
struct Verdict {
  std::string observed = {};  // computed from the run
  bool as_seed = false;       // the run agrees with the claim
  std::string claim = {};     // what the source says happens
  std::string source = {};    // where it says so: "seed 003", "seed 002 3.1", "the Delta docs"
};
// "verdict: <observed> — as in seed 003", or "verdict: <observed> — DIFFERS from seed 003: <claim>".
std::string VerdictLine(const Verdict& v);

// One experiment's outcome, for the closing summary and --json.
struct ExperimentReport {
  int number = 0;
  std::string key = {};
  std::vector<Verdict> verdicts = {};

  bool as_seed() const;
};
// "3. counter      AGREES   3 of 3 runs as their sources say" (with what differs, if anything).
std::string SummaryLine(const ExperimentReport& r);
// {"lab": "iceberg", "as_seed": true, "experiments": [{"number": 1, "key": "race", "as_seed": true,
//  "verdicts": [{"observed": "...", "as_seed": true, "claim": "...", "source": "seed 003"}]}]}
std::string ReportsJson(std::string_view lab, const std::vector<ExperimentReport>& reports);

// --- printing ---

class Narration {
 public:
  // `out` null: print nothing.
  explicit Narration(std::FILE* out) : out_(out) {}

  template <typename... Args>
  void Line(fmt::format_string<Args...> f, Args&&... args) {
    if (out_ != nullptr) fmt::print(out_, "{}\n", AbbreviateUuids(fmt::format(f, std::forward<Args>(args)...)));
  }
  // "\n== 3. counter: The lost-update counter ==" and the intro, wrapped as given.
  void Title(int number, std::string_view key, std::string_view title, std::string_view intro);
  // A sub-run's heading inside an experiment: "\n-- 3b. ... --".
  void Part(std::string_view label, std::string_view text);
  // What the lab does next, in its own voice: "   * text".
  void Step(std::string_view text);
  // A table-state line: "         text".
  void State(std::string_view text);
  // A failure: "   [writer] refused: <first line>", or "   [writer] refused with <Exception>" when
  // an event's log line already showed the first line; then up to max_lines - 1 more lines.
  void Refusal(std::string_view writer, const Status& st, bool logged, size_t max_lines = 3);
  // Prints the verdict line and returns the verdict.
  Verdict Judge(Verdict v);
  // The verdict of a run whose setup failed (never expected): it differs from the seed.
  Verdict SetupFailed(std::string_view what, const Status& st);

 private:
  std::FILE* const out_;
};

// Prints every engine event as "   LEVEL [writer] <first line>", then calls `after` (e.g. to print
// the table state once a commit has landed). Single-threaded: the labs run scripted interleavings.
class EventNarrator final : public EventSink {
 public:
  explicit EventNarrator(Narration* n) : n_(n) {}
  void OnEvent(const Event& e) override;
  void set_after(std::function<void(const Event&)> after) { after_ = std::move(after); }

 private:
  Narration* const n_;
  std::function<void(const Event&)> after_;
};

// The Env of a scripted lab run: one thread, time moves only when a writer sleeps or the lab
// advances it, a fixed seed, no faults. The same run prints the same text every time.
class LabEnv final : public Env {
 public:
  explicit LabEnv(uint64_t seed) : rng_(seed) {}

  int64_t NowMicros() override { return now_; }
  void SleepMicros(int64_t micros) override { now_ += micros; }
  Rng& rng() override { return rng_; }
  void BeginStorageOp(StorageOp) override {}
  void EndStorageOp(StorageOp) override {}
  Status FaultPoint(std::string_view) override { return Status::OK(); }
  // Lets minutes pass between two steps of a story.
  void Advance(int64_t micros) { now_ += micros; }

 private:
  int64_t now_ = 0;
  Rng rng_;
};

// One experiment of a lab: a title, an intro in the seed's terms, and a run that narrates itself
// and returns its verdicts.
struct Experiment {
  int number = 0;        // the numbering
  std::string key = {};  // --experiment
  std::string title = {};
  std::string intro = {};
  std::function<std::vector<Verdict>(Narration&)> run = {};
};

// The command line of `commitlab lab <lab>`: --experiment KEY (default: all), --json, --help; an
// optional positional that must name the lab itself. Runs the chosen experiments in order, then
// prints the summary (or the JSON). Exit codes: 0 every outcome as its source says, 1 some differ,
// 2 usage error.
int RunNarratedLab(std::string_view lab, std::string_view heading, const std::vector<Experiment>& experiments,
                   const std::vector<std::string>& args);

}  // namespace commitlab::cli

#endif  // COMMITLAB_LABS_LAB_NARRATION_H_
