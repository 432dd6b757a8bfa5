// `commitlab lab paimon | iceberg | delta`: the experiments of the source lectures (docs/lectures.md), narrated.
// Every section runs scenario files (scenarios/*.scn) and tells them the same way: the source passage
// and the claim the file carries, the writers' log lines in the format's own words, what each scripted
// step did, a Paimon table's snapshots as they land and an Iceberg or Delta table's chain at the end, a
// refusal's first lines, the summary, and a verdict computed from the file's expect lines: AGREES when
// the run shows what the source says, DIFFERS otherwise. The experiments live in the files; this file
// only says which files make up each lab.
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "commands/cli.h"
#include "commands/run_settings.h"
#include "commitlab/core/file_read.h"
#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/protocols.h"
#include "commitlab/scenarios/report_json.h"
#include "commitlab/scenarios/runner.h"
#include "commitlab/sim/detail_words.h"
#include "commitlab/sim/history.h"
#include "commitlab/sim/protocol_words.h"
#include "lab/brief_output.h"
#include "lab/class_mode.h"
#include "lab/lab_text.h"
#include "lab/lab_words.h"
#include "lab/lecture_notes.h"
#include "lab/report_words.h"
#include "output/history_file.h"
#include "output/log_printer.h"
#include "output/report_output.h"
#include "output/run_recording.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;
using scenarios::RunReport;

constexpr std::string_view kCommand = "lab";

struct LabSection {
  std::string key;                 // --experiment
  std::vector<std::string> files;  // under scenarios/
  bool on_threads = false;         // by default on OS threads, as S2 第 5 讲 ran it
  bool matrix = false;             // narrated as the Delta conflict matrix
};

struct Lab {
  std::string name;
  std::string heading;
  std::string heading_zh;            // --lang zh
  std::vector<LabSection> sections;  // numbered from 1
};

const std::vector<Lab>& Labs() {
  static const std::vector<Lab> kLabs = {
      {"paimon",
       "Paimon lab (S2 第 5 讲：并发提交——乐观锁、冲突检测、重试): concurrent commits, optimistic locking, "
       "conflict detection, retries, the store under the rename",
       "Paimon 实验（S2 第 5 讲：并发提交——乐观锁、冲突检测、重试），以及 rename 之下的存储",
       {{"race", {"paimon_race.scn"}, /*on_threads=*/true},
        {"excerpt", {"paimon_race_excerpt.scn"}},
        {"conflict", {"paimon_conflict.scn"}},
        {"failover", {"paimon_conflict_failover.scn"}},
        {"dedicated", {"paimon_dedicated_compaction.scn"}},
        {"lsm", {"paimon_lsm.scn", "paimon_lsm_disjoint.scn"}},
        {"idempotent", {"paimon_idempotent.scn"}},
        {"unknown", {"paimon_unknown.scn", "paimon_unknown_no_check.scn"}},
        {"retries", {"paimon_retries_exhausted.scn"}},
        {"crash", {"paimon_crash_orphans.scn"}},
        // S2 第 5 讲's "原子 rename 的前提" (docs/lectures.md#s2-5-details): the store under the commit.
        {"objectstore",
         {"object_store_check_then_put.scn", "object_store_locked.scn", "object_store_conditional_put.scn"}}}},
      {"iceberg",
       "Iceberg lab (04 事务与并发控制——乐观锁与 Optimistic Concurrency; 无锁并发写入 — 乐观并发保护什么、不保护什么): "
       "catalog compare-and-swap, validation, isolation levels, orphans, expiry",
       "Iceberg 实验（04 事务与并发控制——乐观锁与 Optimistic Concurrency；无锁并发写入 — 乐观并发保护什么、不保护什么）："
       "Catalog 条件式替换、验证、隔离级别、孤儿文件、快照过期",
       {{"race", {"iceberg_append_race.scn"}},
        {"retries0", {"iceberg_no_retry_orphans.scn"}},
        {"counter", {"iceberg_counter.scn", "iceberg_counter_stale.scn", "iceberg_counter_reread.scn"}},
        {"isolation",
         {"iceberg_overwrite_partitions.scn", "iceberg_overwrite_unvalidated.scn", "iceberg_delete_isolation.scn"}},
        {"orphans", {"iceberg_orphans_in_flight.scn"}},
        {"expiry", {"iceberg_long_reader.scn"}},
        {"unknown", {"iceberg_commit_state_unknown.scn"}},
        {"matrix", {"iceberg_conflict_matrix.scn"}, false, /*matrix=*/true}}},
      {"delta",
       "Delta lab (04 事务与并发控制 3.3 and the Delta Lake docs): put-if-absent log versions, the conflict checker, "
       "isolation levels, the conflict matrix",
       "Delta 实验（04 事务与并发控制 3.3 与 Delta Lake 文档）：put-if-absent 的日志版本、冲突检查、隔离级别、冲突矩阵",
       {{"conflicts",
         {"delta_conflicts.scn", "delta_read_vs_append.scn", "delta_compaction.scn", "delta_app_ids.scn",
          "delta_metadata_protocol.scn"}},
        {"matrix", {"delta_conflict_matrix.scn"}, false, /*matrix=*/true}}},
  };
  return kLabs;
}

