// The steps of Iceberg and Delta tables (scenarios/README.md, "Iceberg steps" and "Delta steps").
// ParseOp (steps.cc) sends a step here when the writer's table is not a Paimon table; a step of
// another protocol is refused with the list of the ones this table takes.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>
#include <tuple>

#include "commitlab/core/retry_policy.h"
#include "commitlab/scenarios/parser.h"
#include "lang/filter_expr.h"
#include "lang/parser_impl.h"
#include "protocols/delta/delta_steps.h"
#include "protocols/iceberg/iceberg_steps.h"

namespace commitlab::scenarios::internal {
namespace {

constexpr int64_t kMaxCounter = 1'000'000'000'000'000;

constexpr std::array<std::string_view, 3> kDataKeys = {"rows", "keys", "partition"};
constexpr std::array<std::string_view, 5> kOverwriteKeys = {"filter", "rows", "keys", "partition", "isolation"};
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
constexpr std::array<std::string_view, 2> kDeltaReadKeys = {"partition", "filter"};
constexpr std::array<std::string_view, 4> kAddKeys = {"file", "partition", "rows", "data-change"};
constexpr std::array<std::string_view, 2> kRemoveKeys = {"files", "data-change"};
constexpr std::array<std::string_view, 2> kTxnKeys = {"app", "version"};
constexpr std::array<std::string_view, 1> kReadTxnKeys = {"app"};
constexpr std::array<std::string_view, 1> kMetadataKeys = {"schema"};
constexpr std::array<std::string_view, 2> kProtocolKeys = {"reader-version", "writer-version"};
constexpr std::array<std::string_view, 1> kDeltaCommitKeys = {"op"};

bool Contains(std::span<const std::string_view> names, std::string_view s) {
  for (std::string_view n : names)
    if (n == s) return true;
  return false;
}

// filter=EXPR over the columns the table's rows have: id and value hold integers, name strings
// (the counter's rows), and each partition column its partition's text.
Status ParseFilterValue(const LineContext& ctx, const Token* t, const Table& table, FilterSpec* out) {
  std::vector<FilterColumn> columns = {{"id", true, false}, {"name", false, false}, {"value", true, false}};
  for (const std::string& k : table.partition_keys) columns.push_back({k, false, true});
  out->text = t->value;
  return ParseFilterExpression(ctx, t->value, t->value_col, columns,
                               fmt::format("the filter column of table {}", table.name), &out->expr);
}

Status ParseFilter(const LineContext& ctx, const Args& args, const Table& table, FilterSpec* out) {
  const Token* t = nullptr;
  COMMITLAB_RETURN_IF_ERROR(args.Require("filter", &t));
  return ParseFilterValue(ctx, t, table, out);
}

}  // namespace

Status Parser::ParseDataSpec(const LineContext& ctx, int owner_col, const Args& args, const Table& table,
                             std::string_view what, OpTemplate* tmpl, DataSpec* out, bool partition) {
  if (const Token* keys = args.Find("keys")) {
    COMMITLAB_RETURN_IF_ERROR(
        ParseRange(ctx, keys->value, keys->value_col, "key \"keys\"", -kMaxKey, kMaxKey, &out->min_key, &out->max_key));
    tmpl->keys_given = true;
    out->rows = std::min(out->max_key - out->min_key + 1, kMaxIcebergFileRows);
  }
  COMMITLAB_RETURN_IF_ERROR(args.Int("rows", 1, kMaxIcebergFileRows, &out->rows));
  if (const Token* rows = args.Find("rows");
      rows != nullptr && tmpl->keys_given && out->rows - 1 > out->max_key - out->min_key) {
    // Each row is {id: k} for its own k of the range: more rows than keys would repeat ids.
    return ctx.Error(rows->value_col,
                     fmt::format("rows={} is more than the {} key(s) of keys={}..{} (each row has its "
                                 "own id)",
                                 out->rows, out->max_key - out->min_key + 1, out->min_key, out->max_key));
  }
  if (!partition) return Status::OK();
  return ParsePartition(ctx, owner_col, args.Find("partition"), table, what, &out->partition);
}

namespace {

// `validate=A,B` sets flags[i] for each choices[i] listed; `validate-from=start` sets *from_start.
Status ParseValidations(const LineContext& ctx, const Args& args, std::span<const std::string_view> choices,
                        std::span<bool* const> flags, bool* from_start) {
  if (const Token* v = args.Find("validate")) {
    auto check = [&](std::string_view item, int col) -> Status {
      size_t i = 0;
      Status st = ParseChoice(ctx, item, col, "check of key \"validate\"", choices, &i);
      if (st.ok()) *flags[i] = true;
      return st;
    };
    COMMITLAB_RETURN_IF_ERROR(ForEachListItem(ctx, *v, check));
  }
  if (args.Find("validate-from") != nullptr) {
    size_t i = 0;
    COMMITLAB_RETURN_IF_ERROR(args.Choice("validate-from", kValidateFrom, &i));
    *from_start = i == 1;
  }
  return Status::OK();
}

}  // namespace

// row-delta: position deletes (delete=FILTER), an equality delete (delete-keys=LO..HI) and/or a
// new data file (rows=, keys=); what it validates is `validate=data-files-exist,deleted-files,data,deletes`.
Status Parser::ParseRowDelta(const LineContext& ctx, int owner_col, const Args& args, const Table& table,
                             std::string_view what, OpTemplate* out) {
  RowDeltaOp op;
  auto filter = [&](std::string_view key, std::optional<FilterSpec>* dst) -> Status {
    const Token* t = args.Find(key);
    return t == nullptr ? Status::OK() : ParseFilterValue(ctx, t, table, &dst->emplace());
  };
  COMMITLAB_RETURN_IF_ERROR(filter("delete", &op.delete_filter));
  COMMITLAB_RETURN_IF_ERROR(filter("conflict-filter", &op.conflict_filter));
  if (const Token* k = args.Find("delete-keys")) {
    auto& range = op.delete_keys.emplace();
    COMMITLAB_RETURN_IF_ERROR(
        ParseRange(ctx, k->value, k->value_col, "key \"delete-keys\"", -kMaxKey, kMaxKey, &range.first, &range.second));
    if (range.second - range.first >= kMaxIcebergFileRows)
      return ctx.Error(k->value_col, fmt::format("delete-keys names more than {} ids", kMaxIcebergFileRows));
  }
  const bool adds_rows = args.Find("rows") != nullptr || args.Find("keys") != nullptr;
  if (adds_rows) {
    COMMITLAB_RETURN_IF_ERROR(ParseDataSpec(ctx, owner_col, args, table, what, out, &op.data.emplace()));
    op.partition = op.data->partition;
  } else if (op.delete_keys) {
    COMMITLAB_RETURN_IF_ERROR(ParsePartition(ctx, owner_col, args.Find("partition"), table, what, &op.partition));
  } else if (const Token* p = args.Find("partition")) {
    return ctx.Error(p->col, "partition= places delete-keys or new rows: give one of them, or drop it");
  }
  if (!op.delete_filter && !op.delete_keys && !adds_rows)
    return ctx.Error(owner_col, "row-delta needs delete=FILTER, delete-keys=LO..HI or rows=/keys= (what it changes)");
  iceberg::RowDeltaValidation& rv = op.validation;
  bool* const flags[] = {&rv.data_files_exist, &rv.deleted_files, &rv.no_conflicting_data, &rv.no_conflicting_deletes};
  COMMITLAB_RETURN_IF_ERROR(ParseValidations(ctx, args, kRowDeltaChecks, flags, &op.validate_from_start));
  out->op = std::move(op);
  return Status::OK();
}

// replace-partitions: `partition=P1,P2` writes one file into each; `validate=data,deletes,append-only`
// turns on validateNoConflictingData, validateNoConflictingDeletes and validateAppendOnly.
Status Parser::ParseReplacePartitions(const LineContext& ctx, int owner_col, const Args& args, const Table& table,
                                      std::string_view what, OpTemplate* out) {
  ReplacePartitionsOp op;
  DataSpec spec;
  COMMITLAB_RETURN_IF_ERROR(ParseDataSpec(ctx, owner_col, args, table, what, out, &spec, /*partition=*/false));
  const Token* list = args.Find("partition");
  if (list == nullptr) {
    COMMITLAB_RETURN_IF_ERROR(ParsePartition(ctx, owner_col, nullptr, table, what, &spec.partition));
    op.files.push_back(spec);
  }
  std::set<std::string> listed;
  auto add_partition = [&](std::string_view item, int col) -> Status {
    Token one = *list;
    one.value = std::string(item);
    one.value_col = col;
    Status st = ParsePartition(ctx, owner_col, &one, table, what, &spec.partition);
    if (!st.ok()) return st;
    if (!listed.insert(spec.partition).second)
      return ctx.Error(col, fmt::format("partition {} is listed twice", spec.partition));
    op.files.push_back(spec);
    return Status::OK();
  };
  if (list != nullptr) COMMITLAB_RETURN_IF_ERROR(ForEachListItem(ctx, *list, add_partition));
  if (op.files.size() > 1 && out->keys_given) {
    return ctx.Error(args.Find("keys")->col,
                     "keys= with several partitions would repeat ids (give rows= and let each file take fresh keys)");
  }
  bool* const flags[] = {&op.validation.no_conflicting_data, &op.validation.no_conflicting_deletes,
                         &op.validation.append_only};
  COMMITLAB_RETURN_IF_ERROR(ParseValidations(ctx, args, kReplaceChecks, flags, &op.validate_from_start));
  out->op = std::move(op);
  return Status::OK();
}

Status Parser::WrongProtocolStep(const LineContext& ctx, const Token& name, const Writer& w, const Table& table) {
  const std::span<const std::string_view> own = StepNames(table.protocol);
  // The protocols (other than the table's) that have a step of this name.
  std::string others;
  for (Protocol p : {Protocol::kPaimon, Protocol::kIceberg, Protocol::kDelta}) {
    if (p == table.protocol) continue;
    if (Contains(StepNames(p), name.text))
      others += fmt::format("{}{}", others.empty() ? "" : " and ", ProtocolName(p));
  }
  if (others.empty())
    return ctx.Error(name.col, fmt::format("unknown step \"{}\" (expected one of {})", name.text, JoinNames(own)));
  return ctx.Error(name.col,
                   fmt::format("step \"{}\" is for {} tables, but writer {} writes {} table {} (its steps: {})",
                               name.text, others, w.name, ProtocolName(table.protocol), table.name, JoinNames(own)));
}

Status Parser::ParseIcebergOp(const LineContext& ctx, const Table& table, Tokens toks, OpTemplate* out) {
  const Token& name = toks[0];
  const std::string what = fmt::format("step {}", name.text);
  Tokens rest = toks.subspan(1);
  Args args;
  auto collect = [&](std::span<const std::string_view> keys) {
    return Args::Collect(ctx, name.col, rest, what, keys, &args);
  };
  auto isolation = [&](std::string* level) {
    if (args.Find("isolation") == nullptr) return Status::OK();
    size_t i = 0;
    COMMITLAB_RETURN_IF_ERROR(args.Choice("isolation", kIcebergIsolation, &i));
    *level = std::string(kIcebergIsolation[i]);
    return Status::OK();
  };
  // `orphans count`, `counter add 5`: the word after the step name says what it does.
  auto action = [&](std::span<const std::string_view> actions, size_t* out_action) {
    if (rest.empty() || rest[0].kind != Token::Kind::kWord || rest[0].is_pair) {
      const int col = rest.empty() ? name.end_col : rest[0].col;
      return ctx.Error(col, fmt::format("expected what {} does after it (one of {})", name.text, JoinNames(actions)));
    }
    COMMITLAB_RETURN_IF_ERROR(
        ParseChoice(ctx, rest[0].text, rest[0].col, fmt::format("{} action", name.text), actions, out_action));
    rest = rest.subspan(1);
    return Status::OK();
  };

  const std::string_view n = name.text;
  if (n == "read" || n == "scan") {
    COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx, toks, 1, n));
    out->op = n == "read" ? Op(ReadOp{}) : Op(ScanOp{});
  } else if (n == "append") {
    COMMITLAB_RETURN_IF_ERROR(collect(kDataKeys));
    AppendOp op;
    COMMITLAB_RETURN_IF_ERROR(ParseDataSpec(ctx, name.col, args, table, what, out, &op.data));
    out->op = std::move(op);
  } else if (n == "overwrite") {
    COMMITLAB_RETURN_IF_ERROR(collect(kOverwriteKeys));
    OverwriteOp op;
    COMMITLAB_RETURN_IF_ERROR(ParseFilter(ctx, args, table, &op.filter));
    COMMITLAB_RETURN_IF_ERROR(ParseDataSpec(ctx, name.col, args, table, what, out, &op.data));
    COMMITLAB_RETURN_IF_ERROR(isolation(&op.isolation));
    out->op = std::move(op);
  } else if (n == "row-delta") {
    COMMITLAB_RETURN_IF_ERROR(collect(kRowDeltaKeys));
    COMMITLAB_RETURN_IF_ERROR(ParseRowDelta(ctx, name.col, args, table, what, out));
  } else if (n == "replace-partitions") {
    COMMITLAB_RETURN_IF_ERROR(collect(kReplaceKeys));
    COMMITLAB_RETURN_IF_ERROR(ParseReplacePartitions(ctx, name.col, args, table, what, out));
  } else if (n == "delete") {
    COMMITLAB_RETURN_IF_ERROR(collect(kDeleteKeys));
    DeleteOp op;
    COMMITLAB_RETURN_IF_ERROR(ParseFilter(ctx, args, table, &op.filter));
    COMMITLAB_RETURN_IF_ERROR(isolation(&op.isolation));
    out->op = std::move(op);
  } else if (n == "rewrite") {
    COMMITLAB_RETURN_IF_ERROR(collect(kPartitionKey));
    RewriteOp op;
    COMMITLAB_RETURN_IF_ERROR(ParsePartition(ctx, name.col, args.Find("partition"), table, what, &op.partition));
    out->op = std::move(op);
  } else if (n == "schema") {
    COMMITLAB_RETURN_IF_ERROR(collect(kSchemaKeys));
    SchemaOp op;
    const Token* id = nullptr;
    COMMITLAB_RETURN_IF_ERROR(args.Require("id", &id));
    COMMITLAB_RETURN_IF_ERROR(args.Int32("id", 0, 1'000'000, &op.schema_id));
    out->op = op;
  } else if (n == "expire") {
    COMMITLAB_RETURN_IF_ERROR(collect(kExpireKeys));
    ExpireOp op;
    COMMITLAB_RETURN_IF_ERROR(args.Int32("retain-last", 1, 1'000'000, &op.retain_last));
    out->op = op;
  } else if (n == "orphans") {
    size_t a = 0;
    COMMITLAB_RETURN_IF_ERROR(action(kOrphanActions, &a));
    OrphansOp op;
    op.clean = a == 1;
    COMMITLAB_RETURN_IF_ERROR(
        Args::Collect(ctx, name.col, rest, fmt::format("orphans {}", kOrphanActions[a]), kOrphansKeys, &args));
    if (const Token* t = args.Find("older-than")) {
      const Result<int64_t> d = ParseDurationMicros(t->value);
      if (!d.ok()) return ctx.Error(t->value_col, fmt::format("{} for key \"older-than\"", d.status().message()));
      op.older_than_micros = *d;
    }
    out->op = op;
  } else {  // counter
    size_t a = 0;
    COMMITLAB_RETURN_IF_ERROR(action(kCounterActions, &a));
    CounterOp op;
    op.action = static_cast<CounterOp::Action>(a);
    const std::string sub = fmt::format("step counter {}", kCounterActions[a]);
    auto collect_sub = [&](std::span<const std::string_view> keys) {
      return Args::Collect(ctx, name.col, rest, sub, keys, &args);
    };
    switch (op.action) {
      case CounterOp::Action::kInit: {
        COMMITLAB_RETURN_IF_ERROR(collect_sub(kCounterInitKeys));
        const Token* t = nullptr;
        COMMITLAB_RETURN_IF_ERROR(args.Require("key", &t));
        COMMITLAB_RETURN_IF_ERROR(args.Require("value", &t));
        COMMITLAB_RETURN_IF_ERROR(args.Name("key", "counter key", &op.key));
        COMMITLAB_RETURN_IF_ERROR(args.Int("value", -kMaxCounter, kMaxCounter, &op.value));
        break;
      }
      case CounterOp::Action::kRead: {
        COMMITLAB_RETURN_IF_ERROR(collect_sub(kCounterReadKeys));
        const Token* t = nullptr;
        COMMITLAB_RETURN_IF_ERROR(args.Require("key", &t));
        COMMITLAB_RETURN_IF_ERROR(args.Name("key", "counter key", &op.key));
        break;
      }
      case CounterOp::Action::kAdd: {
        if (rest.empty() || rest[0].kind != Token::Kind::kWord || rest[0].is_pair) {
          const int col = rest.empty() ? toks[1].end_col : rest[0].col;
          return ctx.Error(col, "expected the increment after counter add, e.g. counter add 5");
        }
        COMMITLAB_RETURN_IF_ERROR(
            ParseInt(ctx, rest[0].text, rest[0].col, "the increment", -kMaxCounter, kMaxCounter, &op.value));
        COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx, toks, toks.size() - rest.size() + 1, "counter add N"));
        break;
      }
      case CounterOp::Action::kCommit: {
        COMMITLAB_RETURN_IF_ERROR(collect_sub(kCounterCommitKeys));
        size_t v = 0;
        if (args.Find("on-validation") != nullptr) {
          COMMITLAB_RETURN_IF_ERROR(args.Choice("on-validation", kOnValidation, &v));
          op.on_validation = *ParseOnValidationFailure(kOnValidation[v]);
        }
        break;
      }
    }
    out->op = std::move(op);
  }
  return Status::OK();
}

