// Step lines (WRITER[.LABEL]: OP key=value ...; OP ...) and `repeat N: <step line>`. Each
// operation is parsed once into a template, then instantiated per repeat iteration, which is
// where identifiers, fresh keys and checkpoint names are assigned in file order.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <limits>

#include "commitlab/scenarios/parser.h"
#include "lang/parser_impl.h"

namespace commitlab::scenarios::internal {
namespace {

constexpr int64_t kMaxFileIndex = 9999;
constexpr int64_t kMaxIdentifier = std::numeric_limits<int64_t>::max();

constexpr std::array<std::string_view, 4> kWriteKeys = {"rows", "keys", "partition", "bucket"};
constexpr std::array<std::string_view, 5> kCommitKeys = {"identifier", "checkpoint", "check-append-files",
                                                         "ignore-empty-commit", "overwrite"};
constexpr std::array<std::string_view, 7> kCompactKeys = {"partition", "bucket", "from", "files", "to", "keys", "rows"};
constexpr std::array<std::string_view, 2> kCheckpointKeys = {"name", "identifier"};
constexpr std::array<std::string_view, 1> kFilterKeys = {"checkpoints"};
constexpr std::string_view kRepeatExample = "e.g. repeat 30: job-A: write rows=1; commit";

std::string Expanded(std::string_view name, int iteration) {
  return iteration == 0 ? std::string(name) : fmt::format("{}[{}]", name, iteration);
}

size_t ListEntries(const Op& op) {
  if (const auto* c = std::get_if<CompactOp>(&op)) return c->files.size();
  if (const auto* f = std::get_if<FilterAndCommitOp>(&op)) return f->checkpoints.size();
  if (const auto* d = std::get_if<DeleteDataFilesOp>(&op)) return d->checkpoints.size();
  if (const auto* r = std::get_if<RemoveOp>(&op)) return r->files.size();
  return 0;
}

}  // namespace

Status ForEachListItem(const LineContext& ctx, const Token& t,
                       const std::function<Status(std::string_view item, int col)>& item) {
  std::string_view rest = t.value;
  int col = t.value_col;
  size_t n = 0;
  while (true) {
    const size_t comma = rest.find(',');
    if (++n > kMaxListEntries)
      return ctx.Error(col, fmt::format("too many entries for key \"{}\" (at most {})", t.key, kMaxListEntries));
    COMMITLAB_RETURN_IF_ERROR(item(rest.substr(0, comma), col));
    if (comma == std::string_view::npos) return Status::OK();
    rest = rest.substr(comma + 1);
    col += static_cast<int>(comma) + 1;
  }
}

Status ParseNameList(const LineContext& ctx, const Token& t, std::string_view what, std::vector<std::string>* out) {
  return ForEachListItem(ctx, t, [&](std::string_view name, int col) {
    COMMITLAB_RETURN_IF_ERROR(CheckName(ctx, name, col, what));
    for (const std::string& n : *out)
      if (n == name) return ctx.Error(col, fmt::format("{} \"{}\" listed twice", what, name));
    out->emplace_back(name);
    return Status::OK();
  });
}

Status Parser::ParseRepeat(const LineContext& ctx, Tokens toks) {
  if (toks.size() < 2 || toks[1].kind != Token::Kind::kWord)
    return ctx.Error(toks[0].end_col, fmt::format("expected a count after repeat, {}", kRepeatExample));
  const Token& count_tok = toks[1];
  if (count_tok.text.back() != ':') {
    return ctx.Error(count_tok.end_col, fmt::format("expected ':' right after the repeat count, {}", kRepeatExample));
  }
  int64_t count = 0;
  COMMITLAB_RETURN_IF_ERROR(ParseInt(ctx, std::string_view(count_tok.text).substr(0, count_tok.text.size() - 1),
                                     count_tok.col, "the repeat count", 1, static_cast<int64_t>(max_steps_), &count));
  if (toks.size() < 3)
    return ctx.Error(count_tok.end_col,
                     fmt::format("expected a step line after \"repeat {}\", {}", count_tok.text, kRepeatExample));
  if (toks[2].kind != Token::Kind::kWord || toks[2].text.find(':') == std::string::npos) {
    return ctx.Error(toks[2].col,
                     fmt::format("repeat applies to a step line WRITER: STEP ..., got \"{}\"", toks[2].text));
  }
  return ParseStepLine(ctx, toks.subspan(2), count, count_tok.col);
}

Status Parser::ParseStepLine(const LineContext& ctx, Tokens toks, int64_t repeat, int repeat_col) {
  const Token& head = toks[0];
  const size_t colon = head.text.find(':');
  const std::string_view prefix = std::string_view(head.text).substr(0, colon);
  const std::string_view rest = std::string_view(head.text).substr(colon + 1);
  const size_t dot = prefix.find('.');
  const std::string_view writer_name = prefix.substr(0, dot);
  if (writer_name.empty())
    return ctx.Error(head.col, "expected a writer name before ':' (a step line is WRITER: STEP ...)");
  COMMITLAB_RETURN_IF_ERROR(CheckName(ctx, writer_name, head.col, "writer name"));
  const std::optional<size_t> w = FindWriter(writer_name);
  if (!w) {
    return ctx.Error(head.col, fmt::format("writer \"{}\" is not declared (declare it with a writer line before its "
                                           "steps)",
                                           writer_name));
  }
  std::string label;
  if (dot != std::string_view::npos) {
    label = std::string(prefix.substr(dot + 1));
    const int label_col = head.col + static_cast<int>(dot) + 1;
    COMMITLAB_RETURN_IF_ERROR(CheckName(ctx, label, label_col, "label"));
    auto [it, inserted] = base_labels_[*w].emplace(label, ctx.line());
    if (!inserted) {
      return ctx.Error(label_col, fmt::format("writer \"{}\" already has a step labelled \"{}\" (line {})", writer_name,
                                              label, it->second));
    }
  }

  // The operations: what follows the colon, split at ';'.
  std::vector<Token> op_tokens;
  if (!rest.empty()) {
    Token t;
    t.text = std::string(rest);
    t.value = t.text;
    t.col = t.value_col = head.col + static_cast<int>(colon) + 1;
    t.end_col = head.end_col;
    op_tokens.push_back(std::move(t));
  }
  op_tokens.insert(op_tokens.end(), toks.begin() + 1, toks.end());
  std::vector<OpTemplate> ops;
  size_t begin = 0;
  int sep_end_col = head.end_col;
  std::string_view sep = "':'";
  for (size_t i = 0; i <= op_tokens.size(); ++i) {
    if (i < op_tokens.size() && op_tokens[i].kind != Token::Kind::kSemicolon) continue;
    if (i == begin) return ctx.Error(sep_end_col, fmt::format("expected a step after {}", sep));
    OpTemplate tmpl;
    COMMITLAB_RETURN_IF_ERROR(ParseOp(ctx, *w, Tokens(op_tokens).subspan(begin, i - begin), &tmpl));
    ops.push_back(std::move(tmpl));
    if (i < op_tokens.size()) {
      sep_end_col = op_tokens[i].end_col;
      sep = "';'";
    }
    begin = i + 1;
  }

  const size_t iterations = repeat == 0 ? 1 : static_cast<size_t>(repeat);
  const size_t new_steps = ops.size() * iterations;  // <= 4096 * 100000: no overflow
  if (total_steps_ + new_steps > max_steps_) {
    return ctx.Error(
        repeat_col != 0 ? repeat_col : head.col,
        fmt::format("too many steps: {} after expanding repeats (at most {})", total_steps_ + new_steps, max_steps_));
  }
  size_t entries = 0;
  for (const OpTemplate& t : ops) entries += ListEntries(t.op);
  const size_t max_list_entries = 2 * max_steps_;
  if (list_entries_ + entries * iterations > max_list_entries) {
    return ctx.Error(repeat_col != 0 ? repeat_col : head.col,
                     fmt::format("too many list entries: {} after expanding repeats (at most {})",
                                 list_entries_ + entries * iterations, max_list_entries));
  }
  total_steps_ += new_steps;
  list_entries_ += entries * iterations;

  Writer& writer = s_.writers[*w];
  if (repeat != 0) {
    Result<bool> lazy = AddLazyRepeat(ctx, *w, ops, label, iterations);
    if (!lazy.ok()) return lazy.status();
    if (*lazy) return Status::OK();
  }
  for (size_t i = 1; i <= iterations; ++i) {
    const int iteration = repeat == 0 ? 0 : static_cast<int>(i);
    std::map<std::string, std::string, std::less<>> line_checkpoints;
    const size_t first = writer.steps.size();
    for (const OpTemplate& tmpl : ops) {
      Step step;
      COMMITLAB_RETURN_IF_ERROR(Instantiate(ctx, *w, tmpl, iteration, &line_checkpoints, &step));
      writer.steps.push_back(std::move(step));
    }
    if (!label.empty()) {
      std::string name = Expanded(label, iteration);
      writer.steps.stored(first).label = name;
      labels_[*w].emplace(std::move(name), LabelInfo{first, writer.steps.size() - 1, ctx.line()});
    }
  }
  return Status::OK();
}

Result<bool> Parser::AddLazyRepeat(const LineContext& ctx, size_t writer, const std::vector<OpTemplate>& ops,
                                   const std::string& label, size_t iterations) {
  // Each iteration's write takes the table's next fresh keys and each commit the writer's next
  // identifier (Instantiate): a line of only those is the same every time but for an offset. A
  // label, a checkpoint or a given identifier or key range makes iterations differ otherwise.
  if (!lazy_repeats_ || iterations < 2 || !label.empty()) return false;
  for (const OpTemplate& t : ops) {
    const auto* c = std::get_if<CommitOp>(&t.op);
    const bool fresh_write = std::holds_alternative<WriteOp>(t.op) && !t.keys_given;
    const bool plain_commit = c != nullptr && c->checkpoint.empty() && !t.identifier_given;
    if (!fresh_write && !plain_commit) return false;
  }
  const size_t table = s_.writers[writer].table;
  const int64_t keys_before = next_key_[table];
  const int64_t ids_before = last_identifier_[writer];
  int64_t commits = 0;
  for (const OpTemplate& t : ops) commits += std::holds_alternative<CommitOp>(t.op) ? 1 : 0;
  // The identifiers must not pass kMaxIdentifier: expanded, the line names where they would.
  const auto n = static_cast<int64_t>(iterations);
  if (commits > 0 && ids_before > kMaxIdentifier - n * commits) return false;
  std::vector<Step> first;
  std::map<std::string, std::string, std::less<>> no_checkpoints;
  for (const OpTemplate& tmpl : ops) {
    Step step;
    COMMITLAB_RETURN_IF_ERROR(Instantiate(ctx, writer, tmpl, 1, &no_checkpoints, &step));
    first.push_back(std::move(step));
  }
  const int64_t key_stride = next_key_[table] - keys_before;
  const int64_t id_stride = last_identifier_[writer] - ids_before;
  // Where the other iterations leave the table's keys and the writer's identifiers.
  next_key_[table] += (n - 1) * key_stride;
  last_identifier_[writer] += (n - 1) * id_stride;
  s_.writers[writer].steps.push_repeat(std::move(first), n, key_stride, id_stride);
  return true;
}

Status Parser::ParsePartition(const LineContext& ctx, int owner_col, const Token* t, const Table& table,
                              std::string_view what, std::string* out) {
  const std::string keys = fmt::format("{}", fmt::join(table.partition_keys, "=VALUE/"));
  if (t == nullptr) {
    if (table.partition_keys.empty()) return Status::OK();
    return ctx.Error(owner_col, fmt::format("missing required key \"partition\" for {} (table {} is partitioned: "
                                            "partition={}=VALUE)",
                                            what, table.name, keys));
  }
  if (table.partition_keys.empty()) {
    return ctx.Error(t->col, fmt::format("table {} is not partitioned (remove key \"partition\")", table.name));
  }
  // dt=2024-01-01/hr=1: the table's partition keys, in order, each with a non-empty value.
  std::string_view rest = t->value;
  for (size_t i = 0; i < table.partition_keys.size(); ++i) {
    const size_t slash = rest.find('/');
    const std::string_view part = rest.substr(0, slash);
    const size_t eq = part.find('=');
    const bool last = i + 1 == table.partition_keys.size();
    if (eq == std::string_view::npos || part.substr(0, eq) != table.partition_keys[i] || eq + 1 == part.size() ||
        last != (slash == std::string_view::npos)) {
      return ctx.Error(t->value_col, fmt::format("bad partition \"{}\" for table {} (expected {}=VALUE)", t->value,
                                                 table.name, keys));
    }
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
  }
  *out = t->value;
  return Status::OK();
}

namespace {

// overwrite=all, or some of the table's partition keys: overwrite=dt=1 covers dt=1/hr=*.
Status ParseOverwriteTarget(const LineContext& ctx, const Token& t, const Table& table, std::string* out) {
  if (t.value == "all") {
    out->clear();
    return Status::OK();
  }
  const std::string expected =
      table.partition_keys.empty()
          ? fmt::format("table {} is not partitioned, so only overwrite=all", table.name)
          : fmt::format(
                "expected overwrite=all or KEY=VALUE[/KEY=VALUE...] over the partition keys {}",
                JoinNames(std::vector<std::string_view>(table.partition_keys.begin(), table.partition_keys.end())));
  std::vector<std::string> seen;
  std::string_view rest = t.value;
  int col = t.value_col;
  while (true) {
    const size_t slash = rest.find('/');
    const std::string_view part = rest.substr(0, slash);
    const size_t eq = part.find('=');
    const std::string key(part.substr(0, eq == std::string_view::npos ? part.size() : eq));
    if (eq == std::string_view::npos || eq + 1 == part.size() ||
        std::find(table.partition_keys.begin(), table.partition_keys.end(), key) == table.partition_keys.end() ||
        std::find(seen.begin(), seen.end(), key) != seen.end()) {
      return ctx.Error(col, fmt::format("bad overwrite target \"{}\" ({})", part, expected));
    }
    seen.push_back(key);
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
    col += static_cast<int>(slash) + 1;
  }
  *out = t.value;
  return Status::OK();
}

}  // namespace

Status Parser::ParseOp(const LineContext& ctx, size_t writer, Tokens toks, OpTemplate* out) {
  const Token& name = toks[0];
  out->pos = ctx.Pos(name.col);
  const Table& table = s_.tables[s_.writers[writer].table];
  if (name.kind != Token::Kind::kWord || name.is_pair) {
    return ctx.Error(name.col, fmt::format("expected a step name (one of {}), got \"{}\"",
                                           JoinNames(StepNames(table.protocol)), name.text));
  }
  const std::span<const std::string_view> own = StepNames(table.protocol);
  const size_t kind = static_cast<size_t>(std::find(own.begin(), own.end(), name.text) - own.begin());
  if (kind == own.size()) return WrongProtocolStep(ctx, name, s_.writers[writer], table);
  if (table.protocol == Protocol::kIceberg) return ParseIcebergOp(ctx, table, toks, out);
  if (table.protocol == Protocol::kDelta) return ParseDeltaOp(ctx, table, toks, out);
  const std::string what = fmt::format("step {}", name.text);
  const Tokens arg_toks = toks.subspan(1);
  Args args;
  // Each step's own keys; an unknown key lists them.
  auto collect = [&](std::span<const std::string_view> keys) {
    return Args::Collect(ctx, name.col, arg_toks, what, keys, &args);
  };
  // A writer may run with its own bucket count (a rescaled job); its files' buckets are below it.
  const int32_t buckets = s_.writers[writer].buckets > 0 ? s_.writers[writer].buckets : table.buckets;
  switch (kind) {
    case 0: {  // write
      COMMITLAB_RETURN_IF_ERROR(collect(kWriteKeys));
      WriteOp op;
      if (const Token* keys = args.Find("keys")) {
        COMMITLAB_RETURN_IF_ERROR(
            ParseRange(ctx, keys->value, keys->value_col, "key \"keys\"", -kMaxKey, kMaxKey, &op.min_key, &op.max_key));
        out->keys_given = true;
        op.rows = std::min(op.max_key - op.min_key + 1, kMaxRows);
      }
      COMMITLAB_RETURN_IF_ERROR(args.Int("rows", 1, kMaxRows, &op.rows));
      COMMITLAB_RETURN_IF_ERROR(ParsePartition(ctx, name.col, args.Find("partition"), table, what, &op.partition));
      COMMITLAB_RETURN_IF_ERROR(args.Int32("bucket", 0, buckets - 1, &op.bucket));
      out->op = std::move(op);
      return Status::OK();
    }
    case 1: {  // commit
      COMMITLAB_RETURN_IF_ERROR(collect(kCommitKeys));
      CommitOp op;
      const Token* id = args.Find("identifier");
      const Token* cp = args.Find("checkpoint");
      if (id != nullptr && cp != nullptr) {
        const Token* second = id->col > cp->col ? id : cp;
        return ctx.Error(second->col, "step commit takes identifier or checkpoint, not both");
      }
      COMMITLAB_RETURN_IF_ERROR(args.Int("identifier", 0, kMaxIdentifier, &op.identifier));
      COMMITLAB_RETURN_IF_ERROR(args.Bool("check-append-files", &op.check_append_files));
      if (const Token* ow = args.Find("overwrite")) {
        COMMITLAB_RETURN_IF_ERROR(ParseOverwriteTarget(ctx, *ow, table, &op.overwrite.emplace()));
      }
      if (args.Find("ignore-empty-commit") != nullptr) {
        bool ignore = false;
        COMMITLAB_RETURN_IF_ERROR(args.Bool("ignore-empty-commit", &ignore));
        op.ignore_empty_commit = ignore;
      }
      out->identifier_given = id != nullptr;
      if (cp != nullptr) {
        if (!IsRefName(cp->value))
          COMMITLAB_RETURN_IF_ERROR(CheckName(ctx, cp->value, cp->value_col, "checkpoint name"));
        op.checkpoint = cp->value;
        out->ref_pos.push_back(ctx.Pos(cp->value_col));
      }
      out->op = std::move(op);
      return Status::OK();
    }
    case 2: {  // compact
      COMMITLAB_RETURN_IF_ERROR(collect(kCompactKeys));
      CompactOp op;
      const Token* tok = nullptr;
      COMMITLAB_RETURN_IF_ERROR(args.Require("from", &tok));
      COMMITLAB_RETURN_IF_ERROR(args.Require("to", &tok));
      COMMITLAB_RETURN_IF_ERROR(ParsePartition(ctx, name.col, args.Find("partition"), table, what, &op.partition));
      COMMITLAB_RETURN_IF_ERROR(args.Int32("bucket", 0, buckets - 1, &op.bucket));
      COMMITLAB_RETURN_IF_ERROR(args.Int32("from", 0, table.levels - 1, &op.from_level));
      COMMITLAB_RETURN_IF_ERROR(args.Int32("to", 1, table.levels - 1, &op.to_level));
      if (op.to_level < op.from_level) {
        return ctx.Error(tok->value_col, fmt::format("compaction cannot move files down: key \"to\" ({}) is below key "
                                                     "\"from\" ({})",
                                                     op.to_level, op.from_level));
      }
      if (const Token* files = args.Find("files"); files != nullptr && files->value != "all") {
        op.all_files = false;
        auto add_file = [&](std::string_view item, int col) {
          int64_t index = 0;
          if (item.empty() || item.find_first_not_of("0123456789") != std::string_view::npos) {
            return ctx.Error(
                col, fmt::format("expected all or file indexes like 0,1 for key \"files\", got \"{}\"", files->value));
          }
          COMMITLAB_RETURN_IF_ERROR(ParseInt(ctx, item, col, "a file index", 0, kMaxFileIndex, &index));
          for (int32_t f : op.files)
            if (f == index) return ctx.Error(col, fmt::format("file index {} listed twice", index));
          op.files.push_back(static_cast<int32_t>(index));
          return Status::OK();
        };
        COMMITLAB_RETURN_IF_ERROR(ForEachListItem(ctx, *files, add_file));
      }
      if (const Token* keys = args.Find("keys")) {
        int64_t lo = 0, hi = 0;
        COMMITLAB_RETURN_IF_ERROR(
            ParseRange(ctx, keys->value, keys->value_col, "key \"keys\"", -kMaxKey, kMaxKey, &lo, &hi));
        op.min_key = lo;
        op.max_key = hi;
      }
      if (args.Find("rows") != nullptr) {
        int64_t rows = 0;
        COMMITLAB_RETURN_IF_ERROR(args.Int("rows", 0, kMaxRows, &rows));
        op.rows = rows;
      }
      out->op = std::move(op);
      return Status::OK();
    }
    case 3: {  // checkpoint
      COMMITLAB_RETURN_IF_ERROR(collect(kCheckpointKeys));
      CheckpointOp op;
      const Token* n = nullptr;
      COMMITLAB_RETURN_IF_ERROR(args.Require("name", &n));
      COMMITLAB_RETURN_IF_ERROR(args.Name("name", "checkpoint name", &op.name));
      auto [it, inserted] = base_checkpoints_.emplace(op.name, ctx.line());
      if (!inserted) {
        return ctx.Error(n->value_col,
                         fmt::format("checkpoint \"{}\" is already saved at line {}", op.name, it->second));
      }
      COMMITLAB_RETURN_IF_ERROR(args.Int("identifier", 0, kMaxIdentifier, &op.identifier));
      out->identifier_given = args.Find("identifier") != nullptr;
      out->op = std::move(op);
      return Status::OK();
    }
    case 4:    // filter-and-commit
    case 5: {  // delete-data-files
      COMMITLAB_RETURN_IF_ERROR(collect(kFilterKeys));
      std::vector<std::string> checkpoints;
      const Token* list = nullptr;
      COMMITLAB_RETURN_IF_ERROR(args.Require("checkpoints", &list));
      auto add_checkpoint = [&](std::string_view item, int col) {
        if (!IsRefName(item)) COMMITLAB_RETURN_IF_ERROR(CheckName(ctx, item, col, "checkpoint name"));
        for (const std::string& c : checkpoints)
          if (c == item) return ctx.Error(col, fmt::format("checkpoint \"{}\" listed twice", item));
        checkpoints.emplace_back(item);
        out->ref_pos.push_back(ctx.Pos(col));
        return Status::OK();
      };
      COMMITLAB_RETURN_IF_ERROR(ForEachListItem(ctx, *list, add_checkpoint));
      if (kind == 4) {
        out->op = FilterAndCommitOp{std::move(checkpoints)};
      } else {
        out->op = DeleteDataFilesOp{std::move(checkpoints)};
      }
      return Status::OK();
    }
    default:  // restart
      COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx, toks, 1, "restart (it takes no arguments)"));
      out->op = RestartOp{};
      return Status::OK();
  }
}

