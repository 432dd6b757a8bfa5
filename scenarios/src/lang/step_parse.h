// What a protocol's parsing (scenarios/src/protocols/<p>/<p>_parse.cc) gets from the shared
// parser: the step line it parses, the template it fills, the post-pass that instantiates the
// template once per repeat iteration (fresh keys, commit identifiers, checkpoint names), and the
// helpers every protocol's keys use (partitions, lists, filters).
#ifndef COMMITLAB_SCENARIOS_STEP_PARSE_H_
#define COMMITLAB_SCENARIOS_STEP_PARSE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/scenario.h"
#include "lang/args.h"
#include "lang/filter_expr.h"
#include "lang/lexer.h"

namespace commitlab::scenarios::internal {

inline constexpr int64_t kMaxRows = 1'000'000'000;         // rows of a Paimon or Delta file
inline constexpr int64_t kMaxKey = 1'000'000'000'000'000;  // 1e15: fresh keys never overflow

// One operation of a step line as parsed once; instantiated per repeat iteration.
struct OpTemplate {
  Op op;
  SourcePos pos;                   // the step's name
  bool identifier_given = false;   // identifier=N: the post-pass assigns none
  bool keys_given = false;         // keys=LO..HI: the post-pass assigns no fresh keys
  std::vector<SourcePos> ref_pos;  // checkpoint references, in order
};

// What a protocol keeps per table while the file is parsed (Iceberg's row budget); the parser
// holds one per table, made by ProtocolModule::NewParseState.
class TableParseState {
 public:
  virtual ~TableParseState() = default;
};

// The step line a protocol's step is on.
struct StepLine {
  const LineContext& ctx;
  const Table& table;
  const Writer& writer;
  // A checkpoint saved on this line (`checkpoint name=N`): names are unique in the file; `t` is the
  // token that names it, for the message.
  std::function<Status(const Token& t, const std::string& name)> new_checkpoint;
};

// The parser's post-pass over one instantiated step (ProtocolModule::Instantiate).
class StepPostPass {
 public:
  virtual ~StepPostPass() = default;

  virtual const LineContext& ctx() const = 0;
  virtual const OpTemplate& tmpl() const = 0;
  virtual int iteration() const = 0;  // 1-based in a repeat, else 0
  virtual TableParseState* table_state() = 0;
  virtual const Table& table() const = 0;

  // The table's next fresh keys for `rows` rows, in file order (unless the template gave keys);
  // either way the table's next fresh key moves past *max_key.
  virtual void FreshKeys(int64_t rows, int64_t* min_key, int64_t* max_key) = 0;
  // The writer's previous commit identifier + 1; `UseIdentifier` makes `id` its latest.
  virtual Status NextIdentifier(int64_t* id) = 0;
  virtual void UseIdentifier(int64_t id) = 0;
  // Saves checkpoint `name` with `identifier`; returns its name in this iteration ("cp[2]").
  virtual std::string SaveCheckpoint(const std::string& name, int64_t identifier) = 0;
  // The checkpoint the template's reference `ref` names, resolved for this iteration: its name
  // into *name (which holds it as written) and its identifier.
  virtual Status ResolveCheckpoint(size_t ref, std::string* name, int64_t* identifier) = 0;
};

// Calls item(text, col) for each entry of a comma-separated value (the value of `t`), at most
// kMaxListEntries of them.
Status ForEachListItem(const LineContext& ctx, const Token& t,
                       const std::function<Status(std::string_view item, int col)>& item);
// NAME,NAME,...: distinct names (`what` names one in messages: "file name", "partition key").
Status ParseNameList(const LineContext& ctx, const Token& t, std::string_view what, std::vector<std::string>* out);
// partition=K1=V1/K2=V2 over the table's partition keys; required of a partitioned table
// (reported at `owner_col`, for `what`: "step write"), refused for an unpartitioned one.
Status ParsePartition(const LineContext& ctx, int owner_col, const Token* t, const Table& table, std::string_view what,
                      std::string* out);
// filter=EXPR over the columns the table's rows have: id and value hold integers, name strings
// (the Iceberg counter's rows), and each partition column its partition's text.
Status ParseFilterValue(const LineContext& ctx, const Token* t, const Table& table, FilterSpec* out);

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_STEP_PARSE_H_