std::string Names(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// scenarios/ under the current directory, else under the binary's folder or one of its parents
// (build/commitlab -> ../scenarios, build/asan/commitlab -> ../../scenarios). Messages always say
// scenarios/NAME.scn, never where the machine keeps it.
Result<fs::path> FindScenarioDir() {
  const std::string probe = Labs().front().sections.front().files.front();
  if (fs::is_regular_file(fs::path("scenarios") / probe)) return fs::path("scenarios");
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (fs::path dir = exe.parent_path(); !dir.empty(); dir = dir.parent_path()) {
      if (fs::is_regular_file(dir / "scenarios" / probe)) return dir / "scenarios";
      if (dir == dir.parent_path()) break;
    }
  }
  return Status::NotFound(fmt::format(
      "cannot find the scenario files (scenarios/{}): looked in scenarios/ under the current directory and above "
      "the commitlab binary; run it from the project directory",
      probe));
}

Result<scenarios::Scenario> LoadScenario(const fs::path& dir, const std::string& file) {
  const std::string shown = "scenarios/" + file;  // as the project names it, not this machine
  Result<std::string> text = ReadRegularFile((dir / file).string(), scenarios::kMaxFileBytes);
  if (!text.ok()) return Status::InvalidArgument(fmt::format("cannot read scenario file {}", shown));
  return scenarios::ParseScenario(*text, shown);
}

// Narrates a scripted run: what each step did, each Paimon snapshot as it lands, a refusal (its
// first lines; with --verbose all of it, Paimon's "Don't panic!" advice included).
class Narrator : public scenarios::RunObserver {
 public:
  Narrator(bool verbose, sim::Language language) : verbose_(verbose), language_(language) {}
  // Called on the writers' fibers: nothing here may throw (WriteText).
  void OnSnapshot(const scenarios::Table&, const Snapshot& s) override {
    WriteText(stdout, fmt::format("           {}\n", SnapshotLineIn(s, language_)));
  }
  void OnStep(const scenarios::Writer& writer, const scenarios::Step& step,
              const scenarios::StepResult& result) override {
    // A commit speaks through its log lines and snapshots; the other steps are told here.
    std::string text;
    if (!step.op->told_by_its_log() && !result.detail.empty())
      text += fmt::format("         [{}] {}\n", writer.name,
                          AbbreviateUuids(sim::StepDetailSentence(result.detail, language_)));
    if (result.status == scenarios::StepStatus::kFailed) {
      text += fmt::format("         [{}] {}{}\n", writer.name, OutcomeWord(result.outcome, language_),
                          language_ == sim::Language::kChinese ? "：" : ":");
      const std::vector<std::string> lines =
          verbose_ ? FirstLines(result.error, static_cast<size_t>(-1)) : RefusalLines(result.error);
      for (const std::string& line : lines) text += fmt::format("         | {}\n", AbbreviateUuids(line));
    }
    WriteText(stdout, text);
  }

