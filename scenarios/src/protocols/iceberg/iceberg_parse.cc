// Iceberg's words in a scenario file (scenarios/README.md, "Iceberg steps"): the table line's
// isolation and catalog, its steps, and the post-pass that gives each new data file its fresh keys
// and keeps the table within its row budget.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

#include "commitlab/core/retry_policy.h"
#include "commitlab/scenarios/parser.h"
#include "protocols/iceberg/iceberg_module.h"
#include "protocols/iceberg/iceberg_steps.h"

namespace commitlab::scenarios::internal {
namespace {

constexpr int64_t kMaxCounter = 1'000'000'000'000'000;

constexpr std::array<std::string_view, 2> kTableKeys = {"isolation", "catalog"};
constexpr std::array<std::string_view, 2> kIsolation = {"serializable", "snapshot"};
constexpr std::array<std::string_view, 4> kCatalogs = {"in-memory", "rest", "rest-server", "jdbc"};
constexpr std::array<std::string_view, 12> kSteps = {
    "read",   "scan",   "append",  "overwrite", "replace-partitions", "row-delta", "delete", "rewrite",
    "schema", "expire", "orphans", "counter"};
// A snapshot's `operation=`: Iceberg's DataOperations.
constexpr std::array<std::string_view, 4> kOperations = {"append", "overwrite", "replace", "delete"};

constexpr std::array<std::string_view, 3> kDataKeys = {"rows", "keys", "partition"};
constexpr std::array<std::string_view, 6> kOverwriteKeys = {"filter",    "rows",      "keys",
                                                            "partition", "isolation", "validate"};
constexpr std::array<std::string_view, 3> kOverwriteChecks = {"data", "deletes", "none"};
constexpr std::array<std::string_view, 5> kReplaceKeys = {"rows", "keys", "partition", "validate", "validate-from"};
constexpr std::array<std::string_view, 3> kReplaceChecks = {"data", "deletes", "append-only"};
constexpr std::array<std::string_view, 2> kValidateFrom = {"read", "start"};
constexpr std::array<std::string_view, 8> kRowDeltaKeys = {"delete",    "delete-keys",     "rows",     "keys",
                                                           "partition", "conflict-filter", "validate", "validate-from"};
constexpr std::array<std::string_view, 4> kRowDeltaChecks = {"data-files-exist", "deleted-files", "data", "deletes"};
constexpr std::array<std::string_view, 2> kDeleteKeys = {"filter", "isolation"};
constexpr std::array<std::string_view, 1> kPartitionKey = {"partition"};
constexpr std::array<std::string_view, 1> kSchemaKeys = {"id"};
constexpr std::array<std::string_view, 1> kExpireKeys = {"retain-last"};
constexpr std::array<std::string_view, 2> kOrphanActions = {"count", "clean"};
constexpr std::array<std::string_view, 1> kOrphansKeys = {"older-than"};
constexpr std::array<std::string_view, 4> kCounterActions = {"init", "read", "add", "commit"};
constexpr std::array<std::string_view, 2> kCounterInitKeys = {"key", "value"};
constexpr std::array<std::string_view, 1> kCounterReadKeys = {"key"};
constexpr std::array<std::string_view, 1> kCounterCommitKeys = {"on-validation"};
constexpr std::array<std::string_view, 3> kOnValidation = {"give-up", "recommit-stale", "reread"};

// The rows a table's steps write, counted as each step is instantiated: Iceberg data files keep
// their rows in memory (kMaxIcebergTableRows).
class RowBudget final : public TableParseState {
 public:
  int64_t written = 0;   // by appends, overwrites, replace-partitions, row deltas, counter inits
  int64_t rewrites = 0;  // rewrite steps, each of which may copy them all again
};

// One step line's step: its key=value arguments, and the words after its name (`orphans count`).
struct StepArgs {
  const StepLine& line;
  Tokens toks;
  Tokens rest;       // after the name, and after an action word once `Action` has read it
  std::string what;  // "step append"
  Args args;

