#include "commitlab/sim/json_writer.h"

#include <algorithm>
#include <charconv>

namespace commitlab::sim {
namespace {

// Whether any of the 8 bytes in `v` needs more than copying: a control character, '"', '\\' or a
// byte beyond ASCII (the bit tricks of "Bit Twiddling Hacks", "determine if a word has a byte less
// than n"; each is exact once no byte has its top bit set).
bool NeedsEscape(uint64_t v) {
  constexpr uint64_t kOnes = 0x0101010101010101u, kHigh = 0x8080808080808080u;
  auto has_zero = [](uint64_t x) { return ((x - kOnes) & ~x & kHigh) != 0; };
  if ((v & kHigh) != 0) return true;
  return ((v - kOnes * 0x20) & ~v & kHigh) != 0 || has_zero(v ^ (kOnes * '"')) || has_zero(v ^ (kOnes * '\\'));
}

// Whether every byte of `s` is copied as it is: a history's names and the engines' messages.
bool Plain(std::string_view s) {
  const size_t n = s.size();
  uint64_t v = 0;
  if (n < 8) {  // a short one, padded with plain 'a's
    char word[8] = {'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'};
    for (size_t i = 0; i < n; ++i) word[i] = s[i];
    std::memcpy(&v, word, 8);
    return !NeedsEscape(v);
  }
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::memcpy(&v, s.data() + i, 8);
    if (NeedsEscape(v)) return false;
  }
  if (i == n) return true;
  std::memcpy(&v, s.data() + n - 8, 8);  // the last 8, overlapping what was checked
  return !NeedsEscape(v);
}

// nlohmann's own text for `s`: beyond ASCII it decodes UTF-8 and replaces what is invalid.
std::string DumpedString(std::string_view s) {
  return nlohmann::ordered_json(s).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace

JsonWriter::JsonWriter(std::string* out, bool overwrite) : out_(out), len_(overwrite ? 0 : out->size()) {
  // Work in what the string has room for, at least 256 bytes. A buffer released by the writer
  // before is that large already: nothing to do.
  if (out_->size() < len_ + 256) out_->resize(std::max(out_->capacity(), len_ + 256));
}

void JsonWriter::Grow(size_t n) { out_->resize(std::max(2 * out_->size(), len_ + n)); }

JsonWriter& JsonWriter::Key(std::string_view key) {
  Separate();
  Quoted(key);
  Put(':');
  comma_ = false;
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view v) {
  Separate();
  Quoted(v);
  comma_ = true;
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t v) {
  Separate();
  char* at = Room(20);  // "-9223372036854775808"
  len_ += static_cast<size_t>(std::to_chars(at, at + 20, v).ptr - at);
  comma_ = true;
  return *this;
}

JsonWriter& JsonWriter::Uint(uint64_t v) {
  Separate();
  char* at = Room(20);  // "18446744073709551615"
  len_ += static_cast<size_t>(std::to_chars(at, at + 20, v).ptr - at);
  comma_ = true;
  return *this;
}

JsonWriter& JsonWriter::Bool(bool v) {
  Separate();
  Put(v ? std::string_view("true") : std::string_view("false"));
  comma_ = true;
  return *this;
}

JsonWriter& JsonWriter::Null() {
  Separate();
  Put(std::string_view("null"));
  comma_ = true;
  return *this;
}

JsonWriter& JsonWriter::Value(const nlohmann::ordered_json& v) {
  using Type = nlohmann::ordered_json::value_t;
  switch (v.type()) {
    case Type::object:
      BeginObject();
      for (const auto& [key, value] : v.items()) Key(key).Value(value);
      return EndObject();
    case Type::array:
      BeginArray();
      for (const nlohmann::ordered_json& e : v) Value(e);
      return EndArray();
    case Type::string: return String(v.get_ref<const std::string&>());
    case Type::number_integer: return Int(v.get<int64_t>());
    case Type::number_unsigned: return Uint(v.get<uint64_t>());
    case Type::boolean: return Bool(v.get<bool>());
    case Type::null: return Null();
    default:  // a float, a binary value: nlohmann's own way
      Separate();
      Put(v.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
      comma_ = true;
      return *this;
  }
}

JsonWriter& JsonWriter::Raw(std::string_view name, std::string_view json) {
  Name(name);
  Put(json);
  comma_ = true;
  return *this;
}

JsonWriter& JsonWriter::Name(std::string_view name) {
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

JsonWriter& JsonWriter::Open(char c) {
  Separate();
  Put(c);
  comma_ = false;
  return *this;
}

JsonWriter& JsonWriter::Close(char c) {
  Put(c);
  comma_ = true;
  return *this;
}

void JsonWriter::Quoted(std::string_view s) {
  if (Plain(s)) {
    char* at = Room(s.size() + 2);
    at[0] = '"';
    Copy(at + 1, s);
    at[s.size() + 1] = '"';
    len_ += s.size() + 2;
    return;
  }
  const size_t start = len_;
  Put('"');
  size_t plain = 0;  // s[plain, i) is copied as it is, in one piece
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) continue;
    if (c >= 0x80) {  // a scenario's own words: nlohmann's way, for the whole string
      len_ = start;
      Put(DumpedString(s));
      return;
    }
    Put(s.substr(plain, i - plain));
    plain = i + 1;
    switch (c) {
      case '"': Put(std::string_view("\\\"")); break;
      case '\\': Put(std::string_view("\\\\")); break;
      case '\b': Put(std::string_view("\\b")); break;
      case '\f': Put(std::string_view("\\f")); break;
      case '\n': Put(std::string_view("\\n")); break;
      case '\r': Put(std::string_view("\\r")); break;
      case '\t': Put(std::string_view("\\t")); break;
      default: {
        constexpr char kHex[] = "0123456789abcdef";
        const char escaped[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xf]};
        Put(std::string_view(escaped, sizeof escaped));
      }
    }
  }
  Put(s.substr(plain));
  Put('"');
}

void AppendJsonString(std::string_view s, std::string* out) {
  if (Plain(s)) {
    out->push_back('"');
    out->append(s);
    out->push_back('"');
    return;
  }
  JsonWriter(out).String(s);
}

}  // namespace commitlab::sim