 private:
  const bool verbose_;
  const sim::Language language_;
};

// A LabWords entry filled in: the entries are runtime strings, one set per language.
template <typename... Args>
std::string Say(std::string_view entry, Args&&... args) {
  return fmt::format(fmt::runtime(entry), std::forward<Args>(args)...);
}

void PrintSummary(const RunReport& r, bool matrix, const LabWords& words) {
  std::string failed;
  int failed_jobs = 0;
  for (const scenarios::WriterReport& w : r.writers) {
    if (w.outcome == scenarios::Outcome::kOk) continue;
    ++failed_jobs;
    const bool zh = words.language == sim::Language::kChinese;
    failed += fmt::format("{}{} {}", failed.empty() ? (zh ? "（" : " (") : (zh ? "，" : ", "), w.name,
                          WriterOutcomeWord(w, words.language));
  }
  if (matrix) {
    fmt::print("\n{}\n", Say(words.matrix_tally, r.tally.atomic_failures, r.tally.conflicts, failed_jobs));
  } else {
    std::string per_writer;
    for (const scenarios::WriterReport& w : r.writers)
      per_writer += fmt::format("{}{} {}", per_writer.empty() ? "" : ", ", w.name, w.counters.atomic_failures);
    // Each protocol's lost races in its lecture's words (S2 第 5 讲 quotes Paimon's log line).
    const std::string_view protocol = r.tables.empty() ? "paimon" : ProtocolName(r.table().protocol);
    const std::string_view lost =
        words.language == sim::Language::kChinese ? sim::WordsOf(protocol).tally_zh : words.atomic_failures;
    fmt::print("\n{}\n", Say(lost, r.tally.atomic_failures, per_writer));
    fmt::print("{}\n", Say(words.tally, r.tally.conflicts, r.tally.unknown_outcomes, r.tally.idempotent_matches));
    const std::string close = words.language == sim::Language::kChinese ? "）" : ")";
    fmt::print("{}\n", Say(words.failed_jobs, failed_jobs, failed.empty() ? "" : failed + close));
    for (const scenarios::TableReport& t : r.tables) {
      const std::string prefix = r.tables.size() > 1 ? Say(words.table_prefix, t.name) : "";
      fmt::print("{}\n", Say(words.latest, prefix, t.latest_snapshot));
      fmt::print("{}\n", Say(words.per_user, prefix, scenarios::PerUserLine(t)));
    }
  }
  for (const std::string& line : InvariantLinesIn(r, words.language)) fmt::print("{}\n", line);
  for (const std::string& e : r.run_errors) fmt::print("ERROR {}\n", e);
  for (const scenarios::ExpectationResult& e : r.expectations)
    if (!e.passed) fmt::print("{}\n", ExpectationLineIn(e, words.language));
  fmt::print("{}\n", Say(words.expectations, r.expectations_passed(), r.expectations.size(), r.scenario));
}

// S2 第 5 讲's three runs of the race (docs/lectures.md#s2-5-race: 第 1 次 25, 第 2 次 18, run-all.sh's 11 lost
// races), each a seed of scenarios/paimon_race.scn simulated that loses as many races, 60 of 60 landing.
struct LectureRun {
  int lost_races;
  uint64_t seed;
};
constexpr LectureRun kLectureRuns[] = {{25, 12}, {18, 1}, {11, 27}};

struct LabFlags {
  std::optional<std::string> sched;
  std::optional<uint64_t> seed;
  bool verbose = false;
  bool json = false;
  bool in_class = false;       // --class: one screen a run, a question and a key press
  bool wait_for_keys = false;  // --class on a terminal: the key presses wait
  std::string timeline_dir;    // --timeline: one page per run, named by section and file
  std::string timeline_ext = "html";
  bool explain = true;                     // say why after each run (--no-explain: not)
  const LabWords* words = nullptr;         // --lang
  int lecture_run = 0;                     // 1..3: the race as S2 第 5 讲's run N went
  std::vector<std::string> argv;           // the command line, for the histories' headers
  std::string lab;                         // its name, for the replay lines
  std::vector<std::string> class_heading;  // --class: the lab's heading, wrapped, on the first screen
};

