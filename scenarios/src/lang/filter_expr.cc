#include "lang/filter_expr.h"

#include <fmt/format.h>

#include <charconv>
#include <optional>
#include <utility>

namespace commitlab::scenarios::internal {
namespace {

using iceberg::Expression;
using Op = Expression::Op;

constexpr int64_t kMaxLiteral = 1'000'000'000'000'000'000;  // 1e18, as every scenario integer
constexpr int kMaxDepth = 64;                               // nested parentheses and nots

struct Word {
  enum class Kind { kName, kOperator, kOpen, kClose, kQuoted, kEnd };
  Kind kind = Kind::kEnd;
  std::string text;
  int col = 0;
};

bool IsOperatorChar(char c) { return c == '=' || c == '!' || c == '<' || c == '>'; }
bool IsWordChar(char c) { return c != ' ' && c != '\t' && c != '(' && c != ')' && c != '\'' && !IsOperatorChar(c); }

class FilterParser {
 public:
  FilterParser(const LineContext& ctx, std::string_view text, int col, const std::vector<FilterColumn>& columns,
               std::string_view what)
      : ctx_(ctx), text_(text), col_(col), columns_(columns), what_(what) {}

  Status Parse(Expression* out) {
    COMMITLAB_RETURN_IF_ERROR(Next());
    if (word_.kind == Word::Kind::kEnd) return ctx_.Error(col_, "expected a filter after filter=, e.g. filter=id=5");
    COMMITLAB_RETURN_IF_ERROR(Or(out, 0));
    if (word_.kind != Word::Kind::kEnd)
      return ctx_.Error(word_.col,
                        fmt::format("unexpected \"{}\" in the filter (expected and, or, or the end)", word_.text));
    return Status::OK();
  }

 private:
  Status Next() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
    word_ = {Word::Kind::kEnd, "", col_ + static_cast<int>(pos_)};
    if (pos_ >= text_.size()) return Status::OK();
    const char c = text_[pos_];
    const size_t start = pos_;
    if (c == '(' || c == ')') {
      word_.kind = c == '(' ? Word::Kind::kOpen : Word::Kind::kClose;
      word_.text = std::string(1, c);
      ++pos_;
    } else if (c == '\'') {
      const size_t close = text_.find('\'', pos_ + 1);
      if (close == std::string_view::npos) return ctx_.Error(word_.col, "unterminated 'string' in the filter");
      word_.kind = Word::Kind::kQuoted;
      word_.text = std::string(text_.substr(pos_ + 1, close - pos_ - 1));
      pos_ = close + 1;
    } else if (IsOperatorChar(c)) {
      while (pos_ < text_.size() && IsOperatorChar(text_[pos_])) ++pos_;
      word_.kind = Word::Kind::kOperator;
      word_.text = std::string(text_.substr(start, pos_ - start));
    } else {
      while (pos_ < text_.size() && IsWordChar(text_[pos_])) ++pos_;
      word_.kind = Word::Kind::kName;
      word_.text = std::string(text_.substr(start, pos_ - start));
    }
    return Status::OK();
  }

  bool IsKeyword(std::string_view k) const { return word_.kind == Word::Kind::kName && word_.text == k; }

  Status Or(Expression* out, int depth) { return Chain("or", &FilterParser::And, Expression::Or, out, depth); }
  Status And(Expression* out, int depth) { return Chain("and", &FilterParser::Factor, Expression::And, out, depth); }

  // operand (keyword operand)*, folded to the left: "a and b and c" is ((a and b) and c).
  Status Chain(std::string_view keyword, Status (FilterParser::*operand)(Expression*, int),
               Expression (*combine)(Expression, Expression), Expression* out, int depth) {
    COMMITLAB_RETURN_IF_ERROR((this->*operand)(out, depth));
    while (IsKeyword(keyword)) {
      COMMITLAB_RETURN_IF_ERROR(Next());
      Expression right;
      COMMITLAB_RETURN_IF_ERROR((this->*operand)(&right, depth));
      *out = combine(std::move(*out), std::move(right));
    }
    return Status::OK();
  }

  Status Factor(Expression* out, int depth) {
    if (depth > kMaxDepth)
      return ctx_.Error(word_.col, fmt::format("the filter nests deeper than {} levels", kMaxDepth));
    if (IsKeyword("not")) {
      COMMITLAB_RETURN_IF_ERROR(Next());
      Expression inner;
      COMMITLAB_RETURN_IF_ERROR(Factor(&inner, depth + 1));
      *out = Expression::Not(std::move(inner));
      return Status::OK();
    }
    if (word_.kind == Word::Kind::kOpen) {
      const int open_col = word_.col;
      COMMITLAB_RETURN_IF_ERROR(Next());
      COMMITLAB_RETURN_IF_ERROR(Or(out, depth + 1));
      if (word_.kind != Word::Kind::kClose)
        return ctx_.Error(word_.col, fmt::format("expected ) to close the ( at column {}", open_col));
      return Next();
    }
    if (IsKeyword("true") || IsKeyword("false")) {
      *out = IsKeyword("true") ? Expression::AlwaysTrue() : Expression::AlwaysFalse();
      return Next();
    }
    return Comparison(out);
  }

