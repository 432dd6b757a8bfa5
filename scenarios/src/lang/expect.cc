// expect lines: what a run must show. Writer names are resolved here (writers are declared before
// they are expected on); step labels once the whole file is read.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <span>

#include "lang/parser_impl.h"
#include "protocols/registry.h"

namespace commitlab::scenarios::internal {
namespace {

constexpr int64_t kMaxCount = 1'000'000'000'000'000;  // counters, row totals, snapshot ids
constexpr std::array<std::string_view, 9> kExpectKinds = {
    "snapshot",    "latest-snapshot",     "per-user", "tally", "writer", "step",
    "some-writer", "invariant-violation", "counter"};
constexpr std::array<std::string_view, 8> kSnapshotKeys = {"kind",  "user",   "identifier", "total",
                                                           "delta", "parent", "operation",  "table"};
constexpr std::array<std::string_view, 3> kCommitKinds = {"APPEND", "COMPACT", "OVERWRITE"};
constexpr std::array<std::string_view, 4> kOutcomes = {"ok", "refused", "gave-up", "crashed"};
constexpr std::array<std::string_view, 8> kCounters = {"committed", "attempts",         "atomic_failures",
                                                       "conflicts", "unknown_outcomes", "idempotent_matches",
                                                       "gave_up",   "orphan_files"};
constexpr std::string_view kComparisonForms = "N, == N, >= N, <= N or LO..HI";

// CMP: N | ==N | >=N | <=N | LO..HI, the operator glued to its number or not. Reads from
// toks[*i] and advances *i past what it used; `after` names what precedes it in messages. Counts
// are never negative; what a step returns and a counter's value may be (`signed_values`).
Status ParseComparison(const LineContext& ctx, Tokens toks, size_t* i, std::string_view after, Comparison* out,
                       bool signed_values = false) {
  const int64_t min = signed_values ? -kMaxCount : 0;
  if (*i >= toks.size()) {
    const int col = toks[*i - 1].end_col;
    return ctx.Error(col, fmt::format("expected a comparison ({}) after {}", kComparisonForms, after));
  }
  const Token& t = toks[(*i)++];
  if (t.kind != Token::Kind::kWord)
    return ctx.Error(t.col, fmt::format("expected a comparison ({}), got \"{}\"", kComparisonForms, t.text));
  std::string_view text = t.text;
  int col = t.col;
  if (text.starts_with("==") || text.starts_with(">=") || text.starts_with("<=")) {
    out->op = text[0] == '=' ? CmpOp::kEq : text[0] == '>' ? CmpOp::kGe : CmpOp::kLe;
    text.remove_prefix(2);
    col += 2;
    if (text.empty()) {
      if (*i >= toks.size() || toks[*i].kind != Token::Kind::kWord)
        return ctx.Error(t.end_col, fmt::format("expected a number after \"{}\"", t.text));
      text = toks[*i].text;
      col = toks[(*i)++].col;
    }
    return ParseInt(ctx, text, col, "the comparison", min, kMaxCount, &out->lo);
  }
  if (text.find("..") != std::string_view::npos) {
    out->op = CmpOp::kRange;
    return ParseRange(ctx, text, col, "the comparison", min, kMaxCount, &out->lo, &out->hi);
  }
  if (text.empty() || ((text[0] < '0' || text[0] > '9') && text[0] != '-'))
    return ctx.Error(col, fmt::format("expected a comparison ({}), got \"{}\"", kComparisonForms, t.text));
  out->op = CmpOp::kEq;
  return ParseInt(ctx, text, col, "the comparison", min, kMaxCount, &out->lo);
}

// An optional quoted message after an outcome word.
Status ParseOutcomeMessage(const LineContext& ctx, Tokens toks, size_t i, Outcome outcome, std::string* out) {
  if (i >= toks.size()) return Status::OK();
  const Token& t = toks[i];
  if (outcome == Outcome::kOk) return NoMoreTokens(ctx, toks, i, "ok");
  if (t.kind != Token::Kind::kString) {
    return ctx.Error(t.col, fmt::format("expected a quoted message after {}, got \"{}\"",
                                        kOutcomes[static_cast<size_t>(outcome)], t.text));
  }
  if (t.text.empty()) return ctx.Error(t.col, "the expected message is empty");
  *out = t.text;
  return NoMoreTokens(ctx, toks, i + 1, "the message");
}

// "an iceberg table": the tables that keep counters (`expect counter`).
std::string CounterTables() {
  const std::string names = ProtocolsWhere([](const ProtocolModule& m) { return m.keeps_counters(); });
  const bool vowel = !names.empty() && std::string_view("aeiou").find(names.front()) != std::string_view::npos;
  return fmt::format("{} {} table", vowel ? "an" : "a", names);
}

int IndexOf(std::span<const std::string_view> names, std::string_view s) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == s) return static_cast<int>(i);
  return -1;
}

}  // namespace