struct SectionRun {
  RunReport report;
  std::string claim;
  std::string source;
};

// A file of a section, read and planned, with its words in the lab's language.
struct Prepared {
  scenarios::Scenario scenario = {};
  scenarios::RunOptions options = {};
  scenarios::RunPlan plan = {};
  std::string title = {};
  std::string claim = {};
  bool zh = false;
};

Result<Prepared> Prepare(const LabSection& section, const fs::path& dir, const std::string& file,
                         const LabFlags& flags) {
  COMMITLAB_ASSIGN_OR_RETURN(scenarios::Scenario scenario, LoadScenario(dir, file));
  Prepared p{.scenario = std::move(scenario)};
  p.options.seed = flags.seed;
  p.options.sched = flags.sched;
  // As S2 第 5 讲 ran it, unless a seed asks for a reproducible run.
  if (!flags.sched && section.on_threads) p.options.sched = flags.seed ? "random" : "free";
  if (flags.lecture_run > 0 && section.on_threads) {
    p.options.sched = "random";
    p.options.seed = kLectureRuns[flags.lecture_run - 1].seed;
  }
  COMMITLAB_ASSIGN_OR_RETURN(p.plan, scenarios::PlanRun(p.scenario, p.options));
  p.zh = flags.words->language == sim::Language::kChinese;
  p.title = p.zh && !p.scenario.title_zh.empty() ? p.scenario.title_zh : p.scenario.title;
  p.claim = p.zh && !p.scenario.claim_zh.empty() ? p.scenario.claim_zh : p.scenario.claim;
  return p;
}

void PrintHeading(const Prepared& p, const LabSection& section, int number, const LabFlags& flags) {
  fmt::print("\n== {}. {}{}{} ==\n", number, section.key, p.zh ? "：" : ": ", p.title);
  const LabWords& w = *flags.words;
  if (!p.scenario.source.empty()) fmt::print("{}\n", Say(w.source, p.scenario.source));
  if (!p.claim.empty()) fmt::print("{}\n", Say(w.claim, p.claim));
  if (flags.lecture_run > 0 && section.on_threads) {
    fmt::print("{}\n", Say(w.lecture_run, flags.lecture_run, kLectureRuns[flags.lecture_run - 1].lost_races,
                           kLectureRuns[flags.lecture_run - 1].seed));
  }
  fmt::print(fmt::runtime(p.zh ? "（{}：{}）\n\n" : "({}: {})\n\n"), p.scenario.file_name,
             p.plan.free ? std::string(w.on_threads) : Say(w.simulated, p.plan.seed, p.plan.strategy));
}

// The conflict matrix's lines, or none when the report is not a run of a matrix scenario.
std::vector<std::string> MatrixLines(const RunReport& report, const std::string& file, bool zh, bool with_legend) {
  std::optional<std::vector<std::string>> lines = ConflictMatrixLines(report, zh);
  if (!lines) return {};
  if (!with_legend) return *lines;
  const char* legend = !file.starts_with("iceberg") ? "Append = ConcurrentAppendException, ..."
                       : zh                         ? "ValidationException：新数据 = Found conflicting files，\n"
                                                      "文件已删 = Found conflicting deleted files，缺少文件 = Missing required files to delete"
                                                    : "ValidationException: new data = Found conflicting files,\n"
                                                      "files deleted = Found conflicting deleted files, files missing = Missing required files "
                                                      "to delete";
  std::string head = fmt::format(
      fmt::runtime(
          zh ? "每格是后提交一方的结果（行先提交；{}），\n然后是两两之间：任一顺序下第二个提交被拒绝即为“会冲突”。\n"
             : "The loser's outcome per cell (the row committed first; {}),\n"
               "then the pairs: \"can\" when either order refused the second commit.\n"),
      legend);
  std::vector<std::string> out = FirstLines(head, static_cast<size_t>(-1));
  out.insert(out.end(), lines->begin(), lines->end());
  return out;
}