  StepArgs(const StepLine& l, Tokens t)
      : line(l), toks(t), rest(t.subspan(1)), what(fmt::format("step {}", t[0].text)) {}
  const LineContext& ctx() const { return line.ctx; }
  const Table& table() const { return line.table; }
  int col() const { return toks[0].col; }

  Status Collect(std::span<const std::string_view> keys) {
    return Args::Collect(ctx(), col(), rest, what, keys, &args);
  }
  // `orphans count`, `counter add 5`: the word after the step name says what it does.
  Status Action(std::span<const std::string_view> actions, size_t* out) {
    const Token& name = toks[0];
    if (rest.empty() || rest[0].kind != Token::Kind::kWord || rest[0].is_pair) {
      const int at = rest.empty() ? name.end_col : rest[0].col;
      return ctx().Error(at, fmt::format("expected what {} does after it (one of {})", name.text, JoinNames(actions)));
    }
    COMMITLAB_RETURN_IF_ERROR(
        ParseChoice(ctx(), rest[0].text, rest[0].col, fmt::format("{} action", name.text), actions, out));
    rest = rest.subspan(1);
    return Status::OK();
  }
  Status Isolation(std::string* level) const {
    if (args.Find("isolation") == nullptr) return Status::OK();
    size_t i = 0;
    COMMITLAB_RETURN_IF_ERROR(args.Choice("isolation", kIsolation, &i));
    *level = std::string(kIsolation[i]);
    return Status::OK();
  }
  Status Filter(FilterSpec* out) const {
    const Token* t = nullptr;
    COMMITLAB_RETURN_IF_ERROR(args.Require("filter", &t));
    return ParseFilterValue(ctx(), t, table(), out);
  }
  // rows=, keys= (and, with `partition`, partition=) of one new data file.
  Status Data(OpTemplate* tmpl, DataSpec* out, bool partition = true) const {
    if (const Token* keys = args.Find("keys")) {
      COMMITLAB_RETURN_IF_ERROR(ParseRange(ctx(), keys->value, keys->value_col, "key \"keys\"", -kMaxKey, kMaxKey,
                                           &out->min_key, &out->max_key));
      tmpl->keys_given = true;
      out->rows = std::min(out->max_key - out->min_key + 1, kMaxIcebergFileRows);
    }
    COMMITLAB_RETURN_IF_ERROR(args.Int("rows", 1, kMaxIcebergFileRows, &out->rows));
    if (const Token* rows = args.Find("rows");
        rows != nullptr && tmpl->keys_given && out->rows - 1 > out->max_key - out->min_key) {
      // Each row is {id: k} for its own k of the range: more rows than keys would repeat ids.
      return ctx().Error(rows->value_col,
                         fmt::format("rows={} is more than the {} key(s) of keys={}..{} (each row "
                                     "has its own id)",
                                     out->rows, out->max_key - out->min_key + 1, out->min_key, out->max_key));
    }
    if (!partition) return Status::OK();
    return ParsePartition(ctx(), col(), args.Find("partition"), table(), what, &out->partition);
  }
  // `validate=A,B` sets flags[i] for each choices[i] listed; `validate-from=start` sets *from_start.
  Status Validations(std::span<const std::string_view> choices, std::span<bool* const> flags, bool* from_start) const {
    if (const Token* v = args.Find("validate")) {
      auto check = [&](std::string_view item, int at) -> Status {
        size_t i = 0;
        Status st = ParseChoice(ctx(), item, at, "check of key \"validate\"", choices, &i);
        if (st.ok()) *flags[i] = true;
        return st;
      };
      COMMITLAB_RETURN_IF_ERROR(ForEachListItem(ctx(), *v, check));
    }
    if (args.Find("validate-from") != nullptr) {
      size_t i = 0;
      COMMITLAB_RETURN_IF_ERROR(args.Choice("validate-from", kValidateFrom, &i));
      *from_start = i == 1;
    }
    return Status::OK();
  }
};

// row-delta: position deletes (delete=FILTER), an equality delete (delete-keys=LO..HI) and/or a
// new data file (rows=, keys=); what it validates is `validate=data-files-exist,deleted-files,data,deletes`.
Status ParseRowDelta(StepArgs& s, OpTemplate* out) {
  COMMITLAB_RETURN_IF_ERROR(s.Collect(kRowDeltaKeys));
  const LineContext& ctx = s.ctx();
  RowDeltaOp op;
  auto filter = [&](std::string_view key, std::optional<FilterSpec>* dst) -> Status {
    const Token* t = s.args.Find(key);
    return t == nullptr ? Status::OK() : ParseFilterValue(ctx, t, s.table(), &dst->emplace());
  };
  COMMITLAB_RETURN_IF_ERROR(filter("delete", &op.delete_filter));
  COMMITLAB_RETURN_IF_ERROR(filter("conflict-filter", &op.conflict_filter));
  if (const Token* k = s.args.Find("delete-keys")) {
    auto& range = op.delete_keys.emplace();
    COMMITLAB_RETURN_IF_ERROR(
        ParseRange(ctx, k->value, k->value_col, "key \"delete-keys\"", -kMaxKey, kMaxKey, &range.first, &range.second));
    if (range.second - range.first >= kMaxIcebergFileRows)
      return ctx.Error(k->value_col, fmt::format("delete-keys names more than {} ids", kMaxIcebergFileRows));
  }
  const bool adds_rows = s.args.Find("rows") != nullptr || s.args.Find("keys") != nullptr;
  if (adds_rows) {
    COMMITLAB_RETURN_IF_ERROR(s.Data(out, &op.data.emplace()));
    op.partition = op.data->partition;
  } else if (op.delete_keys) {
    COMMITLAB_RETURN_IF_ERROR(ParsePartition(ctx, s.col(), s.args.Find("partition"), s.table(), s.what, &op.partition));
  } else if (const Token* p = s.args.Find("partition")) {
    return ctx.Error(p->col, "partition= places delete-keys or new rows: give one of them, or drop it");
  }
  if (!op.delete_filter && !op.delete_keys && !adds_rows)
    return ctx.Error(s.col(), "row-delta needs delete=FILTER, delete-keys=LO..HI or rows=/keys= (what it changes)");
  iceberg::RowDeltaValidation& rv = op.validation;
  bool* const flags[] = {&rv.data_files_exist, &rv.deleted_files, &rv.no_conflicting_data, &rv.no_conflicting_deletes};
  COMMITLAB_RETURN_IF_ERROR(s.Validations(kRowDeltaChecks, flags, &op.validate_from_start));
  out->op = std::move(op);
  return Status::OK();
}

// overwrite validate=data,deletes turns on validateNoConflictingData and
// validateNoConflictingDeletes; validate=none is a bare newOverwrite() that validates nothing.
Status ParseOverwriteValidation(StepArgs& s, OverwriteOp* op) {
  const Token* v = s.args.Find("validate");
  if (v == nullptr) return Status::OK();
  bool none = false;
  iceberg::OverwriteValidation& checks = op->validation.emplace();
  bool* const flags[] = {&checks.no_conflicting_data, &checks.no_conflicting_deletes, &none};
  bool unused_from_start = false;
  COMMITLAB_RETURN_IF_ERROR(s.Validations(kOverwriteChecks, flags, &unused_from_start));
  if (none && (checks.no_conflicting_data || checks.no_conflicting_deletes))
    return s.ctx().Error(v->value_col, "validate=none cannot be listed with data or deletes");
  return Status::OK();
}

// replace-partitions: `partition=P1,P2` writes one file into each; `validate=data,deletes,append-only`
// turns on validateNoConflictingData, validateNoConflictingDeletes and validateAppendOnly.
Status ParseReplacePartitions(StepArgs& s, OpTemplate* out) {
  COMMITLAB_RETURN_IF_ERROR(s.Collect(kReplaceKeys));
  const LineContext& ctx = s.ctx();
  ReplacePartitionsOp op;
  DataSpec spec;
  COMMITLAB_RETURN_IF_ERROR(s.Data(out, &spec, /*partition=*/false));
  const Token* list = s.args.Find("partition");
  if (list == nullptr) {
    COMMITLAB_RETURN_IF_ERROR(ParsePartition(ctx, s.col(), nullptr, s.table(), s.what, &spec.partition));
    op.files.push_back(spec);
  }
  std::set<std::string> listed;
  auto add_partition = [&](std::string_view item, int col) -> Status {
    Token one = *list;
    one.value = std::string(item);
    one.value_col = col;
    Status st = ParsePartition(ctx, s.col(), &one, s.table(), s.what, &spec.partition);
    if (!st.ok()) return st;
    if (!listed.insert(spec.partition).second)
      return ctx.Error(col, fmt::format("partition {} is listed twice", spec.partition));
    op.files.push_back(spec);
    return Status::OK();
  };
  if (list != nullptr) COMMITLAB_RETURN_IF_ERROR(ForEachListItem(ctx, *list, add_partition));
  if (op.files.size() > 1 && out->keys_given) {
    return ctx.Error(s.args.Find("keys")->col,
                     "keys= with several partitions would repeat ids (give rows= and let each file take fresh keys)");
  }
  bool* const flags[] = {&op.validation.no_conflicting_data, &op.validation.no_conflicting_deletes,
                         &op.validation.append_only};
  COMMITLAB_RETURN_IF_ERROR(s.Validations(kReplaceChecks, flags, &op.validate_from_start));
  out->op = std::move(op);
  return Status::OK();
}

Status ParseOrphans(StepArgs& s, OpTemplate* out) {
  size_t a = 0;
  COMMITLAB_RETURN_IF_ERROR(s.Action(kOrphanActions, &a));
  OrphansOp op;
  op.clean = a == 1;
  COMMITLAB_RETURN_IF_ERROR(
      Args::Collect(s.ctx(), s.col(), s.rest, fmt::format("orphans {}", kOrphanActions[a]), kOrphansKeys, &s.args));
  if (const Token* t = s.args.Find("older-than")) {
    const Result<int64_t> d = ParseDurationMicros(t->value);
    if (!d.ok()) return s.ctx().Error(t->value_col, fmt::format("{} for key \"older-than\"", d.status().message()));
    op.older_than_micros = *d;
  }
  out->op = op;
  return Status::OK();
}

// counter init key=K value=N | read key=K | add N | commit [on-validation=...]
Status ParseCounter(StepArgs& s, OpTemplate* out) {
  const LineContext& ctx = s.ctx();
  size_t a = 0;
  COMMITLAB_RETURN_IF_ERROR(s.Action(kCounterActions, &a));
  CounterOp op;
  op.action = static_cast<CounterOp::Action>(a);
  const std::string sub = fmt::format("step counter {}", kCounterActions[a]);
  auto collect = [&](std::span<const std::string_view> keys) {
    return Args::Collect(ctx, s.col(), s.rest, sub, keys, &s.args);
  };
  const Token* t = nullptr;
  switch (op.action) {
    case CounterOp::Action::kInit:
      COMMITLAB_RETURN_IF_ERROR(collect(kCounterInitKeys));
      COMMITLAB_RETURN_IF_ERROR(s.args.Require("key", &t));
      COMMITLAB_RETURN_IF_ERROR(s.args.Require("value", &t));
      COMMITLAB_RETURN_IF_ERROR(s.args.Name("key", "counter key", &op.key));
      COMMITLAB_RETURN_IF_ERROR(s.args.Int("value", -kMaxCounter, kMaxCounter, &op.value));
      break;
    case CounterOp::Action::kRead:
      COMMITLAB_RETURN_IF_ERROR(collect(kCounterReadKeys));
      COMMITLAB_RETURN_IF_ERROR(s.args.Require("key", &t));
      COMMITLAB_RETURN_IF_ERROR(s.args.Name("key", "counter key", &op.key));
      break;
    case CounterOp::Action::kAdd: {
      const Tokens rest = s.rest;
      if (rest.empty() || rest[0].kind != Token::Kind::kWord || rest[0].is_pair) {
        const int col = rest.empty() ? s.toks[1].end_col : rest[0].col;
        return ctx.Error(col, "expected the increment after counter add, e.g. counter add 5");
      }
      COMMITLAB_RETURN_IF_ERROR(
          ParseInt(ctx, rest[0].text, rest[0].col, "the increment", -kMaxCounter, kMaxCounter, &op.value));
      COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx, s.toks, s.toks.size() - rest.size() + 1, "counter add N"));
      break;
    }
    case CounterOp::Action::kCommit:
      COMMITLAB_RETURN_IF_ERROR(collect(kCounterCommitKeys));
      if (s.args.Find("on-validation") != nullptr) {
        size_t v = 0;
        COMMITLAB_RETURN_IF_ERROR(s.args.Choice("on-validation", kOnValidation, &v));
        op.on_validation = *ParseOnValidationFailure(kOnValidation[v]);
      }
      break;
  }
  out->op = std::move(op);
  return Status::OK();
}

