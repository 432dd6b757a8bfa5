// `commitlab step FILE.scn`: a scenario one scheduling point at a time, for a classroom. After each
// pick it shows what the picked writer did, the table's latest snapshot and each writer's phase,
// base and attempt. Keys: a writer's letter runs it next, n lets the seed choose, u undoes a pick
// (the run is replayed from the start), s prints the path taken as a schedule string that `run
// --schedule` replays, q quits. On a terminal a key acts at once; from a pipe or --keys, each
// character is a key and whitespace is skipped.
#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cstdio>
#include <optional>

#include "commands/cli.h"
#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/report_json.h"
#include "commitlab/scenarios/stepper.h"
#include "commitlab/sim/run_state.h"
#include "commitlab/sim/schedule.h"
#include "lab/report_words.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;

constexpr std::string_view kCommand = "step";

// The terminal in "a key acts at once" mode while the stepper runs; restored on every way out.
termios g_saved;
bool g_raw = false;

void RestoreTerminal() {
  if (g_raw) ::tcsetattr(STDIN_FILENO, TCSANOW, &g_saved);
  g_raw = false;
}

extern "C" void OnSignal(int sig) {
  if (g_raw) ::tcsetattr(STDIN_FILENO, TCSANOW, &g_saved);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

class RawTerminal {
 public:
  RawTerminal() {
    if (!::isatty(STDIN_FILENO) || ::tcgetattr(STDIN_FILENO, &g_saved) != 0) return;
    termios raw = g_saved;
    raw.c_lflag &= static_cast<tcflag_t>(~(ICANON | ECHO));
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    if (::tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0) return;
    g_raw = true;
    ::signal(SIGINT, OnSignal);
    ::signal(SIGTERM, OnSignal);
  }
  ~RawTerminal() { RestoreTerminal(); }
  RawTerminal(const RawTerminal&) = delete;
  RawTerminal& operator=(const RawTerminal&) = delete;
};

// The next key: from --keys while any are left, else from stdin; nullopt at the end of input.
class Keys {
 public:
  explicit Keys(std::string scripted) : scripted_(std::move(scripted)) {}
  std::optional<char> Next() {
    for (;;) {
      char c = 0;
      if (at_ < scripted_.size()) {
        c = scripted_[at_++];
      } else if (from_stdin_) {
        if (::read(STDIN_FILENO, &c, 1) != 1) return std::nullopt;
      } else {
        return std::nullopt;
      }
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return c;
    }
  }
  void set_from_stdin(bool on) { from_stdin_ = on; }

 private:
  std::string scripted_;
  size_t at_ = 0;
  bool from_stdin_ = true;
};

// The writer a key names: its schedule letter; with more than 13 writers, '/' then the letter
// reaches the writers whose letters are also commands (n, q, s, u, ...).
std::optional<int> WriterOfKey(char c) {
  if (c >= 'a' && c <= 'z') return c - 'a';
  if (c >= 'A' && c <= 'Z') return 26 + (c - 'A');
  return std::nullopt;
}

// One screen: what the last pick did (and why, for a refusal), each table's state and each
// writer's row, a '*' on what changed, and the keys. In the stepper's language.
void PrintState(const scenarios::StepperState& s, sim::Language language) {
  const bool zh = language == sim::Language::kChinese;
  auto say = [language](const char* en, const char* cn, auto&&... args) { return sim::Say(language, en, cn, args...); };
  std::string out =
      say("\n-- step {0} · t = {1} --\n", "\n-- 第 {0} 步 · t = {1} --\n", s.step, sim::Clock(s.now_micros));
  if (s.step > 0 && s.events.empty()) {
    out += say("  (the picked writer ran to its next scheduling point; nothing was recorded)\n",
               "  （被选中的写入方运行到下一个调度点，没有记录事件）\n");
  }
  for (const std::string& e : s.events) out += fmt::format("  {}\n", e);
  for (const std::string& w : s.why) out += fmt::format("  {}\n", w);
  for (const scenarios::StepperTable& t : s.tables)
    out += fmt::format("{}{}{}\n", t.changed ? "* " : "  ",
                       t.name.empty() ? "" : say("table {0}: ", "表 {0}：", t.name), t.state);
  size_t name_width = 6;
  for (const scenarios::StepperWriter& w : s.writers) name_width = std::max(name_width, w.name.size());
  for (const scenarios::StepperWriter& w : s.writers) {
    const std::string attempt = w.attempt == 0
                                    ? ""
                                    : say("attempt {0}{1}", "第 {0} 次尝试{1}", w.attempt,
                                          w.base ? say(" on {0}", "，基于{1}", *w.base, w.base_name) : std::string());
    const std::string row = w.waits_for.empty() ? w.phase : say("{0}: {1}", "{0}：{1}", w.phase, w.waits_for);
    out += fmt::format("{}{} {:<{}}  {:<{}}  {:<16}  {}\n", w.changed ? "* " : "  ", w.symbol, w.name, name_width,
                       w.runnable ? say("runnable", "可运行") : "", zh ? 6 : 8, attempt, row);
  }
  if (s.finished) {
    out += say("the run is over", "运行结束");
    if (s.report) {
      out +=
          say(": {0} of {1} expectations held, {2}", "：{1} 条预期中 {0} 条成立，{2}", s.report->expectations_passed(),
              s.report->expectations.size(), s.report->ok() ? say("ok", "通过") : say("FAILED", "未通过"));
      // A violation the scenario expects (a lost update, a lost commit) is the point of the run: say it.
      out += "\n";
      for (const std::string& line : InvariantLinesIn(*s.report, language)) out += fmt::format("  {}\n", line);
    } else {
      out += "\n";
    }
    out += say("u undo  ·  s save  ·  q quit\n", "u 撤销  ·  s 保存  ·  q 退出\n");
  } else {
    std::string letters;
    for (const scenarios::StepperWriter& w : s.writers)
      if (w.runnable) letters += (letters.empty() ? "" : " ") + w.symbol;
    out += say("next: {0}  ·  n the seed's pick ({1})  ·  u undo  ·  s save  ·  q quit\n",
               "下一步：{0}  ·  n 按 seed 选（{1}）  ·  u 撤销  ·  s 保存  ·  q 退出\n", letters,
               sim::WriterSymbol(s.seed_pick));
  }
  std::fputs(out.c_str(), stdout);
  std::fflush(stdout);
}

// u: one pick back, or why there is none.
Status Undo(scenarios::Stepper& stepper, sim::Language language) {
  COMMITLAB_ASSIGN_OR_RETURN(bool undone, stepper.Undo());
  if (!undone)
    return Status::InvalidArgument(
        sim::Say(language, "nothing to undo: this is the start", "没有可撤销的：这里是开头"));
  return Status::OK();
}

// s: the picks so far, the whole run they lead to and the command that replays it.
Status PrintSchedule(const scenarios::Stepper& stepper, sim::Language language, const std::string& path,
                     const scenarios::RunPlan& plan) {
  COMMITLAB_ASSIGN_OR_RETURN(std::string schedule, stepper.CompleteSchedule());
  fmt::print("{}",
             sim::Say(language,
                      "picks so far: {0}\nthe whole run (then the seed's picks): {1}\nreplay it: commitlab "
                      "run {2} --seed {3} --sched {4} --schedule '{1}'\n",
                      "已选：{0}\n整次运行（之后按 seed 选）：{1}\n重放：commitlab run {2} --seed {3} --sched {4} "
                      "--schedule '{1}'\n",
                      stepper.state().picks.empty() ? sim::Say(language, "(none)", "（无）") : stepper.state().picks,
                      schedule, path, plan.seed, plan.sched));
  std::fflush(stdout);
  return Status::OK();
}

}  // namespace

