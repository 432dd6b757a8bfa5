#include "lab_narration.h"

#include <fmt/ostream.h>

#include <boost/program_options.hpp>
#include <cctype>

#include "cli.h"
#include "commitlab/core/json.h"

namespace commitlab::cli {
namespace {

namespace po = boost::program_options;

// Log lines and refusals sit under the step that caused them.
constexpr std::string_view kLogIndent = "   ";
constexpr std::string_view kStateIndent = "         ";

std::string Plural(size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

std::vector<std::string> FirstLines(std::string_view text, size_t n) {
  std::vector<std::string> out;
  while (out.size() < n) {
    const size_t nl = text.find('\n');
    out.emplace_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

std::string AbbreviateUuids(std::string_view text) {
  constexpr std::string_view kShape = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
  auto uuid_at = [&](size_t i) {
    if (i + kShape.size() > text.size()) return false;
    for (size_t k = 0; k < kShape.size(); ++k) {
      const char c = text[i + k];
      if (kShape[k] == '-' ? c != '-' : !std::isxdigit(static_cast<unsigned char>(c))) return false;
    }
    return true;
  };
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (uuid_at(i)) {
      out += fmt::format("{}…", text.substr(i, 8));
      i += kShape.size();
    } else {
      out += text[i++];
    }
  }
  return out;
}

std::string ExceptionName(std::string_view message) {
  const std::string_view word = message.substr(0, message.find(": "));
  if (!word.ends_with("Exception") || word.find_first_of(" \n") != std::string_view::npos) return "";
  return std::string(word);
}

std::string FailureName(const Status& st) {
  const std::string name = ExceptionName(st.message());
  return name.empty() ? std::string(CodeName(st.code())) : name;
}

std::string Join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (const std::string& s : items) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

std::string ShortSnapshotId(std::optional<int64_t> id) {
  if (!id) return "none";
  const std::string full = fmt::format("{}", *id);
  return full.size() <= 6 ? full : full.substr(0, 6) + "…";
}

std::string IcebergSnapshotLine(const iceberg::TableMetadata& m) {
  iceberg::SnapshotRef s = m.CurrentSnapshot();
  if (s == nullptr) return fmt::format("v{}  no snapshot yet", m.version);
  return fmt::format("v{}  snapshot {}  {:<9}  by {}  parent {}  files {}", m.version, ShortSnapshotId(s->snapshot_id),
                     iceberg::DataOperationName(s->operation), s->committed_by, ShortSnapshotId(s->parent_id),
                     s->live_files->size());
}

std::string DeltaVersionLine(int64_t version, const delta::Commit& c) {
  const delta::CommitInfo& ci = c.commit_info;
  std::string line = fmt::format("version {}  {:<8}  by {}  add={} remove={}", version,
                                 delta::OperationName(ci.operation), ci.user_name, c.adds.size(), c.removes.size());
  if (ci.read_version >= 0) line += fmt::format("  read v{}", ci.read_version);
  line += fmt::format("  {}", delta::IsolationLevelName(ci.isolation_level));
  if (ci.is_blind_append) line += "  blindAppend";
  for (const delta::SetTransaction& t : c.txns) line += fmt::format("  txn {}={}", t.app_id, t.version);
  return line;
}

std::string VerdictLine(const Verdict& v) {
  if (v.as_seed) return fmt::format("verdict: {} — as in {}", v.observed, v.source);
  return fmt::format("verdict: {} — DIFFERS from {}: {}", v.observed, v.source, v.claim);
}

bool ExperimentReport::as_seed() const {
  for (const Verdict& v : verdicts)
    if (!v.as_seed) return false;
  return !verdicts.empty();
}

std::string SummaryLine(const ExperimentReport& r) {
  size_t agree = 0;
  std::string differing;
  for (const Verdict& v : r.verdicts) {
    if (v.as_seed) {
      ++agree;
    } else {
      differing += fmt::format("; {}", v.observed);
    }
  }
  return fmt::format("{}. {:<12} {:<8} {} of {} as their sources say{}", r.number, r.key,
                     r.as_seed() ? "AGREES" : "DIFFERS", agree, Plural(r.verdicts.size(), "run", "runs"),
                     differing);
}

std::string ReportsJson(std::string_view lab, const std::vector<ExperimentReport>& reports) {
  bool all = true;
  std::string experiments;
  for (const ExperimentReport& r : reports) {
    all = all && r.as_seed();
    std::string verdicts;
    for (const Verdict& v : r.verdicts) {
      verdicts += fmt::format("{}{{\"observed\": {}, \"as_seed\": {}, \"claim\": {}, \"source\": {}}}",
                              verdicts.empty() ? "" : ", ", JsonQuote(v.observed), v.as_seed, JsonQuote(v.claim),
                              JsonQuote(v.source));
    }
    experiments += fmt::format("{}{{\"number\": {}, \"key\": {}, \"as_seed\": {}, \"verdicts\": [{}]}}",
                               experiments.empty() ? "" : ", ", r.number, JsonQuote(r.key), r.as_seed(), verdicts);
  }
  return fmt::format("{{\"lab\": {}, \"as_seed\": {}, \"experiments\": [{}]}}", JsonQuote(lab), all, experiments);
}

void Narration::Title(int number, std::string_view key, std::string_view title, std::string_view intro) {
  Line("\n== {}. {}: {} ==", number, key, title);
  if (!intro.empty()) Line("{}", intro);
}

void Narration::Part(std::string_view label, std::string_view text) { Line("\n-- {} {}", label, text); }

void Narration::Step(std::string_view text) { Line(" * {}", text); }

void Narration::State(std::string_view text) { Line("{}{}", kStateIndent, text); }

void Narration::Refusal(std::string_view writer, const Status& st, bool logged, size_t max_lines) {
  const std::vector<std::string> lines = FirstLines(st.message(), max_lines);
  const std::string name = ExceptionName(st.message());
  if (logged && !name.empty()) {
    Line("{}[{}] refused with {}", kLogIndent, writer, name);
  } else {
    Line("{}[{}] refused: {}", kLogIndent, writer, lines.front());
  }
  for (size_t i = 1; i < lines.size(); ++i)
    if (!lines[i].empty()) Line("{}  | {}", kLogIndent, lines[i]);
}

Verdict Narration::Judge(Verdict v) {
  Line("{}", VerdictLine(v));
  return v;
}

Verdict Narration::SetupFailed(std::string_view what, const Status& st) {
  return Judge({.observed = fmt::format("{} failed: {}", what, FirstLines(st.message(), 1).front()),
                .as_seed = false,
                .claim = "the setup succeeds",
                .source = "the lab"});
}

void EventNarrator::OnEvent(const Event& e) {
  n_->Line("{}{:<5} [{}] {}", kLogIndent, LevelName(e.level), e.user, FirstLines(e.message, 1).front());
  if (after_) after_(e);
}

int RunNarratedLab(std::string_view lab, std::string_view heading, const std::vector<Experiment>& experiments,
                   const std::vector<std::string>& args) {
  const std::string command = fmt::format("lab {}", lab);
  std::string keys;
  for (const Experiment& e : experiments) keys += fmt::format("{}{}", keys.empty() ? "" : ", ", e.key);
  po::options_description options(fmt::format("commitlab {} [options]", command));
  std::string positional_lab, only;
  options.add_options()
      ("help,h", "show this help")
      ("experiment", po::value(&only), fmt::format("one of {} (default: all)", keys).c_str())
      ("json", "print the verdicts as one JSON object instead of the narration");
  // The lab's own name may come through as a positional (`lab iceberg ...`); --help does not show it.
  po::options_description parsed;
  parsed.add(options).add_options()("lab", po::value(&positional_lab));
  po::positional_options_description positional;
  positional.add("lab", 1);
  po::variables_map vm;
  if (!ParseArgs(command, args, parsed, &positional, &vm)) return kExitUsage;
  if (vm.count("help")) {
    fmt::print("{}\n", fmt::streamed(options));
    return kExitOk;
  }
  if (!positional_lab.empty() && positional_lab != lab)
    return UsageError(command, fmt::format("unexpected argument '{}'", positional_lab));
  std::vector<const Experiment*> chosen;
  for (const Experiment& e : experiments)
    if (only.empty() || only == e.key) chosen.push_back(&e);
  if (chosen.empty()) return UsageError(command, fmt::format("--experiment '{}' is not one of {}", only, keys));

  const bool json = vm.count("json") > 0;
  Narration n(json ? nullptr : stdout);
  n.Line("{}", heading);
  std::vector<ExperimentReport> reports;
  for (const Experiment* e : chosen) {
    n.Title(e->number, e->key, e->title, e->intro);
    reports.push_back({.number = e->number, .key = e->key, .verdicts = e->run(n)});
  }
  bool all = true;
  n.Line("\n== Summary ==");
  for (const ExperimentReport& r : reports) {
    n.Line("{}", SummaryLine(r));
    all = all && r.as_seed();
  }
  if (json) fmt::print("{}\n", ReportsJson(lab, reports));
  return all ? kExitOk : kExitFailed;
}

}  // namespace commitlab::cli