Status Parser::ParseDeltaOp(const LineContext& ctx, const Table& table, Tokens toks, OpTemplate* out) {
  const Token& name = toks[0];
  const std::string what = fmt::format("step {}", name.text);
  Args args;
  auto collect = [&](std::span<const std::string_view> keys) {
    return Args::Collect(ctx, name.col, toks.subspan(1), what, keys, &args);
  };
  const std::string_view n = name.text;
  if (n == "begin") {
    COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx, toks, 1, n));
    out->op = BeginOp{};
  } else if (n == "read") {
    DeltaReadOp op;
    // `read whole-table`: readWholeTable(), a word of its own.
    if (toks.size() > 1 && toks[1].kind == Token::Kind::kWord && !toks[1].is_pair && toks[1].text == "whole-table") {
      COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(ctx, toks, 2, "read whole-table"));
      op.whole_table = true;
      out->op = std::move(op);
      return Status::OK();
    }
    COMMITLAB_RETURN_IF_ERROR(collect(kDeltaReadKeys));
    const Token* p = args.Find("partition");
    if (p != nullptr) COMMITLAB_RETURN_IF_ERROR(ParsePartition(ctx, name.col, p, table, what, &op.partition));
    if (const Token* f = args.Find("filter")) {
      if (p != nullptr) return ctx.Error(f->col, "read takes partition= or filter=, not both");
      COMMITLAB_RETURN_IF_ERROR(ParseFilter(ctx, args, table, &op.filter.emplace()));
    }
    out->op = std::move(op);
  } else if (n == "add") {
    COMMITLAB_RETURN_IF_ERROR(collect(kAddKeys));
    AddOp op;
    COMMITLAB_RETURN_IF_ERROR(args.Name("file", "file name", &op.file));
    COMMITLAB_RETURN_IF_ERROR(ParsePartition(ctx, name.col, args.Find("partition"), table, what, &op.partition));
    COMMITLAB_RETURN_IF_ERROR(args.Int("rows", 0, kMaxRows, &op.rows));
    COMMITLAB_RETURN_IF_ERROR(args.Bool("data-change", &op.data_change));
    out->op = std::move(op);
  } else if (n == "remove") {
    COMMITLAB_RETURN_IF_ERROR(collect(kRemoveKeys));
    RemoveOp op;
    const Token* files = nullptr;
    COMMITLAB_RETURN_IF_ERROR(args.Require("files", &files));
    COMMITLAB_RETURN_IF_ERROR(ParseNameList(ctx, *files, "file", &op.files));
    COMMITLAB_RETURN_IF_ERROR(args.Bool("data-change", &op.data_change));
    out->op = std::move(op);
  } else if (n == "txn") {
    COMMITLAB_RETURN_IF_ERROR(collect(kTxnKeys));
    TxnOp op;
    const Token* app = nullptr;
    COMMITLAB_RETURN_IF_ERROR(args.Require("app", &app));
    COMMITLAB_RETURN_IF_ERROR(args.Name("app", "application id", &op.app));
    const Token* version = nullptr;
    COMMITLAB_RETURN_IF_ERROR(args.Require("version", &version));
    COMMITLAB_RETURN_IF_ERROR(args.Int("version", 0, kMaxKey, &op.version));
    out->op = std::move(op);
  } else if (n == "read-txn") {
    COMMITLAB_RETURN_IF_ERROR(collect(kReadTxnKeys));
    ReadTxnOp op;
    const Token* app = nullptr;
    COMMITLAB_RETURN_IF_ERROR(args.Require("app", &app));
    COMMITLAB_RETURN_IF_ERROR(args.Name("app", "application id", &op.app));
    out->op = std::move(op);
  } else if (n == "metadata") {
    COMMITLAB_RETURN_IF_ERROR(collect(kMetadataKeys));
    MetadataOp op;
    if (const Token* schema = args.Find("schema")) {
      if (schema->value.empty())
        return ctx.Error(schema->value_col, "key \"schema\" needs a schema, e.g. schema=\"id INT, x INT\"");
      op.schema = schema->value;
    }
    out->op = std::move(op);
  } else if (n == "protocol") {
    COMMITLAB_RETURN_IF_ERROR(collect(kProtocolKeys));
    ProtocolOp op;
    // Delta's reader versions go to 3 and writer versions to 7 (table features).
    for (const auto& [key, max, field] :
         {std::tuple{"reader-version", 3, &op.reader_version}, std::tuple{"writer-version", 7, &op.writer_version}}) {
      if (args.Find(key) == nullptr) continue;
      int32_t v = 0;
      COMMITLAB_RETURN_IF_ERROR(args.Int32(key, 1, max, &v));
      *field = v;
    }
    out->op = std::move(op);
  } else {  // commit
    COMMITLAB_RETURN_IF_ERROR(collect(kDeltaCommitKeys));
    DeltaCommitOp op;
    if (args.Find("op") != nullptr) {
      size_t i = 0;
      COMMITLAB_RETURN_IF_ERROR(args.Choice("op", kDeltaOperations, &i));
      op.operation = std::string(kDeltaOperations[i]);
      std::replace(op.operation.begin(), op.operation.end(), '-', ' ');  // Delta's own name
    }
    out->op = std::move(op);
  }
  return Status::OK();
}

}  // namespace commitlab::scenarios::internal
