// The file: lines, dispatch, scenario-wide directives (title, table, writer, fault, latency,
// retry, idempotency-check, sched, seed), and the checks that need the whole file.
#include "commitlab/scenarios/parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <limits>
#include <span>
#include <vector>

#include "commitlab/core/file_read.h"
#include "lang/parser_impl.h"
#include "protocols/registry.h"

namespace commitlab::scenarios {
namespace internal {
namespace {

constexpr int kMaxLines = 1'000'000;
constexpr size_t kMaxTables = 64;
constexpr size_t kMaxWriters = 1'000;  // as race's --writers; 1000 writers run in ~0.6 s, 3000 in ~4 s (quadratic)
constexpr std::array<std::string_view, 3> kObjectModes = {"check-then-put", "locked", "conditional-put"};
constexpr std::array<std::string_view, 4> kSchedKinds = {"random", "pct", "round-robin", "free"};
constexpr std::array<std::string_view, 1> kPctKeys = {"depth"};
constexpr std::array<std::string_view, 2> kOnOff = {"on", "off"};
constexpr std::string_view kDirectives =
    "title, title.zh, claim, claim.zh, source, table, writer, order, fault, latency, retry, idempotency-check, sched, seed, store, "
    "repeat, expect, or a step line WRITER: STEP";

// The only value of a directive that takes one (title, seed, fault, ...).
Status OneValue(const LineContext& ctx, Tokens toks, std::string_view expected, const Token** out) {
  if (toks.size() < 2) return ctx.Error(toks[0].end_col, fmt::format("expected {} after {}", expected, toks[0].text));
  COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx, toks, 2, fmt::format("{} {}", toks[0].text, toks[1].text)));
  *out = &toks[1];
  return Status::OK();
}

// A key of a table or writer line (`line`: "" or "writers of ") given for a table whose protocol
// does not take it: which protocols' tables it applies to.
Status ForeignKey(const LineContext& ctx, const Token& t, std::string_view line, const Table& table,
                  const std::function<std::span<const std::string_view>(const ProtocolModule&)>& keys_of) {
  int owners = 0;
  const std::string names = ProtocolsWhere([&](const ProtocolModule& m) {
    const std::span<const std::string_view> keys = keys_of(m);
    const bool takes = std::find(keys.begin(), keys.end(), t.key) != keys.end();
    owners += takes ? 1 : 0;
    return takes;
  });
  return ctx.Error(t.col, fmt::format("key \"{}\" applies to {}{} tables{}, not to {} table {}", t.key, line, names,
                                      owners == 1 ? " only" : "", ProtocolName(table.protocol), table.name));
}

// The keys of `given` that `table`'s protocol does not take (of `all`, but for `shared`).
Status CheckForeignKeys(const LineContext& ctx, const Args& given, std::span<const std::string_view> all,
                        std::span<const std::string_view> shared, std::string_view line, const Table& table,
                        const std::function<std::span<const std::string_view>(const ProtocolModule&)>& keys_of) {
  const std::span<const std::string_view> own = keys_of(ModuleOf(table.protocol));
  for (std::string_view key : all) {
    const Token* t = given.Find(key);
    if (t == nullptr || std::find(shared.begin(), shared.end(), key) != shared.end() ||
        std::find(own.begin(), own.end(), key) != own.end())
      continue;
    return ForeignKey(ctx, *t, line, table, keys_of);
  }
  return Status::OK();
}

}  // namespace

Parser::Parser(std::string_view file_name, size_t max_steps, bool lazy_repeats)
    : file_name_(file_name), max_steps_(max_steps), lazy_repeats_(lazy_repeats) {
  s_.file_name = file_name_;
}

std::optional<size_t> Parser::FindWriter(std::string_view name) const {
  auto it = writer_index_.find(name);
  if (it == writer_index_.end()) return std::nullopt;
  return it->second;
}

Status Parser::ErrorAt(SourcePos pos, std::string_view message) const {
  return LineContext(file_name_, pos.line).Error(pos.col, message);
}

Result<Scenario> Parser::Parse(std::string_view text) {
  int line_no = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(start, nl - start);
    start = nl + 1;
    const LineContext ctx(file_name_, ++line_no);
    if (line_no > kMaxLines) return ctx.Error(1, fmt::format("too many lines (at most {})", kMaxLines));
    if (line.size() > kMaxLineBytes)
      return ctx.Error(1, fmt::format("line is too long: {} bytes (at most {})", line.size(), kMaxLineBytes));
    COMMITLAB_RETURN_IF_ERROR(ParseLine(ctx, line));
  }
  COMMITLAB_RETURN_IF_ERROR(Finish());
  return std::move(s_);
}

