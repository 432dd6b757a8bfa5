// Paimon's words in a scenario file: the keys of its table and writer lines, its steps
// (scenarios/README.md, "Steps"), and the post-pass that gives each step its fresh keys, commit
// identifier and checkpoint names.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>

#include "commitlab/scenarios/parser.h"
#include "protocols/paimon/paimon_module.h"
#include "protocols/paimon/paimon_steps.h"

namespace commitlab::scenarios::internal {
namespace {

constexpr int64_t kMaxFileIndex = 9999;
constexpr int64_t kMaxIdentifier = std::numeric_limits<int64_t>::max();

constexpr std::array<std::string_view, 4> kTableKeys = {"primary-key", "buckets", "levels", "ignore-empty-commit"};
constexpr std::array<std::string_view, 2> kWriterKeys = {"buckets", "strict-mode-last-safe-snapshot"};
constexpr std::array<std::string_view, 7> kSteps = {
    "write", "commit", "compact", "checkpoint", "filter-and-commit", "delete-data-files", "restart"};
// A snapshot's `operation=`: Paimon's commit kinds.
constexpr std::array<std::string_view, 3> kOperations = {"APPEND", "COMPACT", "OVERWRITE"};

constexpr std::array<std::string_view, 4> kWriteKeys = {"rows", "keys", "partition", "bucket"};
constexpr std::array<std::string_view, 5> kCommitKeys = {"identifier", "checkpoint", "check-append-files",
                                                         "ignore-empty-commit", "overwrite"};
constexpr std::array<std::string_view, 7> kCompactKeys = {"partition", "bucket", "from", "files", "to", "keys", "rows"};
constexpr std::array<std::string_view, 2> kCheckpointKeys = {"name", "identifier"};
constexpr std::array<std::string_view, 1> kFilterKeys = {"checkpoints"};

// A step's key=value arguments, each step with its own keys (an unknown key lists them).
struct StepArgs {
  const StepLine& line;
  Tokens toks;
  std::string what;  // "step write"
  Args args;

