#include "commitlab/sim/json_writer.h"

#include <algorithm>
#include <array>
#include <bit>

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
// Read a word at a time; the last word overlaps what was read before, which changes nothing for a
// test of "any byte", and a short string is read as two overlapping halves (or its first, middle
// and last byte, which for 3 bytes or fewer are all of them), padded with plain 'a's.
bool Plain(std::string_view s) {
  const size_t n = s.size();
  const char* p = s.data();
  uint64_t v = 0x6161616161616161u;  // "aaaaaaaa"
  if (n < 4) {
    if (n == 0) return true;
    const uint64_t bytes = static_cast<uint64_t>(static_cast<unsigned char>(p[0])) |
                           static_cast<uint64_t>(static_cast<unsigned char>(p[n / 2])) << 8 |
                           static_cast<uint64_t>(static_cast<unsigned char>(p[n - 1])) << 16;
    return !NeedsEscape((v & ~uint64_t{0xffffff}) | bytes);
  }
  if (n < 8) {
    uint32_t head = 0, tail = 0;
    std::memcpy(&head, p, 4);
    std::memcpy(&tail, p + n - 4, 4);
    return !NeedsEscape(uint64_t{head} | uint64_t{tail} << 32);
  }
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::memcpy(&v, p + i, 8);
    if (NeedsEscape(v)) return false;
  }
  if (i == n) return true;
  std::memcpy(&v, p + n - 8, 8);  // the last 8, overlapping what was checked
  return !NeedsEscape(v);
}

// The length of the well-formed UTF-8 sequence that starts at s[i] (a byte beyond ASCII), or 0
// when it is not one: the Unicode Standard's table 3-7 ("Well-Formed UTF-8 Byte Sequences"), which
// is what nlohmann's decoder accepts (no overlong form, no surrogate, nothing past U+10FFFF).
size_t Utf8Length(std::string_view s, size_t i) {
  const auto at = [&s](size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
  const unsigned c = at(i);
  auto cont = [&at](size_t k, unsigned lo = 0x80, unsigned hi = 0xbf) { return at(k) >= lo && at(k) <= hi; };
  if (c >= 0xc2 && c <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const unsigned lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
    return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const unsigned lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
    return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

// The decimal digits of `u`, written backwards so that they end just before `end`, four at a time
// and each four as two pairs from a table (libstdc++'s to_chars takes two at a time, after counting
// the digits); returns where they start. `end` has 20 bytes before it.
char* DigitsBefore(uint64_t u, char* end) {
  static constexpr auto kPairs = [] {
    std::array<char, 200> pairs{};
    for (int i = 0; i < 100; ++i) {
      pairs[static_cast<size_t>(2 * i)] = static_cast<char>('0' + i / 10);
      pairs[static_cast<size_t>(2 * i + 1)] = static_cast<char>('0' + i % 10);
    }
    return pairs;
  }();
  while (u >= 10000) {
    const auto four = static_cast<uint32_t>(u % 10000);
    u /= 10000;
    end -= 4;
    std::memcpy(end, &kPairs[2 * (four / 100)], 2);
    std::memcpy(end + 2, &kPairs[2 * (four % 100)], 2);
  }
  auto rest = static_cast<uint32_t>(u);  // 0..9999
  if (rest >= 100) {
    end -= 2;
    std::memcpy(end, &kPairs[2 * (rest % 100)], 2);
    rest /= 100;
  }
  if (rest >= 10) {
    end -= 2;
    std::memcpy(end, &kPairs[2 * rest], 2);
  } else {
    *--end = static_cast<char>('0' + rest);
  }
  return end;
}

// nlohmann's own text for `s`: beyond ASCII it decodes UTF-8 and replaces what is invalid.
std::string DumpedString(std::string_view s) {
  return nlohmann::ordered_json(s).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace

bool IsPlainJsonString(std::string_view s) { return Plain(s); }

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

size_t JsonWriter::WriteDecimal(uint64_t v, char* to) {
  // The digit count from the bit width (log10(2) ~ 1233 / 4096), one too many below a power of 10.
  static constexpr std::array<uint64_t, 20> kPowers = [] {
    std::array<uint64_t, 20> p{};
    p[0] = 1;
    for (size_t i = 1; i < p.size(); ++i) p[i] = p[i - 1] * 10;
    return p;
  }();
  const auto t = static_cast<size_t>((std::bit_width(v) * 1233) >> 12);  // 0..19
  const size_t n = v == 0 ? 1 : t + 1 - (v < kPowers[t] ? 1 : 0);
  DigitsBefore(v, to + n);
  return n;
}

size_t JsonWriter::WriteDecimal(int64_t v, char* to) {
  if (v >= 0) return WriteDecimal(static_cast<uint64_t>(v), to);
  *to = '-';
  return 1 + WriteDecimal(0 - static_cast<uint64_t>(v), to + 1);
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

void JsonWriter::Quoted(std::string_view s) {
  if (Plain(s)) {
    QuotedAsIs(s);
    return;
  }
  const size_t start = len_;
  Put('"');
  size_t plain = 0;  // s[plain, i) is copied as it is, in one piece
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) continue;
    if (c >= 0x80) {  // a scenario's own words, a "…": copied as they are when well-formed
      const size_t n = Utf8Length(s, i);
      if (n == 0) {  // invalid UTF-8: nlohmann's replacement, for the whole string
        len_ = start;
        Put(DumpedString(s));
        return;
      }
      i += n - 1;
      continue;
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
