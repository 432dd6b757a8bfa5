// Delta's words in a scenario file (scenarios/README.md, "Delta steps"): the table line's
// isolation and flavour, and the steps of a transaction.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <tuple>

#include "commitlab/scenarios/parser.h"
#include "protocols/delta/delta_module.h"
#include "protocols/delta/delta_steps.h"

namespace commitlab::scenarios::internal {
namespace {

constexpr std::array<std::string_view, 2> kTableKeys = {"isolation", "flavour"};
constexpr std::array<std::string_view, 2> kIsolation = {"Serializable", "WriteSerializable"};
constexpr std::array<std::string_view, 2> kFlavours = {"oss", "databricks"};
constexpr std::array<std::string_view, 9> kSteps = {"begin", "read",     "add",      "remove",  "commit",
                                                    "txn",   "read-txn", "metadata", "protocol"};
// Delta's operations, as `commit op=` and a snapshot's `operation=` name them; a space in Delta's
// name is a '-' here (STREAMING-UPDATE is Delta's "STREAMING UPDATE").
constexpr std::array<std::string_view, 6> kOperations = {"INSERT", "UPDATE",   "DELETE",
                                                         "MERGE",  "OPTIMIZE", "STREAMING-UPDATE"};

constexpr std::array<std::string_view, 2> kReadKeys = {"partition", "filter"};
constexpr std::array<std::string_view, 4> kAddKeys = {"file", "partition", "rows", "data-change"};
constexpr std::array<std::string_view, 3> kRemoveKeys = {"files", "partition", "data-change"};
constexpr std::array<std::string_view, 2> kTxnKeys = {"app", "version"};
constexpr std::array<std::string_view, 1> kReadTxnKeys = {"app"};
constexpr std::array<std::string_view, 1> kMetadataKeys = {"schema"};
constexpr std::array<std::string_view, 2> kProtocolKeys = {"reader-version", "writer-version"};
constexpr std::array<std::string_view, 1> kCommitKeys = {"op"};

// A step's key=value arguments, each step with its own keys (an unknown key lists them).
struct StepArgs {
  const StepLine& line;
  Tokens toks;
  std::string what;  // "step add"
  Args args;