Status Parser::ParseLine(const LineContext& ctx, std::string_view line) {
  std::vector<Token> tokens;
  COMMITLAB_RETURN_IF_ERROR(TokenizeLine(ctx, line, &tokens));
  if (tokens.empty()) return Status::OK();
  const Tokens toks(tokens);
  const Token& first = toks[0];
  if (first.kind != Token::Kind::kWord) {
    return ctx.Error(first.col, fmt::format("expected a directive ({}), got {}", kDirectives,
                                            first.kind == Token::Kind::kString ? "a quoted string" : "\";\""));
  }
  if (first.text.find(':') != std::string::npos) return ParseStepLine(ctx, toks, 0, 0);
  const std::string_view d = first.text;
  if (d == "repeat") return ParseRepeat(ctx, toks);
  for (const Token& t : toks) {
    if (t.kind == Token::Kind::kSemicolon)
      return ctx.Error(t.col, fmt::format("unexpected \";\" (only step lines hold several steps)"));
  }
  if (d == "title") return ParseTitle(ctx, toks);
  if (d == "title.zh") return ParseText(ctx, toks, &s_.title_zh);
  if (d == "claim") return ParseText(ctx, toks, &s_.claim);
  if (d == "claim.zh") return ParseText(ctx, toks, &s_.claim_zh);
  if (d == "source") return ParseText(ctx, toks, &s_.source);
  if (d == "table") return ParseTable(ctx, toks);
  if (d == "writer") return ParseWriter(ctx, toks);
  if (d == "order") return ParseOrder(ctx, toks);
  if (d == "fault") return ParseSpec(ctx, toks, &s_.faults);
  if (d == "latency") return ParseSpec(ctx, toks, &s_.latencies);
  if (d == "retry") return ParseRetry(ctx, toks);
  if (d == "idempotency-check") return ParseIdempotencyCheck(ctx, toks);
  if (d == "sched") return ParseSched(ctx, toks);
  if (d == "seed") return ParseSeed(ctx, toks);
  if (d == "store") return ParseStore(ctx, toks);
  if (d == "expect") return ParseExpect(ctx, toks, line);
  if (FindWriter(d)) {
    return ctx.Error(first.end_col,
                     fmt::format("expected ':' after writer name \"{}\" (a step line is WRITER: STEP ...)", d));
  }
  return ctx.Error(first.col, fmt::format("unknown directive \"{}\" (expected one of {})", d, kDirectives));
}

Status Parser::CheckOnce(const LineContext& ctx, const Token& directive) {
  auto [it, inserted] = once_.emplace(directive.text, ctx.line());
  if (inserted) return Status::OK();
  return ctx.Error(directive.col,
                   fmt::format("duplicate directive {} (first given at line {})", directive.text, it->second));
}

Status Parser::ParseTitle(const LineContext& ctx, Tokens toks) {
  COMMITLAB_RETURN_IF_ERROR(CheckOnce(ctx, toks[0]));
  const Token* t = nullptr;
  COMMITLAB_RETURN_IF_ERROR(OneValue(ctx, toks, "a quoted title, e.g. title \"Two jobs race\"", &t));
  if (t->kind != Token::Kind::kString)
    return ctx.Error(t->col, fmt::format("expected a quoted title, e.g. title \"Two jobs race\", got {}", t->text));
  if (t->text.empty()) return ctx.Error(t->col, "the title is empty");
  s_.title = t->text;
  return Status::OK();
}

Status Parser::ParseText(const LineContext& ctx, Tokens toks, std::string* out) {
  COMMITLAB_RETURN_IF_ERROR(CheckOnce(ctx, toks[0]));
  const std::string example = fmt::format("{} \"...\"", toks[0].text);
  const Token* t = nullptr;
  COMMITLAB_RETURN_IF_ERROR(OneValue(ctx, toks, "a quoted text, e.g. " + example, &t));
  if (t->kind != Token::Kind::kString)
    return ctx.Error(t->col, fmt::format("expected a quoted text, e.g. {}, got {}", example, t->text));
  if (t->text.empty()) return ctx.Error(t->col, fmt::format("the {} is empty", toks[0].text));
  *out = t->text;
  return Status::OK();
}