// One expect line past its kind word: the helpers its kinds share, and one parse per kind. Each
// sets body; toks[i] is the next token to read.
class Parser::ExpectLine {
 public:
  ExpectLine(Parser* p, const LineContext& ctx, Tokens toks)
      : p_(*p), ctx_(ctx), toks_(toks), kind_(toks[1]), after_(fmt::format("expect {}", toks[1].text)) {}

  ExpectBody body;

  Status Snapshot();
  Status Latest();
  Status PerUser();
  Status Tally();
  Status About(Subject subject);  // writer, step, some-writer
  Status CounterValue();
  Status Invariant();

 private:
  // The writer name of "expect writer W ...".
  Status WriterAt(size_t at, size_t* w) const {
    if (at >= toks_.size())
      return ctx_.Error(toks_[at - 1].end_col, fmt::format("expected a writer name after {}", after_));
    const std::optional<size_t> found = p_.FindWriter(toks_[at].text);
    if (!found || toks_[at].kind != Token::Kind::kWord)
      return ctx_.Error(toks_[at].col, fmt::format("writer \"{}\" is not declared", toks_[at].text));
    *w = *found;
    return Status::OK();
  }
  bool UserDeclared(std::string_view user) const { return p_.users_.find(user) != p_.users_.end(); }
  // table=NAME: which table a snapshot, latest-snapshot, per-user or counter expectation looks at.
  Status TableNamed(const Token& t, size_t* table) const {
    for (size_t k = 0; k < p_.s_.tables.size(); ++k) {
      if (p_.s_.tables[k].name != t.value) continue;
      *table = k;
      return Status::OK();
    }
    return ctx_.Error(t.value_col, fmt::format("table \"{}\" is not declared", t.value));
  }
  // An optional table=NAME at toks[i] (after a comparison), then nothing more.
  Status OptionalTable(size_t* table) {
    if (i_ < toks_.size() && toks_[i_].is_pair && toks_[i_].key == "table")
      COMMITLAB_RETURN_IF_ERROR(TableNamed(toks_[i_++], table));
    return NoMoreTokens(ctx_, toks_, i_, "the comparison");
  }
  // key=value of expect snapshot: operation= in the names of the table's own protocol only (before
  // any table: the first protocol's).
  Status Operation(const Token& op, SnapshotExpect* x) const {
    const std::vector<Table>& tables = p_.s_.tables;
    const Protocol protocol = tables.empty() ? RegisteredProtocols().front() : tables[x->table].protocol;
    const std::span<const std::string_view> names = ModuleOf(protocol).operation_names();
    size_t k = 0;
    COMMITLAB_RETURN_IF_ERROR(ParseChoice(ctx_, op.value, op.value_col,
                                          fmt::format("key \"operation\" on {} table {}", ProtocolName(protocol),
                                                      tables.empty() ? "" : tables[x->table].name),
                                          names, &k));
    x->operation = std::string(names[k]);
    std::replace(x->operation->begin(), x->operation->end(), '-', ' ');  // Delta's own name
    return Status::OK();
  }