int RunStep(const std::vector<std::string>& args) {
  po::options_description options("commitlab step FILE.scn [options]");
  std::string path, sched, keys, lang = "en";
  uint64_t seed = 0;
  // clang-format off
  options.add_options()
      ("help,h", "show this help")
      ("file", po::value(&path), "the scenario file")
      ("seed", po::value(&seed), "the run's seed (default: the file's seed line)")
      ("sched", po::value(&sched), "the strategy n follows: random, pct, pct:depth=N, round-robin (default: the file's)")
      ("keys", po::value(&keys), "act these keys first (e.g. 'abnnus'), then read the rest from stdin")
      ("lang", po::value(&lang), "en or zh: the language of the stepper's own words (log lines stay in English)");
  // clang-format on
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (!ParseArgs(kCommand, args, options, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print(
        "{}\n\nKeys: a writer's letter runs it next (with more than 13 writers, '/' and the letter), n lets\n"
        "the seed choose, u undoes one pick, s prints the path taken as a schedule string, q quits.\n",
        fmt::streamed(options));
    return kExitOk;
  }
  if (path.empty()) return UsageError(kCommand, "missing the scenario file to step through");
  if (lang != "en" && lang != "zh") return UsageError(kCommand, fmt::format("--lang '{}' is not one of en, zh", lang));
  const sim::Language language = lang == "zh" ? sim::Language::kChinese : sim::Language::kEnglish;
  Result<scenarios::Scenario> scenario = scenarios::LoadScenarioFile(path);
  if (!scenario.ok()) {
    fmt::print(stderr, "{}\n", scenario.status().message());
    return kExitUsage;
  }
  scenarios::RunOptions run;
  if (vm.count("seed")) run.seed = seed;
  if (vm.count("sched")) {
    if (sched == "free") return UsageError(kCommand, "--sched free runs OS threads, which cannot be stepped");
    run.sched = sched;
  } else if (scenario->sched && scenario->sched->kind == scenarios::SchedKind::kFree) {
    run.sched = "random";  // a file written for OS threads is stepped under the simulator
  }
  Result<std::unique_ptr<scenarios::Stepper>> stepper = scenarios::Stepper::Create(*scenario, run, language);
  if (!stepper.ok()) return UsageError(kCommand, stepper.status().message());
  Result<scenarios::RunPlan> plan = scenarios::PlanRun(*scenario, run);
  const std::string title =
      language == sim::Language::kChinese && !scenario->title_zh.empty() ? scenario->title_zh : scenario->title;
  fmt::print("{}", sim::Say(language, "== {0} ({1}) ==\nseed={2} sched={3}; {4} writer(s)\n",
                            "== {0}（{1}）==\nseed={2} sched={3}；{4} 个写入方\n", title, path, plan->seed, plan->sched,
                            scenario->writers.size()));

  RawTerminal terminal;
  Keys input(keys);
  PrintState((*stepper)->state(), language);
  bool escaped = false;
  while (std::optional<char> key = input.Next()) {
    Status st;
    const bool many = scenario->writers.size() > 13;
    if (*key == '/' && !escaped) {
      escaped = true;
      continue;
    }
    const bool command = !escaped && (*key == 'n' || *key == 'u' || *key == 's' || *key == 'q');
    escaped = false;
    if (command && *key == 'q') break;
    if (command && *key == 'n') {
      st = (*stepper)->PickAsTheSeedWould();
    } else if (command && *key == 'u') {
      st = Undo(**stepper, language);
    } else if (command && *key == 's') {
      st = PrintSchedule(**stepper, language, path, *plan);
      if (st.ok()) continue;
    } else if (std::optional<int> w = WriterOfKey(*key)) {
      st = (*stepper)->Pick(*w);
    } else {
      st = Status::InvalidArgument(sim::Say(language, "'{0}' is not a key here (a writer's letter{1}, n, u, s or q)",
                                            "这里不能用 '{0}' 键（可用写入方的字母{1}、n、u、s 或 q）", *key,
                                            many ? sim::Say(language, ", '/' and a letter", "、'/' 加字母") : ""));
    }
    if (!st.ok()) {
      fmt::print("{}\n", st.message());
      std::fflush(stdout);
      continue;
    }
    PrintState((*stepper)->state(), language);
  }
  return kExitOk;
}

}  // namespace commitlab::cli