Status Parser::ParseTable(const LineContext& ctx, Tokens toks) {
  Args args;
  COMMITLAB_RETURN_IF_ERROR(Args::Collect(ctx, toks[0].col, toks.subspan(1), "directive table", TableKeys(), &args));
  Table table;
  table.pos = ctx.Pos(toks[0].col);
  if (s_.tables.size() == kMaxTables)
    return ctx.Error(toks[0].col, fmt::format("too many tables (at most {})", kMaxTables));
  const Token* name = nullptr;
  const Token* protocol = nullptr;
  COMMITLAB_RETURN_IF_ERROR(args.Require("name", &name));
  COMMITLAB_RETURN_IF_ERROR(args.Require("protocol", &protocol));
  COMMITLAB_RETURN_IF_ERROR(args.Name("name", "table name", &table.name));
  for (const Table& t : s_.tables) {
    if (t.name == table.name) {
      return ctx.Error(name->value_col,
                       fmt::format("table \"{}\" is already declared at line {}", table.name, t.pos.line));
    }
  }
  std::vector<std::string_view> protocols;
  for (Protocol p : RegisteredProtocols()) protocols.push_back(ProtocolName(p));
  size_t p = 0;
  COMMITLAB_RETURN_IF_ERROR(args.Choice("protocol", protocols, &p));
  table.protocol = RegisteredProtocols()[p];
  const ProtocolModule& module = ModuleOf(table.protocol);
  COMMITLAB_RETURN_IF_ERROR(CheckForeignKeys(ctx, args, TableKeys(), kSharedTableKeys, "", table,
                                             [](const ProtocolModule& m) { return m.table_keys(); }));
  COMMITLAB_RETURN_IF_ERROR(module.ParseTableKeys(ctx, args, &table));
  if (const Token* parts = args.Find("partitions")) {
    COMMITLAB_RETURN_IF_ERROR(ParseNameList(ctx, *parts, "partition key", &table.partition_keys));
  }
  s_.tables.push_back(std::move(table));
  next_key_.push_back(1);
  parse_states_.push_back(module.NewParseState());
  return Status::OK();
}

Status Parser::ParseWriter(const LineContext& ctx, Tokens toks) {
  Args args;
  COMMITLAB_RETURN_IF_ERROR(Args::Collect(ctx, toks[0].col, toks.subspan(1), "directive writer", WriterKeys(), &args));
  Writer w;
  w.pos = ctx.Pos(toks[0].col);
  if (s_.writers.size() == kMaxWriters)
    return ctx.Error(toks[0].col, fmt::format("too many writers (at most {})", kMaxWriters));
  const Token* name = nullptr;
  COMMITLAB_RETURN_IF_ERROR(args.Require("name", &name));
  COMMITLAB_RETURN_IF_ERROR(args.Name("name", "writer name", &w.name));
  if (std::optional<size_t> prev = FindWriter(w.name)) {
    return ctx.Error(name->value_col,
                     fmt::format("writer \"{}\" is already declared at line {}", w.name, s_.writers[*prev].pos.line));
  }
  w.commit_user = w.name;
  COMMITLAB_RETURN_IF_ERROR(args.Name("user", "commit user", &w.commit_user));
  if (const Token* table = args.Find("table")) {
    size_t i = 0;
    while (i < s_.tables.size() && s_.tables[i].name != table->value) ++i;
    if (i == s_.tables.size())
      return ctx.Error(table->value_col, fmt::format("table \"{}\" is not declared", table->value));
    w.table = i;
  } else if (s_.tables.empty()) {
    return ctx.Error(toks[0].col, "no table is declared yet (declare a table before its writers)");
  } else if (s_.tables.size() > 1) {
    return ctx.Error(toks[0].col, fmt::format("missing required key \"table\" for directive writer ({} tables are "
                                              "declared)",
                                              s_.tables.size()));
  }
  const Table& table = s_.tables[w.table];
  COMMITLAB_RETURN_IF_ERROR(CheckForeignKeys(ctx, args, WriterKeys(), kSharedWriterKeys, "writers of ", table,
                                             [](const ProtocolModule& m) { return m.writer_keys(); }));
  COMMITLAB_RETURN_IF_ERROR(ModuleOf(table.protocol).ParseWriterKeys(ctx, args, &w));
  writer_index_.emplace(w.name, s_.writers.size());
  ++users_[w.commit_user];
  s_.writers.push_back(std::move(w));
  labels_.emplace_back();
  base_labels_.emplace_back();
  last_identifier_.push_back(0);
  return Status::OK();
}