  Parser& p_;
  const LineContext& ctx_;
  const Tokens toks_;
  const Token& kind_;
  const std::string after_;  // "expect snapshot"
  size_t i_ = 2;
};

Status Parser::ExpectLine::Snapshot() {
  SnapshotExpect x;
  if (i_ >= toks_.size()) return ctx_.Error(kind_.end_col, "expected a snapshot id after expect snapshot");
  COMMITLAB_RETURN_IF_ERROR(ParseInt(ctx_, toks_[i_].text, toks_[i_].col, "the snapshot id", 1, kMaxCount, &x.id));
  Args args;
  COMMITLAB_RETURN_IF_ERROR(Args::Collect(ctx_, kind_.col, toks_.subspan(i_ + 1), after_, kSnapshotKeys, &args));
  size_t k = 0;
  if (args.Find("kind") != nullptr) {
    COMMITLAB_RETURN_IF_ERROR(args.Choice("kind", kCommitKinds, &k));
    x.kind = ParseCommitKind(kCommitKinds[k]);
  }
  if (const Token* user = args.Find("user")) {
    if (!UserDeclared(user->value))
      return ctx_.Error(user->value_col, fmt::format("no writer has commit user \"{}\"", user->value));
    x.user = user->value;
  }
  int64_t v = 0;
  auto optional_int = [&](std::string_view key, int64_t lo, std::optional<int64_t>* out) {
    if (args.Find(key) == nullptr) return Status::OK();
    COMMITLAB_RETURN_IF_ERROR(args.Int(key, lo, key == "identifier" ? INT64_MAX : kMaxCount, &v));
    *out = v;
    return Status::OK();
  };
  COMMITLAB_RETURN_IF_ERROR(optional_int("identifier", 0, &x.identifier));
  COMMITLAB_RETURN_IF_ERROR(optional_int("total", 0, &x.total_records));
  COMMITLAB_RETURN_IF_ERROR(optional_int("delta", -kMaxCount, &x.delta_records));
  COMMITLAB_RETURN_IF_ERROR(optional_int("parent", 0, &x.parent));
  if (const Token* t = args.Find("table")) COMMITLAB_RETURN_IF_ERROR(TableNamed(*t, &x.table));
  if (const Token* op = args.Find("operation")) COMMITLAB_RETURN_IF_ERROR(Operation(*op, &x));
  body = std::move(x);
  return Status::OK();
}

Status Parser::ExpectLine::Latest() {
  LatestSnapshotExpect x;
  COMMITLAB_RETURN_IF_ERROR(ParseComparison(ctx_, toks_, &i_, after_, &x.value));
  COMMITLAB_RETURN_IF_ERROR(OptionalTable(&x.table));
  body = x;
  return Status::OK();
}

Status Parser::ExpectLine::PerUser() {
  PerUserExpect x;
  if (i_ >= toks_.size())
    return ctx_.Error(kind_.end_col, "expected USER=N after expect per-user, e.g. expect per-user job-A=30 job-B=30");
  for (; i_ < toks_.size(); ++i_) {
    const Token& t = toks_[i_];
    if (!t.is_pair) return ctx_.Error(t.col, fmt::format("expected USER=N after expect per-user, got \"{}\"", t.text));
    if (t.key == "table") {
      COMMITLAB_RETURN_IF_ERROR(TableNamed(t, &x.table));
      continue;
    }
    if (!UserDeclared(t.key)) return ctx_.Error(t.col, fmt::format("no writer has commit user \"{}\"", t.key));
    int64_t n = 0;
    COMMITLAB_RETURN_IF_ERROR(
        ParseInt(ctx_, t.value, t.value_col, fmt::format("user \"{}\"", t.key), 0, kMaxCount, &n));
    if (!x.snapshots.emplace(t.key, n).second) return ctx_.Error(t.col, fmt::format("user \"{}\" listed twice", t.key));
  }
  body = std::move(x);
  return Status::OK();
}

