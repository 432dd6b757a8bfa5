// The parser's state, shared by the files that parse one kind of line each: parser.cc (the file,
// scenario-wide directives), steps.cc (step lines and repeat), expect.cc, order.cc (order lines,
// label resolution and the deadlock check). What a protocol's own keys and steps say is parsed by
// its module (protocols/protocol.h), through lang/step_parse.h.
#ifndef COMMITLAB_SCENARIOS_PARSER_IMPL_H_
#define COMMITLAB_SCENARIOS_PARSER_IMPL_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/scenario.h"
#include "lang/args.h"
#include "lang/lexer.h"
#include "lang/step_parse.h"

namespace commitlab::scenarios::internal {

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
  Status Instantiate(const LineContext& ctx, size_t writer, const OpTemplate& tmpl, int iteration,
                     std::map<std::string, std::string, std::less<>>* line_checkpoints, Step* out);
  // A repeated line held once in Writer::steps (StepList::push_repeat), when its iterations differ
  // only in fresh keys and identifiers: false (nothing done) for any other line.
  Result<bool> AddLazyRepeat(const LineContext& ctx, size_t writer, const std::vector<OpTemplate>& ops,
                             const std::string& label, size_t iterations);
  Status WrongProtocolStep(const LineContext& ctx, const Token& name, const Writer& w, const Table& table);
  Status ResolveCheckpoint(const LineContext& ctx, std::string_view name, SourcePos pos,
                           const std::map<std::string, std::string, std::less<>>& line_checkpoints,
                           std::string* resolved, const CheckpointInfo** info);

  // The post-pass a protocol's Instantiate sees (StepPostPass).
  class PostPass;

  // expect.cc
  Status ParseExpect(const LineContext& ctx, Tokens toks, std::string_view line);
  class ExpectLine;

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
  std::vector<std::unique_ptr<TableParseState>> parse_states_;         // per table: its protocol's
  size_t total_steps_ = 0;
  size_t list_entries_ = 0;
  std::vector<PendingOrder> pending_order_;
  std::vector<PendingStepExpect> pending_expect_;
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_PARSER_IMPL_H_
