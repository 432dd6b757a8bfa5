// The helpers every protocol's step parsing shares (lang/step_parse.h).
#include "lang/step_parse.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commitlab/scenarios/parser.h"

namespace commitlab::scenarios::internal {

Status ForEachListItem(const LineContext& ctx, const Token& t,
                       const std::function<Status(std::string_view item, int col)>& item) {
  std::string_view rest = t.value;
  int col = t.value_col;
  size_t n = 0;
  while (true) {
    const size_t comma = rest.find(',');
    if (++n > kMaxListEntries)
      return ctx.Error(col, fmt::format("too many entries for key \"{}\" (at most {})", t.key, kMaxListEntries));
    COMMITLAB_RETURN_IF_ERROR(item(rest.substr(0, comma), col));
    if (comma == std::string_view::npos) return Status::OK();
    rest = rest.substr(comma + 1);
    col += static_cast<int>(comma) + 1;
  }
}

Status ParseNameList(const LineContext& ctx, const Token& t, std::string_view what, std::vector<std::string>* out) {
  return ForEachListItem(ctx, t, [&](std::string_view name, int col) {
    COMMITLAB_RETURN_IF_ERROR(CheckName(ctx, name, col, what));
    for (const std::string& n : *out)
      if (n == name) return ctx.Error(col, fmt::format("{} \"{}\" listed twice", what, name));
    out->emplace_back(name);
    return Status::OK();
  });
}

Status ParsePartition(const LineContext& ctx, int owner_col, const Token* t, const Table& table, std::string_view what,
                      std::string* out) {
  const std::string keys = fmt::format("{}", fmt::join(table.partition_keys, "=VALUE/"));
  if (t == nullptr) {
    if (table.partition_keys.empty()) return Status::OK();
    return ctx.Error(owner_col, fmt::format("missing required key \"partition\" for {} (table {} is partitioned: "
                                            "partition={}=VALUE)",
                                            what, table.name, keys));
  }
  if (table.partition_keys.empty()) {
    return ctx.Error(t->col, fmt::format("table {} is not partitioned (remove key \"partition\")", table.name));
  }
  // dt=2024-01-01/hr=1: the table's partition keys, in order, each with a non-empty value.
  std::string_view rest = t->value;
  for (size_t i = 0; i < table.partition_keys.size(); ++i) {
    const size_t slash = rest.find('/');
    const std::string_view part = rest.substr(0, slash);
    const size_t eq = part.find('=');
    const bool last = i + 1 == table.partition_keys.size();
    if (eq == std::string_view::npos || part.substr(0, eq) != table.partition_keys[i] || eq + 1 == part.size() ||
        last != (slash == std::string_view::npos)) {
      return ctx.Error(t->value_col, fmt::format("bad partition \"{}\" for table {} (expected {}=VALUE)", t->value,
                                                 table.name, keys));
    }
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
  }
  *out = t->value;
  return Status::OK();
}

Status ParseFilterValue(const LineContext& ctx, const Token* t, const Table& table, FilterSpec* out) {
  std::vector<FilterColumn> columns = {{"id", true, false}, {"name", false, false}, {"value", true, false}};
  for (const std::string& k : table.partition_keys) columns.push_back({k, false, true});
  out->text = t->value;
  return ParseFilterExpression(ctx, t->value, t->value_col, columns,
                               fmt::format("the filter column of table {}", table.name), &out->expr);
}

}  // namespace commitlab::scenarios::internal