// The steps that take key=value arguments only (no action word), but the few with more to say.
Status ParseTableOperation(StepArgs& s, OpTemplate* out) {
  const std::string_view n = s.toks[0].text;
  if (n == "append") {
    COMMITLAB_RETURN_IF_ERROR(s.Collect(kDataKeys));
    AppendOp op;
    COMMITLAB_RETURN_IF_ERROR(s.Data(out, &op.data));
    out->op = std::move(op);
  } else if (n == "overwrite") {
    COMMITLAB_RETURN_IF_ERROR(s.Collect(kOverwriteKeys));
    OverwriteOp op;
    COMMITLAB_RETURN_IF_ERROR(s.Filter(&op.filter));
    COMMITLAB_RETURN_IF_ERROR(s.Data(out, &op.data));
    COMMITLAB_RETURN_IF_ERROR(s.Isolation(&op.isolation));
    COMMITLAB_RETURN_IF_ERROR(ParseOverwriteValidation(s, &op));
    out->op = std::move(op);
  } else if (n == "delete") {
    COMMITLAB_RETURN_IF_ERROR(s.Collect(kDeleteKeys));
    DeleteOp op;
    COMMITLAB_RETURN_IF_ERROR(s.Filter(&op.filter));
    COMMITLAB_RETURN_IF_ERROR(s.Isolation(&op.isolation));
    out->op = std::move(op);
  } else if (n == "rewrite") {
    COMMITLAB_RETURN_IF_ERROR(s.Collect(kPartitionKey));
    RewriteOp op;
    COMMITLAB_RETURN_IF_ERROR(
        ParsePartition(s.ctx(), s.col(), s.args.Find("partition"), s.table(), s.what, &op.partition));
    out->op = std::move(op);
  } else if (n == "schema") {
    COMMITLAB_RETURN_IF_ERROR(s.Collect(kSchemaKeys));
    SchemaOp op;
    const Token* id = nullptr;
    COMMITLAB_RETURN_IF_ERROR(s.args.Require("id", &id));
    COMMITLAB_RETURN_IF_ERROR(s.args.Int32("id", 0, 1'000'000, &op.schema_id));
    out->op = op;
  } else {  // expire
    COMMITLAB_RETURN_IF_ERROR(s.Collect(kExpireKeys));
    ExpireOp op;
    COMMITLAB_RETURN_IF_ERROR(s.args.Int32("retain-last", 1, 1'000'000, &op.retain_last));
    out->op = op;
  }
  return Status::OK();
}