Status Parser::ExpectLine::Tally() {
  TallyExpect x;
  if (i_ >= toks_.size()) {
    return ctx_.Error(kind_.end_col,
                      fmt::format("expected a counter after expect tally (one of {})", JoinNames(kCounters)));
  }
  size_t c = 0;
  COMMITLAB_RETURN_IF_ERROR(ParseChoice(ctx_, toks_[i_].text, toks_[i_].col, "the counter", kCounters, &c));
  x.counter = static_cast<Counter>(c);
  const std::string cmp_after = fmt::format("{} {}", after_, toks_[i_].text);
  ++i_;
  COMMITLAB_RETURN_IF_ERROR(ParseComparison(ctx_, toks_, &i_, cmp_after, &x.value));
  COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx_, toks_, i_, "the comparison"));
  body = x;
  return Status::OK();
}

// writer W (OUTCOME ["text"] | COUNTER CMP), step W.L (OUTCOME ["text"] | committed CMP),
// some-writer OUTCOME ["text"]
Status Parser::ExpectLine::About(Subject subject) {
  size_t w = 0;
  if (subject == Subject::kWriter) {
    COMMITLAB_RETURN_IF_ERROR(WriterAt(i_++, &w));
  } else if (subject == Subject::kStep) {
    if (i_ >= toks_.size()) return ctx_.Error(kind_.end_col, "expected a step WRITER.LABEL after expect step");
    RefText ref;
    COMMITLAB_RETURN_IF_ERROR(p_.ParseRefText(ctx_, toks_[i_++], &ref));
    p_.pending_expect_.push_back({std::move(ref), p_.s_.expectations.size()});
  }
  std::vector<std::string_view> words(kOutcomes.begin(), kOutcomes.end());
  if (subject == Subject::kWriter) words.insert(words.end(), kCounters.begin(), kCounters.end());
  // `returned` is `committed` under the name that fits the steps that return rows or files.
  if (subject == Subject::kStep) words.insert(words.end(), {"committed", "returned"});
  if (i_ >= toks_.size()) {
    return ctx_.Error(toks_[i_ - 1].end_col, fmt::format("expected an outcome{} after {} (one of {})",
                                                         subject == Subject::kSomeWriter ? "" : " or counter",
                                                         toks_[i_ - 1].text, JoinNames(words)));
  }
  const Token& what = toks_[i_++];
  const int outcome = IndexOf(kOutcomes, what.text);
  const int counter = IndexOf(words, what.text) - static_cast<int>(kOutcomes.size());
  if (what.kind != Token::Kind::kWord || (outcome < 0 && counter < 0)) {
    return ctx_.Error(what.col, fmt::format("unknown {} \"{}\" for {} (expected one of {})",
                                            subject == Subject::kSomeWriter ? "outcome" : "outcome or counter",
                                            what.text, after_, JoinNames(words)));
  }
  if (outcome >= 0) {
    OutcomeExpect x;
    x.subject = subject;
    x.writer = w;
    x.outcome = static_cast<Outcome>(outcome);
    COMMITLAB_RETURN_IF_ERROR(ParseOutcomeMessage(ctx_, toks_, i_, x.outcome, &x.message));
    body = std::move(x);
    return Status::OK();
  }
  CounterExpect x;
  x.subject = subject;
  x.writer = w;
  x.counter = what.text == "returned" ? Counter::kCommitted : static_cast<Counter>(IndexOf(kCounters, what.text));
  COMMITLAB_RETURN_IF_ERROR(ParseComparison(ctx_, toks_, &i_, fmt::format("{} {}", after_, what.text), &x.value,
                                            /*signed_values=*/what.text == "returned"));
  COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx_, toks_, i_, "the comparison"));
  body = x;
  return Status::OK();
}

