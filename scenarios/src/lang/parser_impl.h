// The parser's state, shared by the files that parse one kind of line each: parser.cc (the file,
// scenario-wide directives), steps.cc (step lines and repeat), expect.cc, order.cc (order lines,
// label resolution and the deadlock check).
#ifndef COMMITLAB_SCENARIOS_PARSER_IMPL_H_
#define COMMITLAB_SCENARIOS_PARSER_IMPL_H_

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/scenario.h"
#include "lang/args.h"
#include "lang/lexer.h"

namespace commitlab::scenarios::internal {

// Limits and names shared by the files that parse steps and tables.
inline constexpr int64_t kMaxRows = 1'000'000'000;         // rows of a Paimon or Delta file
inline constexpr int64_t kMaxKey = 1'000'000'000'000'000;  // 1e15: fresh keys never overflow
inline constexpr std::array<std::string_view, 7> kPaimonSteps = {
    "write", "commit", "compact", "checkpoint", "filter-and-commit", "delete-data-files", "restart"};
inline constexpr std::array<std::string_view, 12> kIcebergSteps = {
    "read",   "scan",   "append",  "overwrite", "replace-partitions", "row-delta", "delete", "rewrite",
    "schema", "expire", "orphans", "counter"};
inline constexpr std::array<std::string_view, 9> kDeltaSteps = {"begin", "read",     "add",      "remove",  "commit",
                                                                "txn",   "read-txn", "metadata", "protocol"};
inline constexpr std::array<std::string_view, 2> kIcebergIsolation = {"serializable", "snapshot"};
inline constexpr std::array<std::string_view, 2> kDeltaIsolation = {"Serializable", "WriteSerializable"};
// Delta's operations, as `commit op=` and a snapshot's `operation=` name them; a space in Delta's
// name is a '-' here (STREAMING-UPDATE is Delta's "STREAMING UPDATE").
inline constexpr std::array<std::string_view, 6> kDeltaOperations = {"INSERT", "UPDATE",   "DELETE",
                                                                     "MERGE",  "OPTIMIZE", "STREAMING-UPDATE"};

// The steps a writer of a `p` table takes.
inline std::span<const std::string_view> StepNames(Protocol p) {
  switch (p) {
    case Protocol::kIceberg: return kIcebergSteps;
    case Protocol::kDelta: return kDeltaSteps;
    case Protocol::kPaimon: break;
  }
  return kPaimonSteps;
}

// Calls item(text, col) for each entry of a comma-separated value (the value of `t`), at most
// kMaxListEntries of them.
Status ForEachListItem(const LineContext& ctx, const Token& t,
                       const std::function<Status(std::string_view item, int col)>& item);
// NAME,NAME,...: distinct names (`what` names one in messages: "file name", "partition key").
Status ParseNameList(const LineContext& ctx, const Token& t, std::string_view what, std::vector<std::string>* out);

class Parser {
 public:
  Parser(std::string_view file_name, size_t max_steps, bool lazy_repeats = true);
  Result<Scenario> Parse(std::string_view text);

 private:
  // A step reference WRITER.LABEL as written, resolved once the whole file is read.
  struct RefText {
    SourcePos pos;
    std::string writer;
    std::string label;
    bool publish = false;  // WRITER.LABEL.publish (order lines only)
  };
  struct PendingOrder {
    RefText before;
    RefText after;
    size_t edge = 0;  // index into s_.order
  };
  struct PendingStepExpect {
    RefText ref;
    size_t expectation = 0;  // index into s_.expectations
  };
  struct LabelInfo {
    size_t first = 0;  // the labelled line's steps
    size_t last = 0;
    int line = 0;
  };
  struct CheckpointInfo {
    int64_t identifier = 0;
    int line = 0;
  };
  // One operation of a step line as parsed once; instantiated per repeat iteration.
  struct OpTemplate {
    Op op;
    SourcePos pos;
    bool identifier_given = false;
    bool keys_given = false;
    std::vector<SourcePos> ref_pos;  // checkpoint references, in order
  };

  // parser.cc
  Status ParseLine(const LineContext& ctx, std::string_view line);
  Status ParseTitle(const LineContext& ctx, Tokens toks);
  // claim "..." and source "...": once each.
  Status ParseText(const LineContext& ctx, Tokens toks, std::string* out);
  Status ParseTable(const LineContext& ctx, Tokens toks);
  Status ParseWriter(const LineContext& ctx, Tokens toks);
  Status ParseSpec(const LineContext& ctx, Tokens toks, std::vector<SpecString>* out);
  Status ParseRetry(const LineContext& ctx, Tokens toks);
  Status ParseIdempotencyCheck(const LineContext& ctx, Tokens toks);
  Status ParseSched(const LineContext& ctx, Tokens toks);
  Status ParseSeed(const LineContext& ctx, Tokens toks);
  Status ParseStore(const LineContext& ctx, Tokens toks);
  // Singleton directives: the second occurrence is an error naming the first.
  Status CheckOnce(const LineContext& ctx, const Token& directive);
  Status Finish();