Status Parser::ResolveCheckpoint(const LineContext& ctx, std::string_view name, SourcePos pos,
                                 const std::map<std::string, std::string, std::less<>>& line_checkpoints,
                                 std::string* resolved, const CheckpointInfo** info) {
  // Inside a repeat, a name saved earlier on the same line means this iteration's checkpoint.
  auto local = line_checkpoints.find(name);
  *resolved = local != line_checkpoints.end() ? local->second : std::string(name);
  auto it = checkpoints_.find(*resolved);
  if (it == checkpoints_.end()) {
    std::string hint;
    if (checkpoints_.count(fmt::format("{}[1]", name)) != 0)
      hint = fmt::format(" (it is saved inside a repeat: use {}[1], {}[2], ...)", name, name);
    return ctx.Error(pos.col, fmt::format("checkpoint \"{}\" is not saved by an earlier step{}", name, hint));
  }
  *info = &it->second;
  return Status::OK();
}

Status Parser::CountIcebergRows(const LineContext& ctx, const OpTemplate& tmpl, size_t table, const Op& op) {
  int64_t rows = 0;
  if (const auto* a = std::get_if<AppendOp>(&op)) rows = a->data.rows;
  if (const auto* o = std::get_if<OverwriteOp>(&op)) rows = o->data.rows;
  if (const auto* rp = std::get_if<ReplacePartitionsOp>(&op))
    for (const DataSpec& f : rp->files) rows += f.rows;
  if (const auto* rd = std::get_if<RowDeltaOp>(&op)) {
    // An equality delete keeps its keys in memory as rows do.
    if (rd->data) rows += rd->data->rows;
    if (rd->delete_keys) rows += rd->delete_keys->second - rd->delete_keys->first + 1;
  }
  if (const auto* c = std::get_if<CounterOp>(&op); c != nullptr && c->action == CounterOp::Action::kInit) rows = 1;
  const bool rewrite = std::holds_alternative<RewriteOp>(op);
  if (rows == 0 && !rewrite) return Status::OK();
  int64_t& written = iceberg_rows_[table];
  int64_t& rewrites = iceberg_rewrites_[table];
  written += rows;  // <= 100 000 steps of <= 100 000 rows: no overflow
  rewrites += rewrite ? 1 : 0;
  int64_t copies = 0;
  if (!__builtin_mul_overflow(written, rewrites + 1, &copies) && copies <= kMaxIcebergTableRows) return Status::OK();
  return ctx.Error(tmpl.pos.col,
                   fmt::format("too many rows for iceberg table {}: its steps up to here write {} row(s){} (at most "
                               "{} a table: Iceberg data files keep their rows in memory)",
                               s_.tables[table].name, written,
                               rewrites == 0 ? ""
                                             : fmt::format(" and its {} rewrite(s) may copy them all again, {} in all",
                                                           rewrites, copies),
                               kMaxIcebergTableRows));
}

