#include "json_parse.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "commitlab/core/check.h"
#include "json_parse_error.h"
#include "json_syntax.h"

namespace commitlab::json_io {
namespace {

using nlohmann::json;

// Why `text` is not a document, for a text nlohmann refused or would wrongly accept: the first
// error commitlab's own checker finds, in its own words. `stop` (where nlohmann stopped) is named
// only if the two ever disagreed, which json_io_syntax_test and json_syntax_fuzz look for.
Status NotADocument(std::string_view text, size_t stop) {
  Status why = CheckSyntax(text, kMaxDepth);
  if (why.ok()) why = SyntaxErrorAt(text, "refused by nlohmann::json", std::min(stop, text.size()));
  COMMITLAB_CHECK(!why.ok(), "a text that is not a document is refused with a reason");
  return why;
}

// A pointer into the text that records how far nlohmann has read: its SAX events carry no
// position, and a duplicate key or a too deep nesting is only seen there.
class CountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* p, const char** read_to) : p_(p), read_to_(read_to) {}
  reference operator*() const { return *p_; }
  CountingIterator& operator++() {
    *read_to_ = ++p_;
    return *this;
  }
  bool operator==(const CountingIterator& other) const { return p_ == other.p_; }

 private:
  const char* p_;
  const char** read_to_;
};

// Builds the document from nlohmann's SAX events, adding the checks its DOM parser does not make.
class Builder final : public nlohmann::json_sax<json> {
 public:
  Builder(std::string_view text, const char* const* read_to) : text_(text), read_to_(read_to) {}

  bool null() override { return Put(nullptr); }
  bool boolean(bool b) override { return Put(b); }
  bool number_integer(number_integer_t i) override { return Put(i); }
  bool number_unsigned(number_unsigned_t u) override {
    // One integer type for the decoders; beyond int64 a number is a double.
    if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return Put(static_cast<double>(u));
    return Put(static_cast<int64_t>(u));
  }
  bool number_float(number_float_t d, const string_t& raw) override {
    // nlohmann reads a number too small for a double as 0; the reader it replaced used
    // std::from_chars, which calls that out of range. Past a float's last digit nlohmann has read
    // one more byte unless the text ended.
    const size_t end = Read() == text_.size() && IsDigit(text_.back()) ? Read() : Read() - 1;
    const size_t start = end - std::min(end, raw.size());
    if (NumberOutOfRange(text_.substr(start, end - start)))
      return Fail(SyntaxErrorAt(text_, "number out of range", start));
    return Put(d);
  }
  bool string(string_t& s) override { return Put(std::move(s)); }
  bool binary(binary_t&) override { return false; }  // only binary formats produce it

  bool start_object(std::size_t) override { return Open(json::object()); }
  bool start_array(std::size_t) override { return Open(json::array()); }
  bool end_object() override { return Close(); }
  bool end_array() override { return Close(); }

  bool key(string_t& k) override {
    // Jackson, like nlohmann, keeps the last of two equal keys; the reader this replaced refused
    // them, as a file that says two things is corrupt. The lexer has just read the closing quote.
    if (open_.back()->contains(k)) return Fail(DuplicateKeyError(text_, k, Read() - 1));
    key_ = std::move(k);
    return true;
  }

  // nlohmann refused the text. Of its report only the position is kept, for NotADocument's
  // fallback: its wording is the library's, and the checker finds the error from the text alone.
  bool parse_error(std::size_t position, const std::string&, const json::exception&) override {
    return Fail(NotADocument(text_, position == 0 ? 0 : position - 1));
  }

  const Status& error() const { return error_; }
  bool closed() const { return open_.empty(); }
  json TakeRoot() { return std::move(root_); }

 private:
  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }
  size_t Read() const { return static_cast<size_t>(*read_to_ - text_.data()); }

  bool Fail(Status error) {
    error_ = std::move(error);
    return false;
  }

  // Stores `v` where the parser is, returning where it went (for Open).
  json* Place(json v) {
    if (open_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    json& parent = *open_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return &parent.back();
    }
    json& slot = parent[std::move(key_)];
    slot = std::move(v);
    return &slot;
  }

  bool Put(json v) {
    Place(std::move(v));
    return true;
  }

  bool Open(json container) {
    // The lexer has just read the '{' or '['.
    if (open_.size() >= kMaxDepth) return Fail(TooDeepError(text_, kMaxDepth, Read() - 1));
    open_.push_back(Place(std::move(container)));
    return true;
  }

  bool Close() {
    COMMITLAB_CHECK(!open_.empty(), "nlohmann closes only a container it opened");
    open_.pop_back();
    return true;
  }

  std::string_view text_;
  const char* const* read_to_;
  json root_;
  std::vector<json*> open_;  // the containers being filled, innermost last; a parent is never
                             // appended to while a child is open, so the pointers stay valid
  std::string key_;
  Status error_;
};

}  // namespace

Result<json> Parse(std::string_view text) {
  // nlohmann skips a UTF-8 byte order mark; the reader it replaces did not, nor does RFC 8259 ask to.
  if (text.starts_with('\xEF')) return NotADocument(text, 0);
  const char* read_to = text.data();
  Builder builder(text, &read_to);
  const bool ok = json::sax_parse(CountingIterator(text.data(), &read_to),
                                  CountingIterator(text.data() + text.size(), &read_to), &builder);
  if (!ok) return builder.error();
  COMMITLAB_CHECK(builder.closed() && builder.error().ok(), "an accepted document closed every container it opened");
  // nlohmann's lexer takes a NUL byte for the end of the input, so it may have stopped early; a
  // NUL cannot be inside a string it accepted, so any NUL is after the document.
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) return NotADocument(text, nul);
  return builder.TakeRoot();
}

}  // namespace commitlab::json_io
