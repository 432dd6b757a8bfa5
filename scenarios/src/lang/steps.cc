// Step lines (WRITER[.LABEL]: OP key=value ...; OP ...) and `repeat N: <step line>`. Each
// operation is parsed once into a template by its table's protocol (ProtocolModule::ParseStep),
// then instantiated per repeat iteration, which is where identifiers, fresh keys and checkpoint
// names are assigned in file order (ProtocolModule::Instantiate, through Parser::PostPass).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>

#include "commitlab/scenarios/parser.h"
#include "lang/parser_impl.h"
#include "protocols/registry.h"

namespace commitlab::scenarios::internal {
namespace {

constexpr int64_t kMaxIdentifier = std::numeric_limits<int64_t>::max();
constexpr std::string_view kRepeatExample = "e.g. repeat 30: job-A: write rows=1; commit";

std::string Expanded(std::string_view name, int iteration) {
  return iteration == 0 ? std::string(name) : fmt::format("{}[{}]", name, iteration);
}

}  // namespace

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
  for (const OpTemplate& t : ops) entries += t.op->list_entries();
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
  // (StepOp::Advanced says which steps do: Paimon's write and plain commit.)
  if (!lazy_repeats_ || iterations < 2 || !label.empty()) return false;
  for (const OpTemplate& t : ops)
    if (t.keys_given || t.identifier_given || t.op->Advanced(0, 0) == nullptr) return false;
  const size_t table = s_.writers[writer].table;
  const int64_t keys_before = next_key_[table];
  const int64_t ids_before = last_identifier_[writer];
  // The identifiers must not pass kMaxIdentifier (each step takes at most one): expanded, the line
  // names where they would.
  const auto n = static_cast<int64_t>(iterations);
  if (ids_before > kMaxIdentifier - n * static_cast<int64_t>(ops.size())) return false;
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

Status Parser::ParseOp(const LineContext& ctx, size_t writer, Tokens toks, OpTemplate* out) {
  const Token& name = toks[0];
  out->pos = ctx.Pos(name.col);
  const Writer& w = s_.writers[writer];
  const Table& table = s_.tables[w.table];
  const ProtocolModule& protocol = ModuleOf(table.protocol);
  const std::span<const std::string_view> own = protocol.step_names();
  if (name.kind != Token::Kind::kWord || name.is_pair) {
    return ctx.Error(name.col, fmt::format("expected a step name (one of {}), got \"{}\"", JoinNames(own), name.text));
  }
  if (std::find(own.begin(), own.end(), name.text) == own.end()) return WrongProtocolStep(ctx, name, w, table);
  const StepLine line{
      .ctx = ctx, .table = table, .writer = w, .new_checkpoint = [&](const Token& t, const std::string& checkpoint) {
        auto [it, inserted] = base_checkpoints_.emplace(checkpoint, ctx.line());
        if (inserted) return Status::OK();
        return ctx.Error(t.value_col,
                         fmt::format("checkpoint \"{}\" is already saved at line {}", checkpoint, it->second));
      }};
  return protocol.ParseStep(line, toks, out);
}

Status Parser::WrongProtocolStep(const LineContext& ctx, const Token& name, const Writer& w, const Table& table) {
  const std::span<const std::string_view> own = ModuleOf(table.protocol).step_names();
  // The protocols (other than the table's) that have a step of this name.
  std::string others;
  for (Protocol p : RegisteredProtocols()) {
    if (p == table.protocol) continue;
    const std::span<const std::string_view> steps = ModuleOf(p).step_names();
    if (std::find(steps.begin(), steps.end(), name.text) != steps.end())
      others += fmt::format("{}{}", others.empty() ? "" : " and ", ProtocolName(p));
  }
  if (others.empty())
    return ctx.Error(name.col, fmt::format("unknown step \"{}\" (expected one of {})", name.text, JoinNames(own)));
  return ctx.Error(name.col,
                   fmt::format("step \"{}\" is for {} tables, but writer {} writes {} table {} (its steps: {})",
                               name.text, others, w.name, ProtocolName(table.protocol), table.name, JoinNames(own)));
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

// The post-pass a protocol's Instantiate sees: the parser's counters of fresh keys, commit
// identifiers and checkpoints, in file order.
class Parser::PostPass final : public StepPostPass {
 public:
  PostPass(Parser* parser, const LineContext& ctx, size_t writer, const OpTemplate& tmpl, int iteration,
           std::map<std::string, std::string, std::less<>>* line_checkpoints)
      : p_(parser),
        ctx_(ctx),
        writer_(writer),
        table_(parser->s_.writers[writer].table),
        tmpl_(tmpl),
        iteration_(iteration),
        line_checkpoints_(line_checkpoints) {}

  const LineContext& ctx() const override { return ctx_; }
  const OpTemplate& tmpl() const override { return tmpl_; }
  int iteration() const override { return iteration_; }
  TableParseState* table_state() override { return p_->parse_states_[table_].get(); }
  const Table& table() const override { return p_->s_.tables[table_]; }

  void FreshKeys(int64_t rows, int64_t* min_key, int64_t* max_key) override {
    int64_t& next = p_->next_key_[table_];
    if (!tmpl_.keys_given) {
      *min_key = next;
      *max_key = next + rows - 1;
    }
    next = std::max(next, *max_key + 1);
  }
  Status NextIdentifier(int64_t* id) override {
    const int64_t last = p_->last_identifier_[writer_];
    if (last == kMaxIdentifier) {
      return ctx_.Error(
          tmpl_.pos.col,
          fmt::format("the next commit identifier would exceed {} (give one with identifier=N)", kMaxIdentifier));
    }
    *id = last + 1;
    return Status::OK();
  }
  void UseIdentifier(int64_t id) override { p_->last_identifier_[writer_] = id; }
  std::string SaveCheckpoint(const std::string& name, int64_t identifier) override {
    std::string expanded = Expanded(name, iteration_);
    (*line_checkpoints_)[name] = expanded;
    p_->checkpoints_[expanded] = {identifier, ctx_.line()};
    return expanded;
  }
  Status ResolveCheckpoint(size_t ref, std::string* name, int64_t* identifier) override {
    const CheckpointInfo* info = nullptr;
    const std::string written = *name;
    COMMITLAB_RETURN_IF_ERROR(
        p_->ResolveCheckpoint(ctx_, written, tmpl_.ref_pos[ref], *line_checkpoints_, name, &info));
    *identifier = info->identifier;
    return Status::OK();
  }

 private:
  Parser* const p_;
  const LineContext& ctx_;
  const size_t writer_;
  const size_t table_;
  const OpTemplate& tmpl_;
  const int iteration_;
  std::map<std::string, std::string, std::less<>>* const line_checkpoints_;
};

Status Parser::Instantiate(const LineContext& ctx, size_t writer, const OpTemplate& tmpl, int iteration,
                           std::map<std::string, std::string, std::less<>>* line_checkpoints, Step* out) {
  out->pos = tmpl.pos;
  out->iteration = iteration;
  std::unique_ptr<StepOp> op = tmpl.op->Clone();
  PostPass pass(this, ctx, writer, tmpl, iteration, line_checkpoints);
  COMMITLAB_RETURN_IF_ERROR(ModuleOf(pass.table().protocol).Instantiate(pass, op.get()));
  out->op = Op(std::move(op));
  return Status::OK();
}

}  // namespace commitlab::scenarios::internal