Status Parser::Instantiate(const LineContext& ctx, size_t writer, const OpTemplate& tmpl, int iteration,
                           std::map<std::string, std::string, std::less<>>* line_checkpoints, Step* out) {
  out->pos = tmpl.pos;
  out->iteration = iteration;
  out->op = tmpl.op;
  int64_t& last_id = last_identifier_[writer];
  auto next_identifier = [&](int64_t* id) {
    if (last_id == kMaxIdentifier) {
      return ctx.Error(
          tmpl.pos.col,
          fmt::format("the next commit identifier would exceed {} (give one with identifier=N)", kMaxIdentifier));
    }
    *id = last_id + 1;
    return Status::OK();
  };
  // Fresh keys in file order, the same for Paimon's write and Iceberg's new data files.
  auto assign_keys = [&](int64_t rows, int64_t* min_key, int64_t* max_key) {
    int64_t& next = next_key_[s_.writers[writer].table];
    if (!tmpl.keys_given) {
      *min_key = next;
      *max_key = next + rows - 1;
    }
    next = std::max(next, *max_key + 1);
  };
  COMMITLAB_RETURN_IF_ERROR(CountIcebergRows(ctx, tmpl, s_.writers[writer].table, out->op));
  if (auto* w = std::get_if<WriteOp>(&out->op)) {
    assign_keys(w->rows, &w->min_key, &w->max_key);
  } else if (auto* a = std::get_if<AppendOp>(&out->op)) {
    assign_keys(a->data.rows, &a->data.min_key, &a->data.max_key);
  } else if (auto* o = std::get_if<OverwriteOp>(&out->op)) {
    assign_keys(o->data.rows, &o->data.min_key, &o->data.max_key);
  } else if (auto* rp = std::get_if<ReplacePartitionsOp>(&out->op)) {
    for (DataSpec& f : rp->files) assign_keys(f.rows, &f.min_key, &f.max_key);
  } else if (auto* rd = std::get_if<RowDeltaOp>(&out->op); rd != nullptr && rd->data) {
    assign_keys(rd->data->rows, &rd->data->min_key, &rd->data->max_key);
  } else if (auto* c = std::get_if<CommitOp>(&out->op)) {
    if (!c->checkpoint.empty()) {
      const CheckpointInfo* info = nullptr;
      COMMITLAB_RETURN_IF_ERROR(
          ResolveCheckpoint(ctx, c->checkpoint, tmpl.ref_pos[0], *line_checkpoints, &c->checkpoint, &info));
      c->identifier = info->identifier;
    } else {
      if (!tmpl.identifier_given) COMMITLAB_RETURN_IF_ERROR(next_identifier(&c->identifier));
      last_id = c->identifier;
    }
  } else if (auto* cp = std::get_if<CheckpointOp>(&out->op)) {
    if (!tmpl.identifier_given) COMMITLAB_RETURN_IF_ERROR(next_identifier(&cp->identifier));
    last_id = cp->identifier;
    std::string name = Expanded(cp->name, iteration);
    (*line_checkpoints)[cp->name] = name;
    checkpoints_[name] = {cp->identifier, ctx.line()};
    cp->name = std::move(name);
  } else if (auto* d = std::get_if<DeleteDataFilesOp>(&out->op)) {
    for (size_t i = 0; i < d->checkpoints.size(); ++i) {
      const CheckpointInfo* info = nullptr;
      COMMITLAB_RETURN_IF_ERROR(ResolveCheckpoint(ctx, std::string(d->checkpoints[i]), tmpl.ref_pos[i],
                                                  *line_checkpoints, &d->checkpoints[i], &info));
    }
  } else if (auto* f = std::get_if<FilterAndCommitOp>(&out->op)) {
    const CheckpointInfo* prev = nullptr;
    for (size_t i = 0; i < f->checkpoints.size(); ++i) {
      const CheckpointInfo* info = nullptr;
      const std::string written = f->checkpoints[i];
      COMMITLAB_RETURN_IF_ERROR(
          ResolveCheckpoint(ctx, written, tmpl.ref_pos[i], *line_checkpoints, &f->checkpoints[i], &info));
      if (prev != nullptr && info->identifier <= prev->identifier) {
        return ctx.Error(tmpl.ref_pos[i].col,
                         fmt::format("checkpoints must have strictly increasing identifiers: \"{}\" ({}) follows "
                                     "\"{}\" ({})",
                                     written, info->identifier, f->checkpoints[i - 1], prev->identifier));
      }
      prev = info;
    }
  }
  return Status::OK();
}

}  // namespace commitlab::scenarios::internal
