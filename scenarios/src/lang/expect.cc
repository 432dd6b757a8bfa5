// expect lines: what a run must show. Writer names are resolved here (writers are declared before
// they are expected on); step labels once the whole file is read.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <span>

#include "lang/parser_impl.h"

namespace commitlab::scenarios::internal {
namespace {

constexpr int64_t kMaxCount = 1'000'000'000'000'000;  // counters, row totals, snapshot ids
constexpr std::array<std::string_view, 9> kExpectKinds = {
    "snapshot",    "latest-snapshot",     "per-user", "tally", "writer", "step",
    "some-writer", "invariant-violation", "counter"};
constexpr std::array<std::string_view, 8> kSnapshotKeys = {"kind",  "user",   "identifier", "total",
                                                           "delta", "parent", "operation",  "table"};
constexpr std::array<std::string_view, 3> kCommitKinds = {"APPEND", "COMPACT", "OVERWRITE"};
// A snapshot's `operation=`: Iceberg's DataOperations, Delta's operations, Paimon's commit kinds.
constexpr std::array<std::string_view, 4> kIcebergOperations = {"append", "overwrite", "replace", "delete"};

std::span<const std::string_view> OperationNames(Protocol p) {
  switch (p) {
    case Protocol::kIceberg: return kIcebergOperations;
    case Protocol::kDelta: return kDeltaOperations;
    case Protocol::kPaimon: break;
  }
  return kCommitKinds;
}
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

int IndexOf(std::span<const std::string_view> names, std::string_view s) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == s) return static_cast<int>(i);
  return -1;
}

}  // namespace

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
  const std::string after = fmt::format("expect {}", kind_tok.text);
  size_t i = 2;
  // The writer name of "expect writer W ...".
  auto writer_at = [&](size_t at, size_t* w) {
    if (at >= toks.size())
      return ctx.Error(toks[at - 1].end_col, fmt::format("expected a writer name after {}", after));
    const std::optional<size_t> found = FindWriter(toks[at].text);
    if (!found || toks[at].kind != Token::Kind::kWord)
      return ctx.Error(toks[at].col, fmt::format("writer \"{}\" is not declared", toks[at].text));
    *w = *found;
    return Status::OK();
  };
  auto user_declared = [&](std::string_view user) { return users_.find(user) != users_.end(); };
  // table=NAME: which table a snapshot, latest-snapshot, per-user or counter expectation looks at.
  auto table_named = [&](const Token& t, size_t* table) {
    for (size_t k = 0; k < s_.tables.size(); ++k) {
      if (s_.tables[k].name != t.value) continue;
      *table = k;
      return Status::OK();
    }
    return ctx.Error(t.value_col, fmt::format("table \"{}\" is not declared", t.value));
  };
  // An optional table=NAME at toks[i] (after a comparison), then nothing more.
  auto optional_table = [&](size_t* table) {
    if (i < toks.size() && toks[i].is_pair && toks[i].key == "table")
      COMMITLAB_RETURN_IF_ERROR(table_named(toks[i++], table));
    return NoMoreTokens(ctx, toks, i, "the comparison");
  };

  switch (kind) {
    case 0: {  // snapshot ID key=value...
      SnapshotExpect x;
      if (i >= toks.size()) return ctx.Error(kind_tok.end_col, "expected a snapshot id after expect snapshot");
      COMMITLAB_RETURN_IF_ERROR(ParseInt(ctx, toks[i].text, toks[i].col, "the snapshot id", 1, kMaxCount, &x.id));
      Args args;
      COMMITLAB_RETURN_IF_ERROR(Args::Collect(ctx, kind_tok.col, toks.subspan(i + 1), after, kSnapshotKeys, &args));
      size_t k = 0;
      if (args.Find("kind") != nullptr) {
        COMMITLAB_RETURN_IF_ERROR(args.Choice("kind", kCommitKinds, &k));
        x.kind = ParseCommitKind(kCommitKinds[k]);
      }
      if (const Token* user = args.Find("user")) {
        if (!user_declared(user->value))
          return ctx.Error(user->value_col, fmt::format("no writer has commit user \"{}\"", user->value));
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
      if (const Token* t = args.Find("table")) COMMITLAB_RETURN_IF_ERROR(table_named(*t, &x.table));
      if (const Token* op = args.Find("operation")) {
        // The names of the table's own protocol only.
        const Protocol protocol = s_.tables.empty() ? Protocol::kPaimon : s_.tables[x.table].protocol;
        const std::span<const std::string_view> names = OperationNames(protocol);
        COMMITLAB_RETURN_IF_ERROR(ParseChoice(ctx, op->value, op->value_col,
                                              fmt::format("key \"operation\" on {} table {}", ProtocolName(protocol),
                                                          s_.tables.empty() ? "" : s_.tables[x.table].name),
                                              names, &k));
        x.operation = std::string(names[k]);
        std::replace(x.operation->begin(), x.operation->end(), '-', ' ');  // Delta's own name
      }
      e.body = std::move(x);
      break;
    }
    case 1: {  // latest-snapshot CMP
      LatestSnapshotExpect x;
      COMMITLAB_RETURN_IF_ERROR(ParseComparison(ctx, toks, &i, after, &x.value));
      COMMITLAB_RETURN_IF_ERROR(optional_table(&x.table));
      e.body = x;
      break;
    }
    case 2: {  // per-user USER=N ...
      PerUserExpect x;
      if (i >= toks.size())
        return ctx.Error(kind_tok.end_col,
                         "expected USER=N after expect per-user, e.g. expect per-user job-A=30 job-B=30");
      for (; i < toks.size(); ++i) {
        const Token& t = toks[i];
        if (!t.is_pair)
          return ctx.Error(t.col, fmt::format("expected USER=N after expect per-user, got \"{}\"", t.text));
        if (t.key == "table") {
          COMMITLAB_RETURN_IF_ERROR(table_named(t, &x.table));
          continue;
        }
        if (!user_declared(t.key)) return ctx.Error(t.col, fmt::format("no writer has commit user \"{}\"", t.key));
        int64_t n = 0;
        COMMITLAB_RETURN_IF_ERROR(
            ParseInt(ctx, t.value, t.value_col, fmt::format("user \"{}\"", t.key), 0, kMaxCount, &n));
        if (!x.snapshots.emplace(t.key, n).second)
          return ctx.Error(t.col, fmt::format("user \"{}\" listed twice", t.key));
      }
      e.body = std::move(x);
      break;
    }
    case 3: {  // tally COUNTER CMP
      TallyExpect x;
      if (i >= toks.size()) {
        return ctx.Error(kind_tok.end_col,
                         fmt::format("expected a counter after expect tally (one of {})", JoinNames(kCounters)));
      }
      size_t c = 0;
      COMMITLAB_RETURN_IF_ERROR(ParseChoice(ctx, toks[i].text, toks[i].col, "the counter", kCounters, &c));
      x.counter = static_cast<Counter>(c);
      const std::string cmp_after = fmt::format("{} {}", after, toks[i].text);
      ++i;
      COMMITLAB_RETURN_IF_ERROR(ParseComparison(ctx, toks, &i, cmp_after, &x.value));
      COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx, toks, i, "the comparison"));
      e.body = x;
      break;
    }
    case 4:    // writer W (OUTCOME ["text"] | COUNTER CMP)
    case 5:    // step W.L (OUTCOME ["text"] | committed CMP)
    case 6: {  // some-writer OUTCOME ["text"]
      const Subject subject = kind == 4 ? Subject::kWriter : kind == 5 ? Subject::kStep : Subject::kSomeWriter;
      size_t w = 0;
      if (subject == Subject::kWriter) {
        COMMITLAB_RETURN_IF_ERROR(writer_at(i++, &w));
      } else if (subject == Subject::kStep) {
        if (i >= toks.size()) return ctx.Error(kind_tok.end_col, "expected a step WRITER.LABEL after expect step");
        RefText ref;
        COMMITLAB_RETURN_IF_ERROR(ParseRefText(ctx, toks[i++], &ref));
        pending_expect_.push_back({std::move(ref), s_.expectations.size()});
      }
      std::vector<std::string_view> words(kOutcomes.begin(), kOutcomes.end());
      if (subject == Subject::kWriter) words.insert(words.end(), kCounters.begin(), kCounters.end());
      // `returned` is `committed` under the name that fits the steps that return rows or files.
      if (subject == Subject::kStep) words.insert(words.end(), {"committed", "returned"});
      if (i >= toks.size()) {
        return ctx.Error(toks[i - 1].end_col, fmt::format("expected an outcome{} after {} (one of {})",
                                                          subject == Subject::kSomeWriter ? "" : " or counter",
                                                          toks[i - 1].text, JoinNames(words)));
      }
      const Token& what = toks[i++];
      const int outcome = IndexOf(kOutcomes, what.text);
      const int counter = IndexOf(words, what.text) - static_cast<int>(kOutcomes.size());
      if (what.kind != Token::Kind::kWord || (outcome < 0 && counter < 0)) {
        return ctx.Error(what.col, fmt::format("unknown {} \"{}\" for {} (expected one of {})",
                                               subject == Subject::kSomeWriter ? "outcome" : "outcome or counter",
                                               what.text, after, JoinNames(words)));
      }
      if (outcome >= 0) {
        OutcomeExpect x;
        x.subject = subject;
        x.writer = w;
        x.outcome = static_cast<Outcome>(outcome);
        COMMITLAB_RETURN_IF_ERROR(ParseOutcomeMessage(ctx, toks, i, x.outcome, &x.message));
        e.body = std::move(x);
      } else {
        CounterExpect x;
        x.subject = subject;
        x.writer = w;
        x.counter = what.text == "returned" ? Counter::kCommitted : static_cast<Counter>(IndexOf(kCounters, what.text));
        COMMITLAB_RETURN_IF_ERROR(ParseComparison(ctx, toks, &i, fmt::format("{} {}", after, what.text), &x.value,
                                                  /*signed_values=*/what.text == "returned"));
        COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx, toks, i, "the comparison"));
        e.body = x;
      }
      break;
    }
    case 8: {  // counter KEY CMP
      CounterValueExpect x;
      if (i >= toks.size() || toks[i].kind != Token::Kind::kWord)
        return ctx.Error(kind_tok.end_col, "expected a counter key after expect counter, e.g. expect counter hits 20");
      COMMITLAB_RETURN_IF_ERROR(CheckName(ctx, toks[i].text, toks[i].col, "counter key"));
      x.key = toks[i].text;
      ++i;
      COMMITLAB_RETURN_IF_ERROR(
          ParseComparison(ctx, toks, &i, fmt::format("{} {}", after, x.key), &x.value, /*signed_values=*/true));
      const bool named = i < toks.size() && toks[i].is_pair && toks[i].key == "table";
      COMMITLAB_RETURN_IF_ERROR(optional_table(&x.table));
      if (s_.tables.empty() || s_.tables[x.table].protocol != Protocol::kIceberg) {
        if (named) {
          return ctx.Error(kind_tok.col,
                           fmt::format("expect counter looks at an iceberg table, but table {} is a {} "
                                       "table",
                                       s_.tables[x.table].name, ProtocolName(s_.tables[x.table].protocol)));
        }
        return ctx.Error(kind_tok.col,
                         "expect counter looks at the first table (or table=NAME), which must be an "
                         "iceberg table");
      }
      e.body = std::move(x);
      break;
    }
    default: {  // invariant-violation KIND
      InvariantExpect x;
      const std::vector<std::string_view>& names = InvariantViolationNames();
      if (i >= toks.size()) {
        return ctx.Error(
            kind_tok.end_col,
            fmt::format("expected a violation after expect invariant-violation (one of {})", JoinNames(names)));
      }
      if (IndexOf(names, toks[i].text) < 0 || toks[i].kind != Token::Kind::kWord) {
        return ctx.Error(toks[i].col, fmt::format("unknown invariant violation \"{}\" (expected one of {})",
                                                  toks[i].text, JoinNames(names)));
      }
      x.violation = toks[i].text;
      COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx, toks, i + 1, after + " " + x.violation));
      e.body = std::move(x);
      break;
    }
  }
  s_.expectations.push_back(std::move(e));
  return Status::OK();
}

}  // namespace commitlab::scenarios::internal