// Counts the rows `op` writes against the table's budget.
Status CountRows(StepPostPass& pass, const StepOp& op) {
  int64_t rows = 0;
  if (const auto* a = dynamic_cast<const AppendOp*>(&op)) rows = a->data.rows;
  if (const auto* o = dynamic_cast<const OverwriteOp*>(&op)) rows = o->data.rows;
  if (const auto* rp = dynamic_cast<const ReplacePartitionsOp*>(&op))
    for (const DataSpec& f : rp->files) rows += f.rows;
  if (const auto* rd = dynamic_cast<const RowDeltaOp*>(&op)) {
    // An equality delete keeps its keys in memory as rows do.
    if (rd->data) rows += rd->data->rows;
    if (rd->delete_keys) rows += rd->delete_keys->second - rd->delete_keys->first + 1;
  }
  if (const auto* c = dynamic_cast<const CounterOp*>(&op); c != nullptr && c->action == CounterOp::Action::kInit)
    rows = 1;
  const bool rewrite = dynamic_cast<const RewriteOp*>(&op) != nullptr;
  if (rows == 0 && !rewrite) return Status::OK();
  auto& budget = static_cast<RowBudget&>(*pass.table_state());
  budget.written += rows;  // <= 100 000 steps of <= 100 000 rows: no overflow
  budget.rewrites += rewrite ? 1 : 0;
  int64_t copies = 0;
  if (!__builtin_mul_overflow(budget.written, budget.rewrites + 1, &copies) && copies <= kMaxIcebergTableRows)
    return Status::OK();
  return pass.ctx().Error(
      pass.tmpl().pos.col,
      fmt::format("too many rows for iceberg table {}: its steps up to here write {} row(s){} (at most {} a table: "
                  "Iceberg data files keep their rows in memory)",
                  pass.table().name, budget.written,
                  budget.rewrites == 0 ? ""
                                       : fmt::format(" and its {} rewrite(s) may copy them all again, {} in all",
                                                     budget.rewrites, copies),
                  kMaxIcebergTableRows));
}

}  // namespace