Status Parser::ParseSpec(const LineContext& ctx, Tokens toks, std::vector<SpecString>* out) {
  const bool fault = toks[0].text == "fault";
  const Token* t = nullptr;
  COMMITLAB_RETURN_IF_ERROR(
      OneValue(ctx, toks, fault ? "a fault spec WRITER:POINT:TRIGGER:EFFECT" : "a latency spec", &t));
  const bool quoted = t->kind == Token::Kind::kString;
  if (t->text.empty()) return ctx.Error(t->col, fmt::format("the {} spec is empty", toks[0].text));
  out->push_back({ctx.Pos(quoted ? t->col + 1 : t->col), t->text});
  return Status::OK();
}

Status Parser::ParseRetry(const LineContext& ctx, Tokens toks) {
  COMMITLAB_RETURN_IF_ERROR(CheckOnce(ctx, toks[0]));
  if (toks.size() < 2) {
    return ctx.Error(toks[0].end_col,
                     "expected a retry policy after retry, e.g. retry paimon:retries=10 or retry paimon retries=10");
  }
  const Token& head = toks[1];
  RetrySetting r;
  int col = head.col;
  if (head.kind == Token::Kind::kString) {
    COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx, toks, 2, "the retry spec"));
    r.spec = head.text;
    col = head.value_col;
  } else if (head.is_pair || head.text.find(':') != std::string::npos) {
    COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx, toks, 2, "the retry spec"));
    r.spec = head.text;
  } else {
    // retry KIND key=value ...: the same policy as the spec KIND:key=value,...
    r.spec = head.text;
    char sep = ':';
    for (const Token& t : toks.subspan(2)) {
      if (!t.is_pair || t.value_quoted)
        return ctx.Error(t.col, fmt::format("expected key=value after retry {}, got \"{}\"", head.text, t.text));
      r.spec += sep;
      r.spec += t.text;
      sep = ',';
    }
  }
  r.pos = ctx.Pos(col);
  Result<RetryPolicy> policy = ParseRetryPolicy(r.spec);
  if (!policy.ok()) return ctx.Error(col, policy.status().message());
  r.policy = *policy;
  s_.retry = std::move(r);
  return Status::OK();
}

Status Parser::ParseIdempotencyCheck(const LineContext& ctx, Tokens toks) {
  COMMITLAB_RETURN_IF_ERROR(CheckOnce(ctx, toks[0]));
  const Token* t = nullptr;
  COMMITLAB_RETURN_IF_ERROR(OneValue(ctx, toks, "on or off", &t));
  size_t v = 0;
  COMMITLAB_RETURN_IF_ERROR(ParseChoice(ctx, t->text, t->col, "idempotency-check", kOnOff, &v));
  s_.idempotency_check = v == 0;
  return Status::OK();
}

Status Parser::ParseSched(const LineContext& ctx, Tokens toks) {
  COMMITLAB_RETURN_IF_ERROR(CheckOnce(ctx, toks[0]));
  if (toks.size() < 2) {
    return ctx.Error(toks[0].end_col,
                     fmt::format("expected a scheduler after sched (one of {})", JoinNames(kSchedKinds)));
  }
  SchedSetting s;
  s.pos = ctx.Pos(toks[1].col);
  size_t kind = 0;
  COMMITLAB_RETURN_IF_ERROR(ParseChoice(ctx, toks[1].text, toks[1].col, "sched", kSchedKinds, &kind));
  s.kind = static_cast<SchedKind>(kind);
  if (s.kind == SchedKind::kPct) {
    Args args;
    COMMITLAB_RETURN_IF_ERROR(Args::Collect(ctx, toks[1].col, toks.subspan(2), "sched pct", kPctKeys, &args));
    int64_t depth = s.pct_depth;
    COMMITLAB_RETURN_IF_ERROR(args.Int("depth", 1, 100, &depth));
    s.pct_depth = static_cast<int>(depth);
  } else {
    COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx, toks, 2, fmt::format("sched {}", toks[1].text)));
  }
  s_.sched = s;
  return Status::OK();
}

