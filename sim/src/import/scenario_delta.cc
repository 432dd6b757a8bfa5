// A window of Delta commits as a scenario (scenario_text.h): each commit one transaction of the
// Delta steps (scenarios/README.md, "Delta steps") with its files, partitions, txn and metadata.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "json_input.h"
#include "scenario_text.h"

namespace commitlab::sim::import::internal {
namespace {

constexpr std::string_view kNullPartition = "__HIVE_DEFAULT_PARTITION__";

// Scenario file names are names (letters, digits, '-', '_'): each log path gets one, made from
// its file name without folders and extensions, unique in the file.
class FileNames {
 public:
  const std::string& Of(const std::string& path) {
    auto it = names_.find(path);
    if (it != names_.end()) return it->second;
    std::string base = path.substr(path.find_last_of('/') + 1);
    base = SafeName(base.substr(0, base.find('.')), 56);
    std::string name = base;
    for (int n = 2; !used_.insert(name).second; ++n) name = fmt::format("{}-{}", base, n);
    return names_.emplace(path, name).first->second;
  }

 private:
  std::map<std::string, std::string> names_;
  std::set<std::string> used_;
};

struct Table {
  std::vector<std::string> columns;  // as the log names them
  std::vector<std::string> names;    // as the scenario does
};

// "a=1/b=2" in the scenario's form: every column of the table, a value the file lacks as Hive's
// null partition, '/' in a value escaped as a path would have it.
std::string PartitionOf(const std::string& partition, const Table& t) {
  if (t.columns.empty()) return "";
  std::map<std::string, std::string> values;
  size_t at = 0;
  while (at < partition.size()) {
    const size_t slash = std::min(partition.find('/', at), partition.size());
    const std::string part = partition.substr(at, slash - at);
    const size_t eq = part.find('=');
    if (eq != std::string::npos) values[part.substr(0, eq)] = part.substr(eq + 1);
    at = slash + 1;
  }
  std::string out;
  for (size_t i = 0; i < t.columns.size(); ++i) {
    auto it = values.find(t.columns[i]);
    std::string v = it == values.end() || it->second.empty() ? std::string(kNullPartition) : it->second;
    for (size_t p = v.find('/'); p != std::string::npos; p = v.find('/', p)) v.replace(p, 1, "%2F");
    out += (i == 0 ? "" : "/") + t.names[i] + "=" + v;
  }
  return Word(out);
}

// The scenario language's operation for the log's (kDeltaOperations); others by what they did.
std::string OperationOf(const ImportedCommit& c) {
  const std::string& op = c.operation;
  if (op == "STREAMING UPDATE") return "STREAMING-UPDATE";
  if (op == "DELETE" || op == "UPDATE" || op == "MERGE" || op == "OPTIMIZE") return op;
  if (c.kind == "COMPACT") return "OPTIMIZE";
  if (op == "RESTORE") return "UPDATE";
  return "INSERT";
}

// What the transaction read. The log does not keep a transaction's read predicates, so they are
// rebuilt from what it did: a blind append read nothing; a commit that removed files read their
// partitions (the whole table for an overwrite or an unpartitioned table); any other commit that
// is not a blind append read the whole table, as a MERGE or an INSERT ... SELECT from it would.
std::vector<std::string> Reads(const ImportedCommit& c, const Table& t) {
  if (c.blind_append.value_or(false)) return {};
  const bool overwrite = c.operation.starts_with("WRITE") || c.operation.starts_with("CREATE") ||
                         c.operation.starts_with("REPLACE") || c.operation == "RESTORE";
  if (c.removes.empty()) {
    if (!c.blind_append.has_value() && (c.operation == "WRITE" || c.operation == "STREAMING UPDATE")) return {};
    if (c.adds.empty()) return {};
    return {"read"};
  }
  std::set<std::string> partitions;
  bool whole = overwrite || t.columns.empty();
  for (const FileAction& r : c.removes) {
    if (r.partition.empty()) whole = true;
    partitions.insert(PartitionOf(r.partition, t));
  }
  if (whole) return {"read"};
  std::vector<std::string> out;
  for (const std::string& p : partitions) out.push_back("read partition=" + p);
  return out;
}

std::string CommitNote(const ImportedCommit& c) {
  std::string out = CommitComment(c, "version");
  if (c.read_version) out += fmt::format("; read version {}", *c.read_version);
  if (!c.isolation.empty()) out += fmt::format("; {}", c.isolation);
  if (c.blind_append.value_or(false)) out += "; a blind append";
  if (OperationOf(c) != c.operation && !c.operation.empty())
    out += fmt::format(" (committed here as {})", OperationOf(c));
  return out + "\n";
}

struct Built {
  std::string text;
  int64_t steps = 0;
};

void Transaction(const ImportedCommit& c, const std::string& lane, const Table& t, FileNames* names, Built* b) {
  auto step = [&](const std::string& label, const std::string& s) {
    b->text += fmt::format("{}{}: {}\n", lane, label.empty() ? "" : "." + label, s);
    ++b->steps;
  };
  step(fmt::format("t{}", c.version), "begin");
  for (const std::string& r : Reads(c, t)) step("", r);
  if (c.metadata_change) step("", "metadata");
  if (c.protocol)
    step("", fmt::format("protocol reader-version={} writer-version={}", c.protocol->first, c.protocol->second));
  for (bool change : {true, false}) {
    std::vector<std::string> files;
    for (const FileAction& r : c.removes)
      if (r.data_change == change) files.push_back(names->Of(r.path));
    for (size_t i = 0; i < files.size(); i += kMaxListEntries) {
      std::string list;
      for (size_t j = i; j < files.size() && j < i + kMaxListEntries; ++j) list += (j == i ? "" : ",") + files[j];
      step("", fmt::format("remove files={}{}", list, change ? "" : " data-change=false"));
    }
  }
  for (const FileAction& a : c.adds) {
    const std::string p = PartitionOf(a.partition, t);
    step("", fmt::format("add file={}{}{}", names->Of(a.path), p.empty() ? "" : " partition=" + p,
                         a.data_change ? "" : " data-change=false"));
  }
  for (const auto& [app, version] : c.txns) step("", fmt::format("txn app={} version={}", SafeName(app, 64), version));
  step(fmt::format("c{}", c.version), "commit op=" + OperationOf(c));
}

Table TableOf(const ScenarioInput& in) {
  Table t{.columns = in.facts.partition_columns, .names = {}};
  for (const std::string& c : t.columns) t.names.push_back(SafeName(c, 64));
  return t;
}

// The setup's files: what the window removes that it did not add first, with where each lives.
std::string Setup(const ScenarioInput& in, const Table& t, FileNames* names, Built* b) {
  std::set<std::string> added;
  std::set<std::string> setup;
  std::string lines;
  for (const ImportedCommit& c : in.window) {
    for (const FileAction& r : c.removes) {
      if (added.count(r.path) > 0 || !setup.insert(r.path).second) continue;
      const std::string p = PartitionOf(r.partition, t);
      lines += fmt::format("setup: add file={}{}\n", names->Of(r.path), p.empty() ? "" : " partition=" + p);
      ++b->steps;
    }
    for (const FileAction& a : c.adds) added.insert(a.path);
  }
  if (setup.empty()) return "";
  b->steps += 2;
  return fmt::format(
      "# setup: the {} file(s) these commits remove that none of them added, live at version {}\n"
      "setup: begin\n{}setup.s: commit op=INSERT\n\n",
      setup.size(), in.window.front().version - 1, lines);
}

// Order lines: where a commit removes a file an earlier one in the window added, it waits for
// that commit; the log's own interleaving follows, commented.
std::string OrderLines(const ScenarioInput& in, const std::vector<std::string>& lanes, bool setup) {
  std::map<std::string, size_t> adder;
  std::set<std::string> edges;
  std::string out = "\n";
  for (size_t i = 0; i < in.window.size(); ++i) {
    const ImportedCommit& c = in.window[i];
    if (setup) out += fmt::format("order setup.s -> {}.t{}\n", lanes[i], c.version);
    for (const FileAction& r : c.removes) {
      auto it = adder.find(r.path);
      if (it == adder.end() || lanes[it->second] == lanes[i]) continue;
      const std::string e =
          fmt::format("order {}.c{} -> {}.t{}", lanes[it->second], in.window[it->second].version, lanes[i], c.version);
      if (edges.insert(e).second) out += e + "   # it removes a file that commit added\n";
    }
    for (const FileAction& a : c.adds) adder[a.path] = i;
  }
  out +=
      "\n# The log's own interleaving: each transaction began at the version it read and the commits\n"
      "# landed in version order. Uncomment these lines to replay it as it happened.\n";
  for (size_t i = 0; i < in.window.size(); ++i) {
    const ImportedCommit& c = in.window[i];
    const int64_t read = c.read_version.value_or(c.version - 1);
    for (size_t j = 0; j < i; ++j) {
      if (in.window[j].version == read && lanes[j] != lanes[i])
        out += fmt::format("# order {}.c{} -> {}.t{}\n", lanes[j], read, lanes[i], c.version);
      if (j + 1 == i && lanes[j] != lanes[i])
        out += fmt::format("# order {}.c{} -> {}.c{}\n", lanes[j], in.window[j].version, lanes[i], c.version);
    }
  }
  return out;
}

}  // namespace

Result<std::string> DeltaScenario(const ScenarioInput& in) {
  std::string level = in.options.isolation.empty() ? in.facts.isolation : in.options.isolation;
  if (level.empty()) level = "Serializable";
  if (level != "Serializable" && level != "WriteSerializable")
    return Status::InvalidArgument(
        fmt::format("--isolation '{}': a Delta table's level is Serializable or WriteSerializable", level));
  const Table t = TableOf(in);
  FileNames names;
  Built b;
  std::vector<std::string> writers;
  const std::vector<std::string> lanes = AssignLanes(in.window, in.options.writer_per_commit, &writers);
  const std::string setup = Setup(in, t, &names, &b);
  std::string body;
  for (size_t i = 0; i < in.window.size(); ++i) {
    const ImportedCommit& c = in.window[i];
    body += CommitNote(c) + FindingComments(in, c.version);
    Built one;
    Transaction(c, lanes[i], t, &names, &one);
    body += one.text + "\n";
    b.steps += one.steps;
  }
  if (b.steps > kMaxScenarioSteps || writers.size() + 1 > kMaxScenarioWriters)
    return Status::InvalidArgument(fmt::format(
        "--scenario {}: these commits need {} steps and {} writers, more than a scenario holds ({} steps, {} "
        "writers): give fewer commits",
        in.options.commits, b.steps, writers.size() + 1, kMaxScenarioSteps, kMaxScenarioWriters));
  std::string columns;
  for (const std::string& n : t.names) columns += (columns.empty() ? "" : ",") + n;
  std::string out = Opening(in, fmt::format("The table's isolation level in the log: {}; here: {}.",
                                            in.facts.isolation.empty() ? "Serializable" : in.facts.isolation, level));
  out += fmt::format("table name={} protocol=delta{} isolation={}{}\n", TableName(in.source),
                     columns.empty() ? "" : " partitions=" + columns, level,
                     level == "WriteSerializable" ? " flavour=databricks" : "");
  if (!setup.empty()) out += "writer name=setup\n";
  out += WriterLines(writers, "") + "\n" + setup + body;
  out += OrderLines(in, lanes, !setup.empty());
  out += ExpectLines(writers);
  return out;
}

}  // namespace commitlab::sim::import::internal