  Status Comparison(Expression* out) {
    if (word_.kind != Word::Kind::kName) {
      return ctx_.Error(word_.col, fmt::format("expected a column, not, ( or true/false in the filter, got \"{}\"",
                                               word_.kind == Word::Kind::kEnd ? "the end" : word_.text));
    }
    const Word column = word_;
    const FilterColumn* c = Find(column.text);
    if (c == nullptr) {
      std::string names;
      for (const FilterColumn& k : columns_) names += (names.empty() ? "" : ", ") + k.name;
      return ctx_.Error(column.col, fmt::format("expected one of {} for {}, got \"{}\"", names, what_, column.text));
    }
    COMMITLAB_RETURN_IF_ERROR(Next());
    static const std::pair<std::string_view, Op> kOps[] = {{"=", Op::kEqual},
                                                           {"==", Op::kEqual},
                                                           {"!=", Op::kNotEqual},
                                                           {"<", Op::kLessThan},
                                                           {"<=", Op::kLessThanOrEqual},
                                                           {">", Op::kGreaterThan},
                                                           {">=", Op::kGreaterThanOrEqual}};
    std::optional<Op> op;
    for (const auto& [symbol, o] : kOps)
      if (word_.kind == Word::Kind::kOperator && word_.text == symbol) op = o;
    if (!op) {
      return ctx_.Error(word_.col, fmt::format("expected a comparison (=, !=, <, <=, >, >=) after column \"{}\", got "
                                               "\"{}\"",
                                               column.text, word_.kind == Word::Kind::kEnd ? "the end" : word_.text));
    }
    COMMITLAB_RETURN_IF_ERROR(Next());
    if (word_.kind != Word::Kind::kName && word_.kind != Word::Kind::kQuoted) {
      return ctx_.Error(word_.col, fmt::format("expected a value after {} {}, got \"{}\"", column.text, OpText(*op),
                                               word_.kind == Word::Kind::kEnd ? "the end" : word_.text));
    }
    // COLUMN=LO..HI: both ends included, sugar for lo <= column and column <= hi.
    if (*op == Op::kEqual && word_.kind == Word::Kind::kName && word_.text.find("..") != std::string::npos) {
      const size_t dots = word_.text.find("..");
      iceberg::Value lo, hi;
      COMMITLAB_RETURN_IF_ERROR(Literal(*c, word_.text.substr(0, dots), false, word_.col, &lo));
      COMMITLAB_RETURN_IF_ERROR(
          Literal(*c, word_.text.substr(dots + 2), false, word_.col + static_cast<int>(dots) + 2, &hi));
      if (lo.index() != hi.index()) {
        return ctx_.Error(word_.col, fmt::format("the range {} mixes an integer and a string (give two integers or "
                                                 "two strings)",
                                                 word_.text));
      }
      if (hi < lo)
        return ctx_.Error(word_.col,
                          fmt::format("the range {} is empty (its low end is above its high end)", word_.text));
      *out = Expression::And(Expression::Compare(Op::kGreaterThanOrEqual, c->name, lo),
                             Expression::Compare(Op::kLessThanOrEqual, c->name, hi));
      return Next();
    }
    iceberg::Value v;
    COMMITLAB_RETURN_IF_ERROR(Literal(*c, word_.text, word_.kind == Word::Kind::kQuoted, word_.col, &v));
    *out = Expression::Compare(*op, c->name, std::move(v));
    return Next();
  }

  // An integer literal for an integer column, a string for a string column; a partition column
  // takes either (its value is text, compared as a number with an integer).
  Status Literal(const FilterColumn& c, const std::string& text, bool quoted, int col, iceberg::Value* out) {
    std::string_view digits = text;
    if (!digits.empty() && digits[0] == '-') digits.remove_prefix(1);
    const bool integer = !quoted && !digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos;
    if (integer) {
      int64_t n = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
      if (ec != std::errc() || end != text.data() + text.size() || n < -kMaxLiteral || n > kMaxLiteral)
        return ctx_.Error(
            col, fmt::format("the filter value must be between {} and {}, got {}", -kMaxLiteral, kMaxLiteral, text));
      if (!c.integer && !c.partition) {
        return ctx_.Error(
            col, fmt::format("column \"{}\" holds strings, but {} is an integer (quote it: '{}')", c.name, text, text));
      }
      *out = n;
      return Status::OK();
    }
    if (c.integer) {
      return ctx_.Error(col, fmt::format("column \"{}\" holds integers, but \"{}\" is not one (expected digits with an "
                                         "optional -, or a range {}=LO..HI)",
                                         c.name, text, c.name));
    }
    *out = text;
    return Status::OK();
  }

  static std::string_view OpText(Op op) {
    switch (op) {
      case Op::kEqual: return "=";
      case Op::kNotEqual: return "!=";
      case Op::kLessThan: return "<";
      case Op::kLessThanOrEqual: return "<=";
      case Op::kGreaterThan: return ">";
      default: return ">=";
    }
  }

  const FilterColumn* Find(std::string_view name) const {
    for (const FilterColumn& c : columns_)
      if (c.name == name) return &c;
    return nullptr;
  }

  const LineContext& ctx_;
  std::string_view text_;
  int col_;
  const std::vector<FilterColumn>& columns_;
  std::string_view what_;
  size_t pos_ = 0;
  Word word_;
};

}  // namespace

Status ParseFilterExpression(const LineContext& ctx, std::string_view text, int col,
                             const std::vector<FilterColumn>& columns, std::string_view what,
                             iceberg::Expression* out) {
  return FilterParser(ctx, text, col, columns, what).Parse(out);
}

}  // namespace commitlab::scenarios::internal