// The narration after a run: the chain or matrix, the summary, notes, why and the verdict.
void Narrate(const Prepared& p, const LabSection& section, const std::string& file, const RunReport& report,
             const RunRecording& recording, const LabFlags& flags) {
  const LabWords& w = *flags.words;
  if (section.matrix) {
    for (const std::string& line : MatrixLines(report, file, p.zh, /*with_legend=*/true)) fmt::print("{}\n", line);
  } else {
    for (const scenarios::TableReport& t : report.tables) {
      if (scenarios::WordsOf(t.protocol).narrated) continue;  // its snapshots were shown as they landed
      fmt::print("\n{}\n", Say(w.chain_heading, t.name, ProtocolName(t.protocol)));
      for (const std::string& line : ChainLines(t, p.zh)) fmt::print("           {}\n", line);
    }
  }
  PrintSummary(report, section.matrix, w);
  for (const std::string& note : LectureNotes(file, p.scenario, report, p.zh))
    fmt::print("{}\n", Say(w.lectures, note));
  // The matrix's cells are its explanation; elsewhere a few of each kind say why.
  if (!section.matrix && !recording.explanation().empty()) fmt::print("\n{}", recording.explanation());
  if (!recording.timeline_summary().empty()) fmt::print("{}\n", Say(w.timeline, recording.timeline_summary()));
  const std::string failure = FailureSummaryIn(report, w.language);
  fmt::print("{}\n", Say(w.verdict, report.ok() ? w.agrees : w.differs,
                         " — " + p.claim +
                             (report.ok() ? ""
                              : p.zh      ? "（" + failure + "）"
                                          : " (" + failure + ")")));
}

// Waits for Enter on a terminal (false: the class asked to stop with q); elsewhere goes on.
bool KeyPress(const LabFlags& flags, std::string_view prompt) {
  fmt::print("{}\n", prompt);
  std::fflush(stdout);
  if (!flags.wait_for_keys) return true;
  std::string line;
  if (!std::getline(std::cin, line)) return true;
  return line != "q";
}

// The command that runs it again: a simulated run by its seed; a run on OS threads cannot be
// repeated, only simulated.
std::string ReplayLine(const Prepared& p, const std::string& file, const RunReport& report, const LabFlags& flags) {
  if (p.plan.free) {
    return Say(flags.words->language == sim::Language::kChinese
                   ? "操作系统线程上的运行无法重放；模拟版：commitlab lab {0} --experiment race --seed 1"
                   : "a run on OS threads does not repeat; simulated: commitlab lab {0} --experiment race --seed 1",
               flags.lab);
  }
  std::string line = fmt::format("commitlab run scenarios/{} --seed {} --sched {}", file, p.plan.seed, p.plan.sched);
  // A schedule is long: its digest says which it was; the seed and strategy make it again.
  if (report.schedule.size() > 40)
    line += fmt::format(fmt::runtime(p.zh ? "（调度串 sha256 {}，{} 个字符）" : " (schedule sha256 {}, {} chars)"),
                        sim::Sha256Hex(report.schedule).substr(0, 12), report.schedule.size());
  return line;
}

// `lab --class`: the run as one screen, with a question before it runs and a key press between.
bool PresentToClass(const Prepared& p, const LabSection& section, int number, const std::string& file,
                    const RunReport& report, const RunRecording& recording, const LabFlags& flags) {
  const LabWords& w = *flags.words;
  ClassRun run{.number = number,
               .key = section.key,
               .file = file,
               .title = p.title,
               .claim = p.claim,
               .source = p.scenario.source,
               .how = p.plan.free ? std::string(w.on_threads) : Say(w.simulated, p.plan.seed, p.plan.strategy),
               .replay = ReplayLine(p, file, report, flags),
               .report = &report,
               .why = recording.explanations(),
               .notes = LectureNotes(file, p.scenario, report, p.zh),
               .matrix = section.matrix ? MatrixLines(report, file, p.zh, false) : std::vector<std::string>{},
               .heading = flags.class_heading};
  const ClassScreen screen = MakeClassScreen(run, w);
  if (flags.wait_for_keys) fmt::print("\x1b[H\x1b[2J");
  for (const std::string& line : screen.ask) fmt::print("{}\n", line);
  if (!KeyPress(flags, p.zh ? "[按 Enter 运行，q 退出]" : "[Enter: run · q: quit]")) return false;
  for (const std::string& line : screen.answer) fmt::print("{}\n", line);
  return KeyPress(flags, p.zh ? "[按 Enter 进入下一节，q 退出]" : "[Enter: next · q: quit]");
}

