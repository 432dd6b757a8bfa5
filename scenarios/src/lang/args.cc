#include "lang/args.h"

#include <fmt/format.h>

#include <charconv>

#include "commitlab/scenarios/parser.h"

namespace commitlab::scenarios::internal {

std::string JoinNames(std::span<const std::string_view> names) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

Status ParseInt(const LineContext& ctx, std::string_view text, int col, std::string_view what, int64_t lo, int64_t hi,
                int64_t* out) {
  int64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  const bool digits_only = !text.empty() && ptr == end;
  if (ec == std::errc::result_out_of_range && digits_only)
    return ctx.Error(col, fmt::format("{} must be between {} and {}, got {}", what, lo, hi, text));
  if (ec != std::errc() || !digits_only)
    return ctx.Error(col, fmt::format("expected an integer for {}, got \"{}\"", what, text));
  if (v < lo || v > hi) return ctx.Error(col, fmt::format("{} must be between {} and {}, got {}", what, lo, hi, v));
  *out = v;
  return Status::OK();
}

Status ParseUint64(const LineContext& ctx, std::string_view text, int col, std::string_view what, uint64_t* out) {
  uint64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  const bool digits_only = !text.empty() && ptr == end;
  if (ec == std::errc::result_out_of_range && digits_only) {
    return ctx.Error(col, fmt::format("{} must be between 0 and {}, got {}", what, UINT64_MAX, text));
  }
  if (ec != std::errc() || !digits_only)
    return ctx.Error(col, fmt::format("expected an integer for {}, got \"{}\"", what, text));
  *out = v;
  return Status::OK();
}

Status ParseRange(const LineContext& ctx, std::string_view text, int col, std::string_view what, int64_t lo, int64_t hi,
                  int64_t* out_lo, int64_t* out_hi) {
  const size_t dots = text.find("..");
  if (dots == std::string_view::npos)
    return ctx.Error(col, fmt::format("expected a range LO..HI for {}, got \"{}\"", what, text));
  int64_t a = 0, b = 0;
  COMMITLAB_RETURN_IF_ERROR(ParseInt(ctx, text.substr(0, dots), col, what, lo, hi, &a));
  COMMITLAB_RETURN_IF_ERROR(ParseInt(ctx, text.substr(dots + 2), col + static_cast<int>(dots) + 2, what, lo, hi, &b));
  if (a > b) return ctx.Error(col, fmt::format("range {}..{} for {} is empty (LO must not exceed HI)", a, b, what));
  *out_lo = a;
  *out_hi = b;
  return Status::OK();
}

bool IsName(std::string_view text) {
  if (text.empty() || text.size() > kMaxNameBytes || text[0] == '-') return false;
  for (char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

bool IsRefName(std::string_view text) {
  const size_t open = text.find('[');
  if (open == std::string_view::npos) return IsName(text);
  if (text.back() != ']' || open + 2 >= text.size()) return false;
  for (char c : text.substr(open + 1, text.size() - open - 2))
    if (c < '0' || c > '9') return false;
  return IsName(text.substr(0, open));
}

Status CheckName(const LineContext& ctx, std::string_view text, int col, std::string_view what) {
  if (IsName(text)) return Status::OK();
  return ctx.Error(col, fmt::format("invalid {} \"{}\" (expected letters, digits, '-' and '_', not starting with "
                                    "'-', at most {} bytes)",
                                    what, text, kMaxNameBytes));
}

Status ParseChoice(const LineContext& ctx, std::string_view text, int col, std::string_view what,
                   std::span<const std::string_view> choices, size_t* out) {
  for (size_t i = 0; i < choices.size(); ++i) {
    if (choices[i] == text) {
      *out = i;
      return Status::OK();
    }
  }
  return ctx.Error(col, fmt::format("expected one of {} for {}, got \"{}\"", JoinNames(choices), what, text));
}

Status NoMoreTokens(const LineContext& ctx, Tokens tokens, size_t from, std::string_view after) {
  if (from >= tokens.size()) return Status::OK();
  return ctx.Error(tokens[from].col, fmt::format("unexpected \"{}\" after {}", tokens[from].text, after));
}

Status Args::Collect(const LineContext& ctx, int owner_col, Tokens tokens, std::string_view what,
                     std::span<const std::string_view> allowed, Args* out) {
  out->ctx_ = &ctx;
  out->owner_col_ = owner_col;
  out->what_ = std::string(what);
  out->tokens_.clear();
  for (const Token& t : tokens) {
    if (!t.is_pair) return ctx.Error(t.col, fmt::format("expected key=value for {}, got \"{}\"", what, t.text));
    bool known = false;
    for (std::string_view a : allowed) known = known || a == t.key;
    if (!known) {
      return ctx.Error(t.col,
                       fmt::format("unknown key \"{}\" for {} (expected one of {})", t.key, what, JoinNames(allowed)));
    }
    if (out->Find(t.key) != nullptr) return ctx.Error(t.col, fmt::format("duplicate key \"{}\" for {}", t.key, what));
    if (t.value.empty() && !t.value_quoted)
      return ctx.Error(t.value_col, fmt::format("missing value for key \"{}\"", t.key));
    out->tokens_.push_back(&t);
  }
  return Status::OK();
}

const Token* Args::Find(std::string_view key) const {
  for (const Token* t : tokens_)
    if (t->key == key) return t;
  return nullptr;
}

Status Args::Require(std::string_view key, const Token** out) const {
  *out = Find(key);
  if (*out != nullptr) return Status::OK();
  return ctx_->Error(owner_col_, fmt::format("missing required key \"{}\" for {}", key, what_));
}

Status Args::Int(std::string_view key, int64_t lo, int64_t hi, int64_t* out) const {
  const Token* t = Find(key);
  if (t == nullptr) return Status::OK();
  return ParseInt(*ctx_, t->value, t->value_col, fmt::format("key \"{}\"", key), lo, hi, out);
}

Status Args::Int32(std::string_view key, int32_t lo, int32_t hi, int32_t* out) const {
  int64_t v = *out;
  COMMITLAB_RETURN_IF_ERROR(Int(key, lo, hi, &v));
  *out = static_cast<int32_t>(v);
  return Status::OK();
}

Status Args::Bool(std::string_view key, bool* out) const {
  const Token* t = Find(key);
  if (t == nullptr) return Status::OK();
  if (t->value == "true" || t->value == "false") {
    *out = t->value == "true";
    return Status::OK();
  }
  return ctx_->Error(t->value_col, fmt::format("expected true or false for key \"{}\", got \"{}\"", key, t->value));
}

Status Args::Name(std::string_view key, std::string_view what, std::string* out) const {
  const Token* t = Find(key);
  if (t == nullptr) return Status::OK();
  COMMITLAB_RETURN_IF_ERROR(CheckName(*ctx_, t->value, t->value_col, what));
  *out = t->value;
  return Status::OK();
}

Status Args::Choice(std::string_view key, std::span<const std::string_view> choices, size_t* out) const {
  const Token* t = Find(key);
  if (t == nullptr) return Status::OK();
  return ParseChoice(*ctx_, t->value, t->value_col, fmt::format("key \"{}\"", key), choices, out);
}

}  // namespace commitlab::scenarios::internal
