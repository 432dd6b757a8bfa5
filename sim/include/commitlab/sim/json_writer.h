// JsonWriter: one JSON value written straight into a string, member by member, with exactly the
// bytes nlohmann's dump(-1, ' ', false, replace) writes for the same members in the same order
// (so a history written this way is byte for byte the one a DOM per line wrote). A history line is
// written once and read rarely: building an ordered_json per event and serializing it was most of
// what --trace cost, and this builds nothing.
//
//   std::string s;
//   JsonWriter w(&s);
//   w.BeginObject().Str("type", "op_end").Int("t_us", 5).Key("plan").BeginObject().EndObject().EndObject();
//   w.Done();  // or let w go out of scope: s is then the object
//
// While it writes, the writer owns the string: it keeps it larger than what was written (so that a
// member is one bounds check and a copy, not a call into std::string per piece) and cuts it to
// size at Done() or when it goes away. The writer does not check the shape (a key outside an
// object, an unclosed object): its callers are a few fixed formatters, tested against the schema
// (docs/history.schema.json) and against nlohmann (json_writer_test.cc).
#ifndef COMMITLAB_SIM_JSON_WRITER_H_
#define COMMITLAB_SIM_JSON_WRITER_H_

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "commitlab/core/check.h"

namespace commitlab::sim {

// Whether `s` is written as a JSON string as it is, between quotes: no control character, '"',
// '\\' or byte beyond ASCII.
bool IsPlainJsonString(std::string_view s);

class JsonWriter {
 public:
  // Appends to `*out` (not owned), from its current end; with `overwrite`, from its start instead
  // (a buffer reused line after line: see Release).
  explicit JsonWriter(std::string* out, bool overwrite = false);
  JsonWriter(JsonWriter&& o) noexcept : out_(o.out_), len_(o.len_), comma_(o.comma_), done_(o.done_) { o.done_ = true; }
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;
  JsonWriter& operator=(JsonWriter&&) = delete;
  ~JsonWriter() {
    if (!done_) out_->resize(len_);
  }

  // The string, cut to what was written; the writer writes no more.
  std::string* Done() {
    out_->resize(len_);
    done_ = true;
    return out_;
  }
  // What was written, the string left as large as it grew (its tail is junk), so that the next
  // writer on it finds room without growing or clearing it; the writer writes no more.
  std::string_view Release() {
    done_ = true;
    return {out_->data(), len_};
  }
  // Hands what was written so far to `sink` (a callable taking std::string_view) and goes on writing
  // from the string's start: a long value written out in pieces, never held whole.
  template <typename Sink>
  void Drain(Sink&& sink) {
    sink(std::string_view(out_->data(), len_));
    len_ = 0;
  }
  // A byte outside JSON (a history line's newline).
  JsonWriter& Byte(char c) {
    Put(c);
    return *this;
  }

  JsonWriter& BeginObject() { return Open('{'); }
  JsonWriter& EndObject() { return Close('}'); }
  JsonWriter& BeginArray() { return Open('['); }
  JsonWriter& EndArray() { return Close(']'); }
  // The next value is this member's.
  JsonWriter& Key(std::string_view key);

  // Values: an array element, or the value of the Key before.
  JsonWriter& String(std::string_view v);
  // Inline (the digits are not): a line's numbers are written where its bytes go, no call between.
  JsonWriter& Int(int64_t v) {
    Separate();
    len_ += WriteDecimal(v, Room(20));  // "-9223372036854775808"
    comma_ = true;
    return *this;
  }
  JsonWriter& Uint(uint64_t v) {
    Separate();
    len_ += WriteDecimal(v, Room(20));  // "18446744073709551615"
    comma_ = true;
    return *this;
  }
  JsonWriter& Bool(bool v);
  JsonWriter& Null();
  // Any value (a header's settings, a footer's verdicts): walked, its strings written as String
  // writes them; a float as nlohmann dumps it.
  JsonWriter& Value(const nlohmann::ordered_json& v);