Status Parser::ParseSeed(const LineContext& ctx, Tokens toks) {
  COMMITLAB_RETURN_IF_ERROR(CheckOnce(ctx, toks[0]));
  const Token* t = nullptr;
  COMMITLAB_RETURN_IF_ERROR(OneValue(ctx, toks, "a number", &t));
  uint64_t seed = 0;
  COMMITLAB_RETURN_IF_ERROR(ParseUint64(ctx, t->text, t->col, "the seed", &seed));
  s_.seed = seed;
  return Status::OK();
}

Status Parser::ParseStore(const LineContext& ctx, Tokens toks) {
  COMMITLAB_RETURN_IF_ERROR(CheckOnce(ctx, toks[0]));
  const Token* t = nullptr;
  COMMITLAB_RETURN_IF_ERROR(OneValue(ctx, toks, "a store, e.g. store object:check-then-put", &t));
  if (t->text == "memory") return Status::OK();
  std::string_view mode = t->text;
  if (!mode.starts_with("object:")) {
    return ctx.Error(t->col, fmt::format("unknown store \"{}\" (expected memory or object:MODE with MODE one of {})",
                                         t->text, JoinNames(kObjectModes)));
  }
  mode.remove_prefix(7);
  size_t m = 0;
  COMMITLAB_RETURN_IF_ERROR(ParseChoice(ctx, mode, t->col + 7, "the object store mode", kObjectModes, &m));
  s_.object_store = std::string(kObjectModes[m]);
  s_.store_pos = ctx.Pos(t->col);
  return Status::OK();
}

Status Parser::Finish() {
  if (s_.title.empty()) return ErrorAt({1, 1}, "missing title (add a line such as: title \"Two jobs race\")");
  if (s_.writers.empty()) return ErrorAt({1, 1}, "no writer is declared (add a line such as: writer name=job-A)");
  if (!s_.object_store.empty()) {
    for (const Table& t : s_.tables) {
      if (ModuleOf(t.protocol).uses_snapshot_store()) continue;
      return ErrorAt(s_.store_pos,
                     fmt::format("store object:{} holds {} tables only; table {} (line {}) is {} (its own engine keeps "
                                 "it in memory)",
                                 s_.object_store,
                                 ProtocolsWhere([](const ProtocolModule& m) { return m.uses_snapshot_store(); }),
                                 t.name, t.pos.line, ProtocolName(t.protocol)));
    }
  }
  COMMITLAB_RETURN_IF_ERROR(ResolveReferences());
  return CheckOrderCycles();
}

}  // namespace internal

Result<Scenario> ParseScenario(std::string_view text, std::string_view file_name, ParseOptions options) {
  Result<Scenario> s = internal::Parser(file_name, options.max_steps, options.lazy_repeats).Parse(text);
  if (s.ok()) s->text = std::string(text);
  return s;
}

Result<Scenario> WithoutOrderLines(const Scenario& scenario) {
  std::string text;
  std::string_view rest = scenario.text;
  while (!rest.empty()) {
    const size_t end = rest.find('\n');
    const std::string_view line = rest.substr(0, end);
    const size_t word = line.find_first_not_of(" \t");
    const bool order = word != std::string_view::npos && line.substr(word, 5) == "order" &&
                       (line.size() == word + 5 || line[word + 5] == ' ' || line[word + 5] == '\t');
    text += order ? "# (order line dropped: --ignore-order)" : std::string(line);
    if (end == std::string_view::npos) break;
    text += '\n';
    rest.remove_prefix(end + 1);
  }
  return ParseScenario(text, scenario.file_name);
}

Result<Scenario> LoadScenarioFile(const std::string& path) {
  Result<std::string> text = ReadRegularFile(path, kMaxFileBytes);
  if (!text.ok()) {
    std::error_code ec;
    switch (text.status().code()) {
      case Code::kNotFound: return Status::InvalidArgument(fmt::format("cannot open scenario file \"{}\"", path));
      case Code::kCorruption:  // a FIFO would block, a device never end: only a regular file is read
        if (std::filesystem::is_directory(path, ec))
          return Status::InvalidArgument(fmt::format("cannot read scenario file \"{}\" (a directory)", path));
        if (std::filesystem::is_regular_file(path, ec))
          return Status::InvalidArgument(
              fmt::format("scenario file \"{}\" is larger than {} bytes", path, kMaxFileBytes));
        return Status::InvalidArgument(fmt::format("cannot read scenario file \"{}\" (not a regular file)", path));
      default: return Status::InvalidArgument(fmt::format("scenario file: {}", text.status().message()));
    }
  }
  return ParseScenario(*text, path);
}

}  // namespace commitlab::scenarios
