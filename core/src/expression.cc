#include "commitlab/core/expression.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "commitlab/core/check.h"

namespace commitlab {
namespace {

using Op = Expression::Op;

Op Negated(Op op) {
  switch (op) {
    case Op::kAlwaysTrue: return Op::kAlwaysFalse;
    case Op::kAlwaysFalse: return Op::kAlwaysTrue;
    case Op::kEqual: return Op::kNotEqual;
    case Op::kNotEqual: return Op::kEqual;
    case Op::kLessThan: return Op::kGreaterThanOrEqual;
    case Op::kLessThanOrEqual: return Op::kGreaterThan;
    case Op::kGreaterThan: return Op::kLessThanOrEqual;
    case Op::kGreaterThanOrEqual: return Op::kLessThan;
    case Op::kAnd: return Op::kOr;
    case Op::kOr: return Op::kAnd;
    case Op::kNot: return Op::kNot;
  }
  return op;
}

void Collect(const Expression& e, std::vector<std::string>* out) {
  if (e.IsComparison()) {
    if (std::find(out->begin(), out->end(), e.column) == out->end()) out->push_back(e.column);
    return;
  }
  for (const Expression& c : e.children) Collect(c, out);
}

}  // namespace

std::string FormatValue(const Value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return fmt::format("\"{}\"", *s);
  return fmt::format("{}", std::get<int64_t>(v));
}

std::string RawValue(const Value& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  return fmt::format("{}", std::get<int64_t>(v));
}

std::string_view ComparisonSymbol(Op op) {
  switch (op) {
    case Op::kEqual: return "==";
    case Op::kNotEqual: return "!=";
    case Op::kLessThan: return "<";
    case Op::kLessThanOrEqual: return "<=";
    case Op::kGreaterThan: return ">";
    case Op::kGreaterThanOrEqual: return ">=";
    default: return "?";
  }
}

std::map<std::string, std::string> ParsePartition(std::string_view partition) {
  std::map<std::string, std::string> out;
  while (!partition.empty()) {
    const size_t slash = partition.find('/');
    const std::string_view part = partition.substr(0, slash);
    const size_t eq = part.find('=');
    if (eq != std::string_view::npos) out.emplace(part.substr(0, eq), part.substr(eq + 1));
    if (slash == std::string_view::npos) break;
    partition.remove_prefix(slash + 1);
  }
  return out;
}

std::optional<Value> PartitionValue(const std::string& column, const Value& literal, std::string_view partition) {
  std::map<std::string, std::string> values = ParsePartition(partition);
  auto it = values.find(column);
  std::optional<Value> out;
  if (it == values.end()) return out;
  std::string& text = it->second;
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (std::holds_alternative<std::string>(literal) || ec != std::errc() || end != text.data() + text.size()) {
    out.emplace(std::in_place_type<std::string>, std::move(text));
  } else {
    out.emplace(std::in_place_type<int64_t>, n);
  }
  return out;
}

bool CompareValues(Op op, const Value& v, const Value& lit) {
  if (v.index() != lit.index()) return op == Op::kNotEqual;
  switch (op) {
    case Op::kEqual: return v == lit;
    case Op::kNotEqual: return v != lit;
    case Op::kLessThan: return v < lit;
    case Op::kLessThanOrEqual: return !(lit < v);
    case Op::kGreaterThan: return lit < v;
    case Op::kGreaterThanOrEqual: return !(v < lit);
    default: return false;
  }
}

Expression RewriteNot(const Expression& e) {
  COMMITLAB_CHECK(e.children.size() == OperandCount(e.op),
                  "a filter's and/or have two operands, its not one: rewriteNot reads them unchecked");
  if (e.op == Op::kNot) {
    const Expression& inner = e.children[0];
    if (inner.op == Op::kNot) return RewriteNot(inner.children[0]);
    if (inner.op == Op::kAnd || inner.op == Op::kOr) {
      return {Negated(inner.op),
              {},
              {},
              {RewriteNot(Expression::Not(inner.children[0])), RewriteNot(Expression::Not(inner.children[1]))}};
    }
    COMMITLAB_CHECK(inner.children.empty(), "a negated leaf is a comparison or a constant: not, and, or are above");
    return {Negated(inner.op), inner.column, inner.value};
  }
  if (e.op == Op::kAnd || e.op == Op::kOr)
    return {e.op, {}, {}, {RewriteNot(e.children[0]), RewriteNot(e.children[1])}};
  return e;
}

bool RowMatches(const Expression& e, const Row& row, std::string_view partition) {
  // After rewriteNot, as the metrics evaluators see it: a null fails not(id < 5) as it fails id >= 5.
  return EvaluateExpression(RewriteNot(e), [&](const Expression& leaf) {
    auto it = row.find(leaf.column);
    if (it != row.end()) return CompareValues(leaf.op, it->second, leaf.value);
    if (std::optional<Value> p = PartitionValue(leaf.column, leaf.value, partition))
      return CompareValues(leaf.op, *p, leaf.value);
    return leaf.op == Op::kNotEqual;  // null
  });
}

std::vector<std::string> ReferencedColumns(const Expression& e) {
  std::vector<std::string> out;
  Collect(e, &out);
  return out;
}

}  // namespace commitlab