  // Members: the name, then the value. A member's name is written as it is, unescaped: pass the
  // names of a format (the history's "t_us", "writer", ...), never data; Key escapes.
  JsonWriter& Str(std::string_view name, std::string_view v) { return Name(name).String(v); }
  // A member whose value is one of the format's own words (an event type, an operation, a level):
  // written as it is, like Name, without the scan for bytes to escape. REQUIRES: `v` needs none
  // (checked in builds with asserts); pass Str anything that comes from data.
  JsonWriter& Word(std::string_view name, std::string_view v) {
    COMMITLAB_DCHECK(IsPlainJsonString(v), "a format's word needs no escaping");
    Name(name);
    QuotedAsIs(v);
    comma_ = true;
    return *this;
  }
  JsonWriter& Int(std::string_view name, int64_t v) { return Name(name).Int(v); }
  JsonWriter& Bool(std::string_view name, bool v) { return Name(name).Bool(v); }
  JsonWriter& Null(std::string_view name) { return Name(name).Null(); }
  JsonWriter& Value(std::string_view name, const nlohmann::ordered_json& v) { return Name(name).Value(v); }
  // A value already written as JSON (by another JsonWriter).
  JsonWriter& Raw(std::string_view name, std::string_view json) {
    Name(name);
    Put(json);
    comma_ = true;
    return *this;
  }
  // Key for a format's own member name: no escaping. REQUIRES: `name` needs none. Always inline
  // (GCC called it otherwise), so that a literal name is copied as a constant number of bytes.
  [[gnu::always_inline]] JsonWriter& Name(std::string_view name) {
    Separate();
    char* at = Room(name.size() + 3);
    at[0] = '"';
    Copy(at + 1, name);
    at[name.size() + 1] = '"';
    at[name.size() + 2] = ':';
    len_ += name.size() + 3;
    comma_ = false;
    return *this;
  }

 private:
  JsonWriter& Open(char c) {
    Separate();
    Put(c);
    comma_ = false;
    return *this;
  }
  JsonWriter& Close(char c) {
    Put(c);
    comma_ = true;
    return *this;
  }
  // The decimal digits of `v` (a '-' first when negative) at `to`, which has room for 20 bytes;
  // returns how many were written.
  static size_t WriteDecimal(int64_t v, char* to);
  static size_t WriteDecimal(uint64_t v, char* to);
  void Separate() {
    if (comma_) Put(',');
  }
  // Room for `n` more bytes past len_.
  char* Room(size_t n) {
    if (len_ + n > out_->size()) Grow(n);
    return out_->data() + len_;
  }
  void Grow(size_t n);
  void Put(char c) {
    *Room(1) = c;
    ++len_;
  }
  void Put(std::string_view s) {
    Copy(Room(s.size()), s);
    len_ += s.size();
  }
  // memcpy, without a call for the short pieces a line is made of.
  static void Copy(char* to, std::string_view s) {
    const size_t n = s.size();
    const char* from = s.data();
    if (n >= 8 && n <= 16) {  // two overlapping words
      std::memcpy(to, from, 8);
      std::memcpy(to + n - 8, from + n - 8, 8);
    } else if (n >= 4 && n < 8) {
      std::memcpy(to, from, 4);
      std::memcpy(to + n - 4, from + n - 4, 4);
    } else if (n < 4) {  // first, middle and last: all of them (a loop would become a call to memcpy)
      if (n == 0) return;
      to[0] = from[0];
      to[n / 2] = from[n / 2];
      to[n - 1] = from[n - 1];
    } else if (n <= 32) {  // two overlapping 16-byte blocks
      std::memcpy(to, from, 16);
      std::memcpy(to + n - 16, from + n - 16, 16);
    } else {
      std::memcpy(to, from, n);
    }
  }
  void Quoted(std::string_view s);
  // `s` between quotes, copied as it is. REQUIRES: IsPlainJsonString(s).
  void QuotedAsIs(std::string_view s) {
    char* at = Room(s.size() + 2);
    at[0] = '"';
    Copy(at + 1, s);
    at[s.size() + 1] = '"';
    len_ += s.size() + 2;
  }

  std::string* const out_;
  size_t len_;          // out_[0, len_) is written; the rest is room
  bool comma_ = false;  // a value was written at this level: the next one needs a comma
  bool done_ = false;
};

// Appends `s` as a JSON string literal, as nlohmann dumps it: \" \\ \b \f \n \r \t, other control
// characters as \u00XX (lowercase hex), everything else as it is, invalid UTF-8 replaced by U+FFFD.
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_JSON_WRITER_H_