// Runs one file of a section, narrating it unless --json; with --class, as one screen. `go_on`
// is false once the class asked to stop.
Result<SectionRun> RunFile(const LabSection& section, int number, const fs::path& dir, const std::string& file,
                           const LabFlags& flags, bool* go_on) {
  COMMITLAB_ASSIGN_OR_RETURN(Prepared p, Prepare(section, dir, file, flags));
  const bool quiet = flags.json || flags.in_class || (section.matrix && !flags.verbose);
  LogPrinter printer(stdout, flags.verbose);
  NullEventSink none;
  Narrator narrator(flags.verbose, flags.words->language);
  p.options.events = quiet ? static_cast<EventSink*>(&none) : &printer;
  if (!quiet && !p.plan.free) p.options.observer = &narrator;
  if (!flags.json && !flags.in_class) PrintHeading(p, section, number, flags);
  // The run's history, kept only for its drawing (--timeline) and its explanations.
  std::string drawing;
  if (!flags.timeline_dir.empty()) {
    drawing = (fs::path(flags.timeline_dir) /
               fmt::format("{:02}-{}-{}.{}", number, section.key, fs::path(file).stem().string(), flags.timeline_ext))
                  .string();
  }
  COMMITLAB_ASSIGN_OR_RETURN(std::unique_ptr<RunRecording> recording,
                             RunRecording::Start({.trace = "",
                                                  .timeline = drawing,
                                                  .explain = flags.explain && !flags.json,
                                                  .explain_max_per_kind = 3,
                                                  .language = flags.words->language},
                                                 HistoryHeader(kCommand, flags.argv, {{"section", section.key}},
                                                               scenarios::PlanJson(p.plan), p.scenario)));
  p.options.history = recording->history();
  COMMITLAB_ASSIGN_OR_RETURN(RunReport report, scenarios::RunScenario(p.scenario, p.options));
  COMMITLAB_RETURN_IF_ERROR(recording->Finish(kCommand, scenarios::HistoryFooter(report)));
  if (flags.in_class) {
    *go_on = PresentToClass(p, section, number, file, report, *recording, flags);
  } else if (!flags.json) {
    Narrate(p, section, file, report, *recording, flags);
  }
  return SectionRun{std::move(report), p.scenario.claim, p.scenario.source};
}

// The command line as given, before it is checked.
struct LabArgs {
  std::string lab_name;
  std::string only;
  std::string sched;
  uint64_t seed = 0;
};

po::options_description LabOptions(LabArgs* a, LabFlags* flags) {
  po::options_description options("commitlab lab paimon|iceberg|delta [options]");
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("lab", po::value(&a->lab_name), "the lab: paimon, iceberg or delta")
      ("experiment", po::value(&a->only), "run only this section (its key; see the list below)")
      ("sched", po::value(&a->sched),
       "free | random | pct | round-robin (default: each file's own; the Paimon race on OS threads)")
      ("seed", po::value(&a->seed), "seed of a simulated run (default: each file's own)")
      ("verbose", "also print attempts and retry waits (and the matrix's log)")
      ("json", "print one JSON report (docs/report.schema.json) instead of the narration")
      ("timeline", po::value(&flags->timeline_dir),
       "draw each run's timeline into this folder (created if missing): NN-SECTION-FILE.html")
      ("timeline-format", po::value(&flags->timeline_ext), "html (an interactive page, the default) or svg")
      ("no-explain", "do not say why after each run (who won each lost race, what a refusal conflicted with)")
      ("brief", "for a projector: lines of at most 100 columns, short ids, nothing said twice")
      ("class", "for a class: each run one screen (40 x 100): the claim, a question to predict, Enter, the run in "
                "brief and the answer with its why; on a terminal Enter goes on and q stops")
      ("lang", po::value<std::string>()->default_value("en"),
       "en or zh: the language of the lab's own words (log lines stay in the engines' English)")
      ("lecture-run", po::value(&flags->lecture_run),
       "1, 2 or 3: the Paimon race as S2 第 5 讲's run 1, 2 or 3 went (25, 18, 11 lost races), simulated");
  // clang-format on
  return options;
}

