#include "json_syntax.h"

#include <fmt/format.h>

#include <charconv>
#include <cstddef>
#include <string>
#include <system_error>

#include "commitlab/core/check.h"
#include "json_parse_error.h"
#include "json_string_syntax.h"

namespace commitlab::json_io {
namespace {

bool IsDigit(int c) { return c >= '0' && c <= '9'; }

// One pass over a document, token by token. Between tokens either a value is due, or one has
// just ended inside the containers listed in open_ (each by its closing bracket, innermost last).
class Syntax {
 public:
  Syntax(std::string_view text, int max_depth) : text_(text), max_depth_(max_depth) {}

  Status Document() {
    bool value_due = true;
    do {
      COMMITLAB_RETURN_IF_ERROR(value_due ? BeginValue(&value_due) : AfterValue(&value_due));
    } while (value_due || !open_.empty());
    SkipSpace();
    if (pos_ < text_.size()) return Error("unexpected trailing data");
    return Status::OK();
  }

 private:
  // The byte at pos_, or -1 at the end of the text.
  int Peek() const { return pos_ < text_.size() ? static_cast<unsigned char>(text_[pos_]) : -1; }
  void SkipSpace() {
    while (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' || Peek() == '\r') ++pos_;
  }
  Status Error(std::string_view why) const { return SyntaxErrorAt(text_, why, pos_); }

  // Where a value is due: reads a scalar whole, or opens a container; *value_due stays true when
  // the container's first member comes next.
  Status BeginValue(bool* value_due) {
    SkipSpace();
    const int c = Peek();
    if (c != '[' && c != '{') {
      *value_due = false;
      return Scalar();
    }
    if (open_.size() >= static_cast<size_t>(max_depth_)) return TooDeepError(text_, max_depth_, pos_);
    const char close = c == '[' ? ']' : '}';
    ++pos_;
    SkipSpace();
    if (Peek() == close) {
      ++pos_;
      *value_due = false;
      return Status::OK();
    }
    open_.push_back(close);
    return close == '}' ? Key(/*first=*/true) : Status::OK();
  }

  // After a value inside a container: a ',' and the next member, or the container's end.
  Status AfterValue(bool* value_due) {
    SkipSpace();
    COMMITLAB_CHECK(!open_.empty(), "a value is followed by ',' or a bracket only inside a container");
    const char close = open_.back();
    if (Peek() == ',') {
      ++pos_;
      *value_due = true;
      return close == '}' ? Key(/*first=*/false) : Status::OK();
    }
    if (Peek() != close) return Error(close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
    ++pos_;
    open_.pop_back();
    return Status::OK();
  }

  // An object member's key and the ':' after it.
  Status Key(bool first) {
    SkipSpace();
    if (Peek() != '"') return Error(first ? "expected '\"' or '}'" : "expected '\"'");
    COMMITLAB_RETURN_IF_ERROR(ScanString(text_, &pos_));
    SkipSpace();
    if (Peek() != ':') return Error("expected ':'");
    ++pos_;
    return Status::OK();
  }

  Status Scalar() {
    switch (Peek()) {
      case '"': return ScanString(text_, &pos_);
      case 't': return Literal("true");
      case 'f': return Literal("false");
      case 'n': return Literal("null");
      default: break;
    }
    if (Peek() == '-' || IsDigit(Peek())) return Number();
    return Error("expected a value");
  }

  // A misspelt literal is named at its start; one the text cuts short, at the end.
  Status Literal(std::string_view word) {
    const size_t start = pos_;
    for (const char expected : word) {
      if (Peek() != expected) {
        return SyntaxErrorAt(text_, fmt::format("expected '{}'", word), Peek() == -1 ? text_.size() : start);
      }
      ++pos_;
    }
    return Status::OK();
  }

  // RFC 8259, section 6: '-'? ('0' | [1-9][0-9]*) ('.' [0-9]+)? ([eE] [+-]? [0-9]+)?. A byte
  // that breaks it is named where it stands; a number out of range, at its start.
  Status Number() {
    const size_t start = pos_;
    if (Peek() == '-') ++pos_;
    if (Peek() == '0') {
      ++pos_;  // a leading zero stands alone: a digit after it is a token of its own
    } else {
      COMMITLAB_RETURN_IF_ERROR(Digits());
    }
    if (Peek() == '.') {
      ++pos_;
      COMMITLAB_RETURN_IF_ERROR(Digits());
    }
    if (Peek() == 'e' || Peek() == 'E') {
      ++pos_;
      if (Peek() == '+' || Peek() == '-') ++pos_;
      COMMITLAB_RETURN_IF_ERROR(Digits());
    }
    if (NumberOutOfRange(text_.substr(start, pos_ - start))) return SyntaxErrorAt(text_, "number out of range", start);
    return Status::OK();
  }

  // One or more digits.
  Status Digits() {
    if (!IsDigit(Peek())) return Error("expected a digit");
    while (IsDigit(Peek())) ++pos_;
    return Status::OK();
  }

  std::string_view text_;
  int max_depth_;
  size_t pos_ = 0;
  std::string open_;
};

}  // namespace

Status CheckSyntax(std::string_view text, int max_depth) { return Syntax(text, max_depth).Document(); }

bool NumberOutOfRange(std::string_view number) {
  double ignored = 0;
  return std::from_chars(number.data(), number.data() + number.size(), ignored).ec == std::errc::result_out_of_range;
}

}  // namespace commitlab::json_io