// counter KEY CMP [table=NAME], of a table whose protocol keeps counters.
Status Parser::ExpectLine::CounterValue() {
  CounterValueExpect x;
  if (i_ >= toks_.size() || toks_[i_].kind != Token::Kind::kWord)
    return ctx_.Error(kind_.end_col, "expected a counter key after expect counter, e.g. expect counter hits 20");
  COMMITLAB_RETURN_IF_ERROR(CheckName(ctx_, toks_[i_].text, toks_[i_].col, "counter key"));
  x.key = toks_[i_].text;
  ++i_;
  COMMITLAB_RETURN_IF_ERROR(
      ParseComparison(ctx_, toks_, &i_, fmt::format("{} {}", after_, x.key), &x.value, /*signed_values=*/true));
  const bool named = i_ < toks_.size() && toks_[i_].is_pair && toks_[i_].key == "table";
  COMMITLAB_RETURN_IF_ERROR(OptionalTable(&x.table));
  const std::vector<Table>& tables = p_.s_.tables;
  if (tables.empty() || !ModuleOf(tables[x.table].protocol).keeps_counters()) {
    const std::string kept = CounterTables();
    if (named) {
      return ctx_.Error(kind_.col, fmt::format("expect counter looks at {}, but table {} is a {} table", kept,
                                               tables[x.table].name, ProtocolName(tables[x.table].protocol)));
    }
    return ctx_.Error(kind_.col,
                      fmt::format("expect counter looks at the first table (or table=NAME), which must be {}", kept));
  }
  body = std::move(x);
  return Status::OK();
}

Status Parser::ExpectLine::Invariant() {
  InvariantExpect x;
  const std::vector<std::string_view>& names = InvariantViolationNames();
  if (i_ >= toks_.size()) {
    return ctx_.Error(kind_.end_col, fmt::format("expected a violation after expect invariant-violation (one of {})",
                                                 JoinNames(names)));
  }
  if (IndexOf(names, toks_[i_].text) < 0 || toks_[i_].kind != Token::Kind::kWord) {
    return ctx_.Error(toks_[i_].col, fmt::format("unknown invariant violation \"{}\" (expected one of {})",
                                                 toks_[i_].text, JoinNames(names)));
  }
  x.violation = toks_[i_].text;
  COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx_, toks_, i_ + 1, after_ + " " + x.violation));
  body = std::move(x);
  return Status::OK();
}

Status Parser::ParseExpect(const LineContext& ctx, Tokens toks, std::string_view line) {
  Expectation e;
  e.pos = ctx.Pos(toks[0].col);
  e.text = std::string(line.substr(static_cast<size_t>(toks.front().col - 1),
                                   static_cast<size_t>(toks.back().end_col - toks.front().col)));
  if (toks.size() < 2) {
    return ctx.Error(toks[0].end_col,
                     fmt::format("expected what to expect after expect (one of {})", JoinNames(kExpectKinds)));
  }
  const Token& kind_tok = toks[1];
  const int kind = IndexOf(kExpectKinds, kind_tok.text);
  if (kind < 0 || kind_tok.kind != Token::Kind::kWord) {
    return ctx.Error(kind_tok.col, fmt::format("unknown expectation \"{}\" (expected one of {})", kind_tok.text,
                                               JoinNames(kExpectKinds)));
  }
  ExpectLine x(this, ctx, toks);
  switch (kind) {
    case 0: COMMITLAB_RETURN_IF_ERROR(x.Snapshot()); break;
    case 1: COMMITLAB_RETURN_IF_ERROR(x.Latest()); break;
    case 2: COMMITLAB_RETURN_IF_ERROR(x.PerUser()); break;
    case 3: COMMITLAB_RETURN_IF_ERROR(x.Tally()); break;
    case 4: COMMITLAB_RETURN_IF_ERROR(x.About(Subject::kWriter)); break;
    case 5: COMMITLAB_RETURN_IF_ERROR(x.About(Subject::kStep)); break;
    case 6: COMMITLAB_RETURN_IF_ERROR(x.About(Subject::kSomeWriter)); break;
    case 8: COMMITLAB_RETURN_IF_ERROR(x.CounterValue()); break;
    default: COMMITLAB_RETURN_IF_ERROR(x.Invariant()); break;
  }
  e.body = std::move(x.body);
  s_.expectations.push_back(std::move(e));
  return Status::OK();
}

}  // namespace commitlab::scenarios::internal