void PrintLabHelp(const po::options_description& options) {
  fmt::print("{}\nSections (--experiment):\n", fmt::streamed(options));
  for (const Lab& l : Labs()) {
    std::vector<std::string> keys;
    for (const LabSection& s : l.sections) keys.push_back(s.key);
    fmt::print("  {:<8} {}\n", l.name, Names(keys));
  }
}

// The lab the command names, or why there is none.
Result<const Lab*> FindLab(const std::string& name) {
  std::vector<std::string> names;
  for (const Lab& l : Labs()) names.push_back(l.name);
  if (name.empty())
    return Status::InvalidArgument(fmt::format("missing the lab to run (expected one of {})", Names(names)));
  for (const Lab& l : Labs())
    if (l.name == name) return &l;
  return Status::InvalidArgument(fmt::format("unknown lab '{}' (expected one of {})", name, Names(names)));
}

// Fills `flags` from the command line; an error says which flags do not go together.
Status CheckLabFlags(const po::variables_map& vm, const std::vector<std::string>& args, const LabArgs& a,
                     const Lab& lab, LabFlags* flags) {
  if (vm.count("sched")) flags->sched = a.sched;
  if (vm.count("seed")) flags->seed = a.seed;
  flags->verbose = vm.count("verbose") > 0;
  flags->json = vm.count("json") > 0;
  flags->argv = WithoutFlags(args, {"--timeline", "--timeline-format", "--lang"},
                             {"--json", "--verbose", "--brief", "--no-explain", "--class"});
  flags->in_class = vm.count("class") > 0;
  flags->wait_for_keys = flags->in_class && ::isatty(STDIN_FILENO) && ::isatty(STDOUT_FILENO);
  flags->lab = a.lab_name;
  flags->words = FindLabWords(vm["lang"].as<std::string>());
  if (flags->words == nullptr)
    return Status::InvalidArgument(fmt::format("--lang '{}' is not one of en, zh", vm["lang"].as<std::string>()));
  flags->explain = vm.count("no-explain") == 0;
  if (vm.count("lecture-run")) {
    if (flags->lecture_run < 1 || flags->lecture_run > 3)
      return Status::InvalidArgument(fmt::format("--lecture-run {} is not one of 1, 2, 3", flags->lecture_run));
    if (a.lab_name != "paimon") return Status::InvalidArgument("--lecture-run is for lab paimon (S2 第 5 讲's race)");
    if (vm.count("sched") || vm.count("seed"))
      return Status::InvalidArgument("--lecture-run chooses the seed: leave out --sched and --seed");
  }
  if (flags->timeline_ext != "html" && flags->timeline_ext != "svg")
    return Status::InvalidArgument(fmt::format("--timeline-format '{}' is not one of html, svg", flags->timeline_ext));
  if (vm.count("timeline-format") && flags->timeline_dir.empty())
    return Status::InvalidArgument("--timeline-format needs --timeline DIR");
  if (!flags->timeline_dir.empty()) {
    std::error_code ec;
    fs::create_directories(flags->timeline_dir, ec);
    if (ec || !fs::is_directory(flags->timeline_dir))
      return Status::InvalidArgument(fmt::format("--timeline {}: cannot make a folder there{}", flags->timeline_dir,
                                                 ec ? ": " + ec.message() : ""));
  }
  std::vector<std::string> keys;
  for (const LabSection& s : lab.sections) keys.push_back(s.key);
  if (!a.only.empty() && std::find(keys.begin(), keys.end(), a.only) == keys.end())
    return Status::InvalidArgument(fmt::format("--experiment '{}' is not one of {}", a.only, Names(keys)));
  if (vm.count("brief") && flags->json)
    return Status::InvalidArgument("--brief shortens the narration; --json has none");
  if (flags->in_class && (flags->json || vm.count("brief") || flags->verbose))
    return Status::InvalidArgument("--class is a narration of its own: not with --json, --brief or --verbose");
  return Status::OK();
}