std::span<const std::string_view> IcebergModule::table_keys() const { return kTableKeys; }

Status IcebergModule::ParseTableKeys(const LineContext& ctx, const Args& args, Table* table) const {
  (void)ctx;
  size_t i = 0;
  table->isolation = "serializable";
  if (args.Find("isolation") != nullptr) {
    COMMITLAB_RETURN_IF_ERROR(args.Choice("isolation", kIsolation, &i));
    table->isolation = std::string(kIsolation[i]);
  }
  if (args.Find("catalog") != nullptr) {
    COMMITLAB_RETURN_IF_ERROR(args.Choice("catalog", kCatalogs, &i));
    table->catalog = std::string(kCatalogs[i]);
  }
  return Status::OK();
}

std::span<const std::string_view> IcebergModule::step_names() const { return kSteps; }

std::span<const std::string_view> IcebergModule::operation_names() const { return kOperations; }

std::unique_ptr<TableParseState> IcebergModule::NewParseState() const { return std::make_unique<RowBudget>(); }

Status IcebergModule::ParseStep(const StepLine& line, Tokens toks, OpTemplate* out) const {
  StepArgs s(line, toks);
  const std::string_view n = toks[0].text;
  if (n == "read" || n == "scan") {
    COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(line.ctx, toks, 1, n));
    out->op = n == "read" ? Op(ReadOp{}) : Op(ScanOp{});
    return Status::OK();
  }
  if (n == "row-delta") return ParseRowDelta(s, out);
  if (n == "replace-partitions") return ParseReplacePartitions(s, out);
  if (n == "orphans") return ParseOrphans(s, out);
  if (n == "counter") return ParseCounter(s, out);
  return ParseTableOperation(s, out);
}

Status IcebergModule::Instantiate(StepPostPass& pass, StepOp* op) const {
  COMMITLAB_RETURN_IF_ERROR(CountRows(pass, *op));
  // Fresh keys in file order, as Paimon's write takes them.
  if (auto* a = dynamic_cast<AppendOp*>(op)) {
    pass.FreshKeys(a->data.rows, &a->data.min_key, &a->data.max_key);
  } else if (auto* o = dynamic_cast<OverwriteOp*>(op)) {
    pass.FreshKeys(o->data.rows, &o->data.min_key, &o->data.max_key);
  } else if (auto* rp = dynamic_cast<ReplacePartitionsOp*>(op)) {
    for (DataSpec& f : rp->files) pass.FreshKeys(f.rows, &f.min_key, &f.max_key);
  } else if (auto* rd = dynamic_cast<RowDeltaOp*>(op); rd != nullptr && rd->data) {
    pass.FreshKeys(rd->data->rows, &rd->data->min_key, &rd->data->max_key);
  }
  return Status::OK();
}

}  // namespace commitlab::scenarios::internal