  StepArgs(const StepLine& l, Tokens t) : line(l), toks(t), what(fmt::format("step {}", t[0].text)) {}
  const LineContext& ctx() const { return line.ctx; }
  int col() const { return toks[0].col; }
  Status Collect(std::span<const std::string_view> keys) {
    return Args::Collect(ctx(), col(), toks.subspan(1), what, keys, &args);
  }
};

// read [partition=P | filter=EXPR] | read whole-table
Status ParseRead(StepArgs& s, OpTemplate* out) {
  const Tokens toks = s.toks;
  DeltaReadOp op;
  // `read whole-table`: readWholeTable(), a word of its own.
  if (toks.size() > 1 && toks[1].kind == Token::Kind::kWord && !toks[1].is_pair && toks[1].text == "whole-table") {
    COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(s.ctx(), toks, 2, "read whole-table"));
    op.whole_table = true;
    out->op = std::move(op);
    return Status::OK();
  }
  COMMITLAB_RETURN_IF_ERROR(s.Collect(kReadKeys));
  const Token* p = s.args.Find("partition");
  if (p != nullptr) COMMITLAB_RETURN_IF_ERROR(ParsePartition(s.ctx(), s.col(), p, s.line.table, s.what, &op.partition));
  if (const Token* f = s.args.Find("filter")) {
    if (p != nullptr) return s.ctx().Error(f->col, "read takes partition= or filter=, not both");
    COMMITLAB_RETURN_IF_ERROR(ParseFilterValue(s.ctx(), f, s.line.table, &op.filter.emplace()));
  }
  out->op = std::move(op);
  return Status::OK();
}

Status ParseAdd(StepArgs& s, OpTemplate* out) {
  COMMITLAB_RETURN_IF_ERROR(s.Collect(kAddKeys));
  AddOp op;
  COMMITLAB_RETURN_IF_ERROR(s.args.Name("file", "file name", &op.file));
  COMMITLAB_RETURN_IF_ERROR(
      ParsePartition(s.ctx(), s.col(), s.args.Find("partition"), s.line.table, s.what, &op.partition));
  COMMITLAB_RETURN_IF_ERROR(s.args.Int("rows", 0, kMaxRows, &op.rows));
  COMMITLAB_RETURN_IF_ERROR(s.args.Bool("data-change", &op.data_change));
  out->op = std::move(op);
  return Status::OK();
}

Status ParseRemove(StepArgs& s, OpTemplate* out) {
  COMMITLAB_RETURN_IF_ERROR(s.Collect(kRemoveKeys));
  RemoveOp op;
  const Token* files = nullptr;
  COMMITLAB_RETURN_IF_ERROR(s.args.Require("files", &files));
  COMMITLAB_RETURN_IF_ERROR(ParseNameList(s.ctx(), *files, "file", &op.files));
  if (const Token* p = s.args.Find("partition")) {
    if (p->value == "{}") {
      op.partition.emplace();  // partitionValues = Map.empty
    } else {
      COMMITLAB_RETURN_IF_ERROR(ParsePartition(s.ctx(), s.col(), p, s.line.table, s.what, &op.partition.emplace()));
    }
  }
  COMMITLAB_RETURN_IF_ERROR(s.args.Bool("data-change", &op.data_change));
  out->op = std::move(op);
  return Status::OK();
}

// txn app=ID version=N, read-txn app=ID
Status ParseAppStep(StepArgs& s, OpTemplate* out) {
  const bool read = s.toks[0].text == "read-txn";
  COMMITLAB_RETURN_IF_ERROR(s.Collect(read ? std::span<const std::string_view>(kReadTxnKeys) : kTxnKeys));
  const Token* app = nullptr;
  COMMITLAB_RETURN_IF_ERROR(s.args.Require("app", &app));
  if (read) {
    ReadTxnOp op;
    COMMITLAB_RETURN_IF_ERROR(s.args.Name("app", "application id", &op.app));
    out->op = std::move(op);
    return Status::OK();
  }
  TxnOp op;
  COMMITLAB_RETURN_IF_ERROR(s.args.Name("app", "application id", &op.app));
  const Token* version = nullptr;
  COMMITLAB_RETURN_IF_ERROR(s.args.Require("version", &version));
  COMMITLAB_RETURN_IF_ERROR(s.args.Int("version", 0, kMaxKey, &op.version));
  out->op = std::move(op);
  return Status::OK();
}

Status ParseMetadata(StepArgs& s, OpTemplate* out) {
  COMMITLAB_RETURN_IF_ERROR(s.Collect(kMetadataKeys));
  MetadataOp op;
  if (const Token* schema = s.args.Find("schema")) {
    if (schema->value.empty())
      return s.ctx().Error(schema->value_col, "key \"schema\" needs a schema, e.g. schema=\"id INT, x INT\"");
    op.schema = schema->value;
  }
  out->op = std::move(op);
  return Status::OK();
}

Status ParseProtocol(StepArgs& s, OpTemplate* out) {
  COMMITLAB_RETURN_IF_ERROR(s.Collect(kProtocolKeys));
  ProtocolOp op;
  // Delta's reader versions go to 3 and writer versions to 7 (table features).
  for (const auto& [key, max, field] :
       {std::tuple{"reader-version", 3, &op.reader_version}, std::tuple{"writer-version", 7, &op.writer_version}}) {
    if (s.args.Find(key) == nullptr) continue;
    int32_t v = 0;
    COMMITLAB_RETURN_IF_ERROR(s.args.Int32(key, 1, max, &v));
    *field = v;
  }
  out->op = std::move(op);
  return Status::OK();
}

Status ParseCommit(StepArgs& s, OpTemplate* out) {
  COMMITLAB_RETURN_IF_ERROR(s.Collect(kCommitKeys));
  DeltaCommitOp op;
  if (s.args.Find("op") != nullptr) {
    size_t i = 0;
    COMMITLAB_RETURN_IF_ERROR(s.args.Choice("op", kOperations, &i));
    op.operation = std::string(kOperations[i]);
    std::replace(op.operation.begin(), op.operation.end(), '-', ' ');  // Delta's own name
  }
  out->op = std::move(op);
  return Status::OK();
}

}  // namespace

std::span<const std::string_view> DeltaModule::table_keys() const { return kTableKeys; }

Status DeltaModule::ParseTableKeys(const LineContext& ctx, const Args& args, Table* table) const {
  size_t i = 0;
  table->isolation = "Serializable";
  const Token* iso = args.Find("isolation");
  if (iso != nullptr) {
    COMMITLAB_RETURN_IF_ERROR(args.Choice("isolation", kIsolation, &i));
    table->isolation = std::string(kIsolation[i]);
  }
  if (args.Find("flavour") != nullptr) {
    COMMITLAB_RETURN_IF_ERROR(args.Choice("flavour", kFlavours, &i));
    table->flavour = std::string(kFlavours[i]);
  }
  // DeltaConfigs.ISOLATION_LEVEL accepts only Serializable in open-source Delta; WriteSerializable
  // (Databricks' default) must be asked for.
  if (iso != nullptr && table->isolation == "WriteSerializable" && table->flavour != "databricks") {
    return ctx.Error(iso->value_col,
                     "open-source Delta accepts only Serializable for delta.isolationLevel; "
                     "WriteSerializable is Databricks' (add flavour=databricks to model it)");
  }
  return Status::OK();
}

std::span<const std::string_view> DeltaModule::step_names() const { return kSteps; }

std::span<const std::string_view> DeltaModule::operation_names() const { return kOperations; }

Status DeltaModule::ParseStep(const StepLine& line, Tokens toks, OpTemplate* out) const {
  StepArgs s(line, toks);
  const std::string_view n = toks[0].text;
  if (n == "begin") {
    COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(line.ctx, toks, 1, n));
    out->op = BeginOp{};
    return Status::OK();
  }
  if (n == "read") return ParseRead(s, out);
  if (n == "add") return ParseAdd(s, out);
  if (n == "remove") return ParseRemove(s, out);
  if (n == "txn" || n == "read-txn") return ParseAppStep(s, out);
  if (n == "metadata") return ParseMetadata(s, out);
  if (n == "protocol") return ParseProtocol(s, out);
  return ParseCommit(s, out);
}

}  // namespace commitlab::scenarios::internal