// Runs the lab's sections (or the one --experiment names): each run's JSON into `report`, its
// verdict line into `verdicts`. Returns whether every run agreed with its claim.
Result<bool> RunSections(const Lab& lab, const std::string& only, const fs::path& dir, const LabFlags& flags,
                         sim::Json* report, std::vector<std::string>* verdicts) {
  bool agrees = true;
  bool go_on = true;              // --class: until q
  LabFlags screen_flags = flags;  // --class: the lab's heading on the first screen only
  for (size_t i = 0; i < lab.sections.size() && go_on; ++i) {
    const LabSection& section = lab.sections[i];
    if (!only.empty() && section.key != only) continue;
    const int number = static_cast<int>(i) + 1;
    for (size_t f = 0; f < section.files.size() && go_on; ++f) {
      const std::string& file = section.files[f];
      COMMITLAB_ASSIGN_OR_RETURN(SectionRun run, RunFile(section, number, dir, file, screen_flags, &go_on));
      screen_flags.class_heading.clear();
      const bool ok = run.report.ok();
      agrees = agrees && ok;
      verdicts->push_back(fmt::format("{:>2}. {:<11} {:<8} scenarios/{}", number, section.key,
                                      ok ? flags.words->agrees : flags.words->differs, file));
      sim::Json json = scenarios::RunJson(run.report);
      json["section"] = {{"lab", lab.name},    {"number", number},     {"key", section.key},
                         {"claim", run.claim}, {"source", run.source}, {"agrees", ok}};
      (*report)["runs"].push_back(std::move(json));
    }
  }
  return agrees;
}

}  // namespace

int RunLab(const std::vector<std::string>& args) {
  LabArgs a;
  LabFlags flags;
  const po::options_description options = LabOptions(&a, &flags);
  po::positional_options_description positional;
  positional.add("lab", 1);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    PrintLabHelp(options);
    return kExitOk;
  }
  Result<const Lab*> found = FindLab(a.lab_name);
  if (!found.ok()) return UsageError(kCommand, found.status().message());
  const Lab& lab = **found;
  if (Status checked = CheckLabFlags(vm, args, a, lab, &flags); !checked.ok())
    return UsageError(kCommand, checked.message());
  Result<fs::path> dir = FindScenarioDir();
  if (!dir.ok()) return UsageError(kCommand, dir.status().message());
  std::optional<BriefStdout> brief;
  if (vm.count("brief")) brief.emplace();

  sim::Json report = ReportEnvelope(kCommand, {{"lab", lab.name},
                                               {"experiment", a.only.empty() ? sim::Json(nullptr) : sim::Json(a.only)},
                                               {"sched", flags.sched ? sim::Json(*flags.sched) : sim::Json(nullptr)},
                                               {"seed", flags.seed ? sim::Json(*flags.seed) : sim::Json(nullptr)}});
  const std::string heading = flags.words->language == sim::Language::kChinese ? lab.heading_zh : lab.heading;
  // --class: on the first screen, which clears the terminal before it.
  if (flags.in_class) {
    flags.class_heading = Wrap("", heading);
  } else if (!flags.json) {
    fmt::print("{}\n", heading);
  }
  std::vector<std::string> verdicts;
  Result<bool> agrees = RunSections(lab, a.only, *dir, flags, &report, &verdicts);
  if (!agrees.ok()) return UsageError(kCommand, agrees.status().message());
  if (flags.json) {
    report["lab"] = {{"lab", lab.name}, {"agrees", *agrees}};
    report["ok"] = *agrees;
    PrintJsonLine(report);
  } else {
    fmt::print("\n{}\n", flags.words->verdicts_heading);
    for (const std::string& v : verdicts) fmt::print("{}\n", v);
  }
  return *agrees ? kExitOk : kExitFailed;
}

}  // namespace commitlab::cli