  StepArgs(const StepLine& l, Tokens t) : line(l), toks(t), what(fmt::format("step {}", t[0].text)) {}
  Status Collect(std::span<const std::string_view> keys) {
    return Args::Collect(line.ctx, toks[0].col, toks.subspan(1), what, keys, &args);
  }
  // A writer may run with its own bucket count (a rescaled job); its files' buckets are below it.
  int32_t buckets() const { return line.writer.buckets > 0 ? line.writer.buckets : line.table.buckets; }
};

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

Status ParseWrite(StepArgs& a, OpTemplate* out) {
  COMMITLAB_RETURN_IF_ERROR(a.Collect(kWriteKeys));
  const LineContext& ctx = a.line.ctx;
  WriteOp op;
  if (const Token* keys = a.args.Find("keys")) {
    COMMITLAB_RETURN_IF_ERROR(
        ParseRange(ctx, keys->value, keys->value_col, "key \"keys\"", -kMaxKey, kMaxKey, &op.min_key, &op.max_key));
    out->keys_given = true;
    op.rows = std::min(op.max_key - op.min_key + 1, kMaxRows);
  }
  COMMITLAB_RETURN_IF_ERROR(a.args.Int("rows", 1, kMaxRows, &op.rows));
  COMMITLAB_RETURN_IF_ERROR(
      ParsePartition(ctx, a.toks[0].col, a.args.Find("partition"), a.line.table, a.what, &op.partition));
  COMMITLAB_RETURN_IF_ERROR(a.args.Int32("bucket", 0, a.buckets() - 1, &op.bucket));
  out->op = std::move(op);
  return Status::OK();
}

Status ParseCommit(StepArgs& a, OpTemplate* out) {
  COMMITLAB_RETURN_IF_ERROR(a.Collect(kCommitKeys));
  const LineContext& ctx = a.line.ctx;
  CommitOp op;
  const Token* id = a.args.Find("identifier");
  const Token* cp = a.args.Find("checkpoint");
  if (id != nullptr && cp != nullptr) {
    const Token* second = id->col > cp->col ? id : cp;
    return ctx.Error(second->col, "step commit takes identifier or checkpoint, not both");
  }
  COMMITLAB_RETURN_IF_ERROR(a.args.Int("identifier", 0, kMaxIdentifier, &op.identifier));
  COMMITLAB_RETURN_IF_ERROR(a.args.Bool("check-append-files", &op.check_append_files));
  if (const Token* ow = a.args.Find("overwrite")) {
    COMMITLAB_RETURN_IF_ERROR(ParseOverwriteTarget(ctx, *ow, a.line.table, &op.overwrite.emplace()));
  }
  if (a.args.Find("ignore-empty-commit") != nullptr) {
    bool ignore = false;
    COMMITLAB_RETURN_IF_ERROR(a.args.Bool("ignore-empty-commit", &ignore));
    op.ignore_empty_commit = ignore;
  }
  out->identifier_given = id != nullptr;
  if (cp != nullptr) {
    if (!IsRefName(cp->value)) COMMITLAB_RETURN_IF_ERROR(CheckName(ctx, cp->value, cp->value_col, "checkpoint name"));
    op.checkpoint = cp->value;
    out->ref_pos.push_back(ctx.Pos(cp->value_col));
  }
  out->op = std::move(op);
  return Status::OK();
}

// compact files=I,J: indexes into the level's files, oldest first.
Status ParseFileIndexes(const LineContext& ctx, const Token& files, std::vector<int32_t>* out) {
  auto add_file = [&](std::string_view item, int col) {
    int64_t index = 0;
    if (item.empty() || item.find_first_not_of("0123456789") != std::string_view::npos) {
      return ctx.Error(col,
                       fmt::format("expected all or file indexes like 0,1 for key \"files\", got \"{}\"", files.value));
    }
    COMMITLAB_RETURN_IF_ERROR(ParseInt(ctx, item, col, "a file index", 0, kMaxFileIndex, &index));
    for (int32_t f : *out)
      if (f == index) return ctx.Error(col, fmt::format("file index {} listed twice", index));
    out->push_back(static_cast<int32_t>(index));
    return Status::OK();
  };
  return ForEachListItem(ctx, files, add_file);
}

Status ParseCompact(StepArgs& a, OpTemplate* out) {
  COMMITLAB_RETURN_IF_ERROR(a.Collect(kCompactKeys));
  const LineContext& ctx = a.line.ctx;
  const Table& table = a.line.table;
  CompactOp op;
  const Token* tok = nullptr;
  COMMITLAB_RETURN_IF_ERROR(a.args.Require("from", &tok));
  COMMITLAB_RETURN_IF_ERROR(a.args.Require("to", &tok));
  COMMITLAB_RETURN_IF_ERROR(ParsePartition(ctx, a.toks[0].col, a.args.Find("partition"), table, a.what, &op.partition));
  COMMITLAB_RETURN_IF_ERROR(a.args.Int32("bucket", 0, a.buckets() - 1, &op.bucket));
  COMMITLAB_RETURN_IF_ERROR(a.args.Int32("from", 0, table.levels - 1, &op.from_level));
  COMMITLAB_RETURN_IF_ERROR(a.args.Int32("to", 1, table.levels - 1, &op.to_level));
  if (op.to_level < op.from_level) {
    return ctx.Error(tok->value_col, fmt::format("compaction cannot move files down: key \"to\" ({}) is below key "
                                                 "\"from\" ({})",
                                                 op.to_level, op.from_level));
  }
  if (const Token* files = a.args.Find("files"); files != nullptr && files->value != "all") {
    op.all_files = false;
    COMMITLAB_RETURN_IF_ERROR(ParseFileIndexes(ctx, *files, &op.files));
  }
  if (const Token* keys = a.args.Find("keys")) {
    int64_t lo = 0, hi = 0;
    COMMITLAB_RETURN_IF_ERROR(
        ParseRange(ctx, keys->value, keys->value_col, "key \"keys\"", -kMaxKey, kMaxKey, &lo, &hi));
    op.min_key = lo;
    op.max_key = hi;
  }
  if (a.args.Find("rows") != nullptr) {
    int64_t rows = 0;
    COMMITLAB_RETURN_IF_ERROR(a.args.Int("rows", 0, kMaxRows, &rows));
    op.rows = rows;
  }
  out->op = std::move(op);
  return Status::OK();
}

Status ParseCheckpoint(StepArgs& a, OpTemplate* out) {
  COMMITLAB_RETURN_IF_ERROR(a.Collect(kCheckpointKeys));
  CheckpointOp op;
  const Token* n = nullptr;
  COMMITLAB_RETURN_IF_ERROR(a.args.Require("name", &n));
  COMMITLAB_RETURN_IF_ERROR(a.args.Name("name", "checkpoint name", &op.checkpoint));
  COMMITLAB_RETURN_IF_ERROR(a.line.new_checkpoint(*n, op.checkpoint));
  COMMITLAB_RETURN_IF_ERROR(a.args.Int("identifier", 0, kMaxIdentifier, &op.identifier));
  out->identifier_given = a.args.Find("identifier") != nullptr;
  out->op = std::move(op);
  return Status::OK();
}

// filter-and-commit and delete-data-files: checkpoints=A,B,...
Status ParseCheckpointList(StepArgs& a, OpTemplate* out, std::vector<std::string>* checkpoints) {
  COMMITLAB_RETURN_IF_ERROR(a.Collect(kFilterKeys));
  const LineContext& ctx = a.line.ctx;
  const Token* list = nullptr;
  COMMITLAB_RETURN_IF_ERROR(a.args.Require("checkpoints", &list));
  auto add_checkpoint = [&](std::string_view item, int col) {
    if (!IsRefName(item)) COMMITLAB_RETURN_IF_ERROR(CheckName(ctx, item, col, "checkpoint name"));
    for (const std::string& c : *checkpoints)
      if (c == item) return ctx.Error(col, fmt::format("checkpoint \"{}\" listed twice", item));
    checkpoints->emplace_back(item);
    out->ref_pos.push_back(ctx.Pos(col));
    return Status::OK();
  };
  return ForEachListItem(ctx, *list, add_checkpoint);
}

// filter-and-commit: the checkpoints, resolved, must have strictly increasing identifiers.
Status ResolveIncreasing(StepPostPass& pass, std::vector<std::string>* checkpoints) {
  int64_t prev = 0;
  for (size_t i = 0; i < checkpoints->size(); ++i) {
    const std::string written = (*checkpoints)[i];
    int64_t id = 0;
    COMMITLAB_RETURN_IF_ERROR(pass.ResolveCheckpoint(i, &(*checkpoints)[i], &id));
    if (i > 0 && id <= prev) {
      return pass.ctx().Error(pass.tmpl().ref_pos[i].col,
                              fmt::format("checkpoints must have strictly increasing identifiers: \"{}\" ({}) follows "
                                          "\"{}\" ({})",
                                          written, id, (*checkpoints)[i - 1], prev));
    }
    prev = id;
  }
  return Status::OK();
}

}  // namespace

std::span<const std::string_view> PaimonModule::table_keys() const { return kTableKeys; }

Status PaimonModule::ParseTableKeys(const LineContext& ctx, const Args& args, Table* table) const {
  (void)ctx;
  COMMITLAB_RETURN_IF_ERROR(args.Bool("primary-key", &table->primary_key));
  COMMITLAB_RETURN_IF_ERROR(args.Int32("buckets", 1, 1024, &table->buckets));
  COMMITLAB_RETURN_IF_ERROR(args.Int32("levels", 2, 32, &table->levels));
  return args.Bool("ignore-empty-commit", &table->ignore_empty_commit);
}

std::span<const std::string_view> PaimonModule::writer_keys() const { return kWriterKeys; }

Status PaimonModule::ParseWriterKeys(const LineContext& ctx, const Args& args, Writer* writer) const {
  (void)ctx;
  COMMITLAB_RETURN_IF_ERROR(args.Int32("buckets", 1, 1024, &writer->buckets));
  if (args.Find("strict-mode-last-safe-snapshot") == nullptr) return Status::OK();
  return args.Int("strict-mode-last-safe-snapshot", -1, kMaxKey, &writer->strict_mode_last_safe_snapshot.emplace());
}

std::span<const std::string_view> PaimonModule::step_names() const { return kSteps; }

std::span<const std::string_view> PaimonModule::operation_names() const { return kOperations; }

Status PaimonModule::ParseStep(const StepLine& line, Tokens toks, OpTemplate* out) const {
  StepArgs a(line, toks);
  const std::string_view n = toks[0].text;
  if (n == "write") return ParseWrite(a, out);
  if (n == "commit") return ParseCommit(a, out);
  if (n == "compact") return ParseCompact(a, out);
  if (n == "checkpoint") return ParseCheckpoint(a, out);
  if (n == "filter-and-commit" || n == "delete-data-files") {
    std::vector<std::string> checkpoints;
    COMMITLAB_RETURN_IF_ERROR(ParseCheckpointList(a, out, &checkpoints));
    if (n == "filter-and-commit") {
      FilterAndCommitOp op;
      op.checkpoints = std::move(checkpoints);
      out->op = std::move(op);
    } else {
      DeleteDataFilesOp op;
      op.checkpoints = std::move(checkpoints);
      out->op = std::move(op);
    }
    return Status::OK();
  }
  // restart
  COMMITLAB_RETURN_IF_ERROR(NoMoreTokens(line.ctx, toks, 1, "restart (it takes no arguments)"));
  out->op = RestartOp{};
  return Status::OK();
}

Status PaimonModule::Instantiate(StepPostPass& pass, StepOp* op) const {
  if (auto* w = dynamic_cast<WriteOp*>(op)) {
    pass.FreshKeys(w->rows, &w->min_key, &w->max_key);
  } else if (auto* c = dynamic_cast<CommitOp*>(op)) {
    // A checkpoint's committable keeps the identifier it was saved with.
    if (!c->checkpoint.empty()) return pass.ResolveCheckpoint(0, &c->checkpoint, &c->identifier);
    if (!pass.tmpl().identifier_given) COMMITLAB_RETURN_IF_ERROR(pass.NextIdentifier(&c->identifier));
    pass.UseIdentifier(c->identifier);
  } else if (auto* cp = dynamic_cast<CheckpointOp*>(op)) {
    if (!pass.tmpl().identifier_given) COMMITLAB_RETURN_IF_ERROR(pass.NextIdentifier(&cp->identifier));
    pass.UseIdentifier(cp->identifier);
    cp->checkpoint = pass.SaveCheckpoint(cp->checkpoint, cp->identifier);
  } else if (auto* d = dynamic_cast<DeleteDataFilesOp*>(op)) {
    for (size_t i = 0; i < d->checkpoints.size(); ++i) {
      int64_t id = 0;
      COMMITLAB_RETURN_IF_ERROR(pass.ResolveCheckpoint(i, &d->checkpoints[i], &id));
    }
  } else if (auto* f = dynamic_cast<FilterAndCommitOp*>(op)) {
    return ResolveIncreasing(pass, &f->checkpoints);
  }
  return Status::OK();
}

}  // namespace commitlab::scenarios::internal