  // steps.cc
  Status ParseStepLine(const LineContext& ctx, Tokens toks, int64_t repeat, int repeat_col);
  Status ParseRepeat(const LineContext& ctx, Tokens toks);
  Status ParseOp(const LineContext& ctx, size_t writer, Tokens toks, OpTemplate* out);
  Status ParsePartition(const LineContext& ctx, int owner_col, const Token* t, const Table& table,
                        std::string_view what, std::string* out);
  Status Instantiate(const LineContext& ctx, size_t writer, const OpTemplate& tmpl, int iteration,
                     std::map<std::string, std::string, std::less<>>* line_checkpoints, Step* out);
  // A repeated line held once in Writer::steps (StepList::push_repeat), when its iterations differ
  // only in fresh keys and identifiers: false (nothing done) for any other line.
  Result<bool> AddLazyRepeat(const LineContext& ctx, size_t writer, const std::vector<OpTemplate>& ops,
                             const std::string& label, size_t iterations);
  // The Iceberg table's row budget (kMaxIcebergTableRows), counted as each step is instantiated.
  Status CountIcebergRows(const LineContext& ctx, const OpTemplate& tmpl, size_t table, const Op& op);
  // steps_lakes.cc: steps of Iceberg and Delta tables.
  // ParseOp has checked that the step is one of the table's protocol's.
  Status ParseIcebergOp(const LineContext& ctx, const Table& table, Tokens toks, OpTemplate* out);
  Status ParseDeltaOp(const LineContext& ctx, const Table& table, Tokens toks, OpTemplate* out);
  // `partition`: also parse the partition key (replace-partitions parses its list itself).
  Status ParseDataSpec(const LineContext& ctx, int owner_col, const Args& args, const Table& table,
                       std::string_view what, OpTemplate* tmpl, DataSpec* out, bool partition = true);
  Status ParseRowDelta(const LineContext& ctx, int owner_col, const Args& args, const Table& table,
                       std::string_view what, OpTemplate* out);
  Status ParseReplacePartitions(const LineContext& ctx, int owner_col, const Args& args, const Table& table,
                                std::string_view what, OpTemplate* out);
  Status WrongProtocolStep(const LineContext& ctx, const Token& name, const Writer& w, const Table& table);
  Status ResolveCheckpoint(const LineContext& ctx, std::string_view name, SourcePos pos,
                           const std::map<std::string, std::string, std::less<>>& line_checkpoints,
                           std::string* resolved, const CheckpointInfo** info);

  // expect.cc
  Status ParseExpect(const LineContext& ctx, Tokens toks, std::string_view line);

  // order.cc
  Status ParseOrder(const LineContext& ctx, Tokens toks);
  Status ParseRefText(const LineContext& ctx, const Token& t, RefText* out);
  Status ResolveRef(const RefText& ref, size_t* writer, const LabelInfo** label) const;
  Status ResolveReferences();
  // The step of a labelled line that W.L.publish names: its first step that publishes.
  Status PublishStep(const RefText& ref, size_t writer, const LabelInfo& label, size_t* step) const;
  Status CheckOrderCycles() const;

  Status ErrorAt(SourcePos pos, std::string_view message) const;

  std::optional<size_t> FindWriter(std::string_view name) const;

  std::string file_name_;
  const size_t max_steps_;
  const bool lazy_repeats_;
  Scenario s_;
  std::map<std::string, size_t, std::less<>> writer_index_;
  std::map<std::string, int, std::less<>> users_;                      // commit user -> writers with it
  std::map<std::string, int, std::less<>> once_;                       // singleton directive -> its line
  std::vector<std::map<std::string, LabelInfo, std::less<>>> labels_;  // per writer, expanded
  std::vector<std::map<std::string, int, std::less<>>> base_labels_;   // per writer: label -> line
  std::map<std::string, CheckpointInfo, std::less<>> checkpoints_;     // expanded names
  std::map<std::string, int, std::less<>> base_checkpoints_;           // name -> line
  std::vector<int64_t> last_identifier_;                               // per writer
  std::vector<int64_t> next_key_;                                      // per table: the next fresh key
  std::vector<int64_t> iceberg_rows_;      // per table: rows written by appends, overwrites, counter inits
  std::vector<int64_t> iceberg_rewrites_;  // per table: rewrite steps
  size_t total_steps_ = 0;
  size_t list_entries_ = 0;
  std::vector<PendingOrder> pending_order_;
  std::vector<PendingStepExpect> pending_expect_;
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_PARSER_IMPL_H_
