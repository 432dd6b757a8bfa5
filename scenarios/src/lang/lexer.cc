#include "lang/lexer.h"

#include <fmt/format.h>

namespace commitlab::scenarios::internal {
namespace {

bool IsSpace(unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
bool IsControl(unsigned char c) { return (c < 0x20 && !IsSpace(c)) || c == 0x7f; }
int Col(size_t i) { return static_cast<int>(i) + 1; }

Status ControlError(const LineContext& ctx, size_t i, unsigned char c) {
  return ctx.Error(Col(i), fmt::format("unexpected control character 0x{:02x}", c));
}

// Reads the string whose opening quote is at `q`; `*end` is the index after the closing quote.
Status ReadQuoted(const LineContext& ctx, std::string_view line, size_t q, std::string* out, size_t* end) {
  out->clear();
  for (size_t j = q + 1; j < line.size(); ++j) {
    const auto c = static_cast<unsigned char>(line[j]);
    if (c == '"') {
      *end = j + 1;
      return Status::OK();
    }
    if (c == '\\') {
      if (j + 1 < line.size() && (line[j + 1] == '"' || line[j + 1] == '\\')) {
        out->push_back(line[++j]);
        continue;
      }
      if (j + 1 < line.size()) return ctx.Error(Col(j), "unknown escape in quoted string (expected \\\" or \\\\)");
      break;  // a backslash at the end of the line: unterminated
    }
    if (IsControl(c)) return ControlError(ctx, j, c);
    out->push_back(static_cast<char>(c));
  }
  return ctx.Error(Col(q), "unterminated quoted string (expected a closing \" on the same line)");
}

// After a closing quote: the end of the line, a space, ';' or a comment.
Status ExpectSeparator(const LineContext& ctx, std::string_view line, size_t i) {
  if (i >= line.size() || IsSpace(static_cast<unsigned char>(line[i])) || line[i] == ';' || line[i] == '#')
    return Status::OK();
  return ctx.Error(Col(i), "expected a space after the closing quote");
}

}  // namespace

Status LineContext::Error(int col, std::string_view message) const {
  return Status::InvalidArgument(fmt::format("{}:{}:{}: {}", file_, line_, col, message));
}

Status TokenizeLine(const LineContext& ctx, std::string_view line, std::vector<Token>* out) {
  size_t i = 0;
  while (i < line.size()) {
    const auto c = static_cast<unsigned char>(line[i]);
    if (IsSpace(c)) {
      ++i;
      continue;
    }
    if (c == '#') break;
    if (IsControl(c)) return ControlError(ctx, i, c);
    Token t;
    t.col = Col(i);
    if (c == ';') {
      t.kind = Token::Kind::kSemicolon;
      t.text = ";";
      t.end_col = Col(++i);
      out->push_back(std::move(t));
      continue;
    }
    if (c == '"') {
      t.kind = Token::Kind::kString;
      size_t end = 0;
      COMMITLAB_RETURN_IF_ERROR(ReadQuoted(ctx, line, i, &t.text, &end));
      t.value = t.text;
      t.value_col = t.col + 1;
      i = end;
      COMMITLAB_RETURN_IF_ERROR(ExpectSeparator(ctx, line, i));
      t.end_col = Col(i);
      out->push_back(std::move(t));
      continue;
    }
    const size_t start = i;
    size_t eq = std::string_view::npos;
    bool quoted_value = false;
    while (i < line.size() && !IsSpace(static_cast<unsigned char>(line[i])) && line[i] != ';' && line[i] != '#') {
      const auto d = static_cast<unsigned char>(line[i]);
      if (IsControl(d)) return ControlError(ctx, i, d);
      if (d == '"') {
        if (eq == std::string_view::npos || eq == start || eq + 1 != i)
          return ctx.Error(Col(i), "unexpected '\"' inside a word (quote a whole value: key=\"...\")");
        size_t end = 0;
        COMMITLAB_RETURN_IF_ERROR(ReadQuoted(ctx, line, i, &t.value, &end));
        t.value_col = Col(i) + 1;
        quoted_value = true;
        t.value_quoted = true;
        i = end;
        COMMITLAB_RETURN_IF_ERROR(ExpectSeparator(ctx, line, i));
        break;
      }
      if (d == '=' && eq == std::string_view::npos) eq = i;
      ++i;
    }
    t.text = std::string(line.substr(start, i - start));
    t.end_col = Col(i);
    if (eq != std::string_view::npos && eq > start) {
      t.is_pair = true;
      t.key = std::string(line.substr(start, eq - start));
      if (!quoted_value) {
        t.value = std::string(line.substr(eq + 1, i - eq - 1));
        t.value_col = Col(eq + 1);
      }
    } else {
      t.value = t.text;
      t.value_col = t.col;
    }
    out->push_back(std::move(t));
  }
  return Status::OK();
}

}  // namespace commitlab::scenarios::internal
