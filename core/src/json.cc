#include "commitlab/core/json.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <functional>
#include <set>
#include <system_error>

namespace commitlab {

std::string JsonQuote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (char ch : s) {
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(ch)));
        } else {
          out += ch;
        }
    }
  }
  out += '"';
  return out;
}

// ---------------------------------------------------------------------------------------------
// JsonValue

JsonValue JsonValue::Bool(bool b) {
  JsonValue v;
  v.type_ = Type::kBool;
  v.bool_ = b;
  return v;
}

JsonValue JsonValue::Int(int64_t i) {
  JsonValue v;
  v.type_ = Type::kInt;
  v.int_ = i;
  return v;
}

JsonValue JsonValue::Double(double d) {
  JsonValue v;
  v.type_ = Type::kDouble;
  v.double_ = d;
  return v;
}

JsonValue JsonValue::String(std::string s) {
  JsonValue v;
  v.type_ = Type::kString;
  v.string_ = std::move(s);
  return v;
}

JsonValue JsonValue::EmptyArray() {
  JsonValue v;
  v.type_ = Type::kArray;
  return v;
}

JsonValue JsonValue::EmptyObject() {
  JsonValue v;
  v.type_ = Type::kObject;
  return v;
}

double JsonValue::as_double() const {
  if (type_ == Type::kDouble) return double_;
  if (type_ == Type::kInt) return static_cast<double>(int_);
  return 0;
}

const std::string& JsonValue::as_string() const {
  static const std::string* const kEmpty = new std::string();
  return type_ == Type::kString ? string_ : *kEmpty;
}

const JsonValue::Array& JsonValue::as_array() const {
  static const Array* const kEmpty = new Array();
  return type_ == Type::kArray ? array_ : *kEmpty;
}

const JsonValue::Object& JsonValue::as_object() const {
  static const Object* const kEmpty = new Object();
  return type_ == Type::kObject ? object_ : *kEmpty;
}

const JsonValue* JsonValue::Find(std::string_view key) const {
  if (type_ != Type::kObject) return nullptr;
  for (const Member& m : object_)
    if (m.first == key) return &m.second;
  return nullptr;
}

void JsonValue::Append(JsonValue v) {
  if (type_ == Type::kNull) type_ = Type::kArray;
  if (type_ == Type::kArray) array_.push_back(std::move(v));
}

void JsonValue::Set(std::string key, JsonValue v) {
  if (type_ == Type::kNull) type_ = Type::kObject;
  if (type_ != Type::kObject) return;
  for (Member& m : object_) {
    if (m.first == key) {
      m.second = std::move(v);
      return;
    }
  }
  object_.emplace_back(std::move(key), std::move(v));
}

bool JsonValue::operator==(const JsonValue& other) const {
  if (type_ != other.type_) return false;
  switch (type_) {
    case Type::kNull: return true;
    case Type::kBool: return bool_ == other.bool_;
    case Type::kInt: return int_ == other.int_;
    case Type::kDouble: return double_ == other.double_;
    case Type::kString: return string_ == other.string_;
    case Type::kArray: return array_ == other.array_;
    case Type::kObject: return object_ == other.object_;
  }
  return false;
}

std::string_view JsonTypeName(JsonValue::Type t) {
  switch (t) {
    case JsonValue::Type::kNull: return "null";
    case JsonValue::Type::kBool: return "boolean";
    case JsonValue::Type::kInt: return "integer";
    case JsonValue::Type::kDouble: return "number";
    case JsonValue::Type::kString: return "string";
    case JsonValue::Type::kArray: return "array";
    case JsonValue::Type::kObject: return "object";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------
// Parser: recursive descent over bytes. Depth is capped, so recursion cannot exhaust the stack.

namespace {

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xC0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xE0 | (cp >> 12));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (cp >> 18));
    *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace

namespace json_internal {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Result<JsonValue> ParseDocument() {
    JsonValue v;
    COMMITLAB_RETURN_IF_ERROR(ParseValue(&v));
    SkipSpace();
    if (!AtEnd()) return Error("unexpected trailing data");
    return v;
  }

 private:
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return text_[pos_]; }  // REQUIRES: !AtEnd()

  void SkipSpace() {
    while (!AtEnd() && IsJsonSpace(Peek())) ++pos_;
  }

  // An error at the current position; running out of text is what makes JSON "truncated".
  Status Error(std::string_view why) const { return ErrorAt(why, pos_); }
  Status ErrorAt(std::string_view why, size_t offset) const {
    const char* kind = offset >= text_.size() ? "truncated JSON" : "invalid JSON";
    return Status::InvalidArgument(fmt::format("{}: {} at offset {}", kind, why, offset));
  }

  Status ParseValue(JsonValue* out) {
    SkipSpace();
    if (AtEnd()) return Error("expected a value");
    switch (Peek()) {
      case '{': return ParseObject(out);
      case '[': return ParseArray(out);
      case '"': {
        std::string s;
        COMMITLAB_RETURN_IF_ERROR(ParseString(&s));
        *out = JsonValue::String(std::move(s));
        return Status::OK();
      }
      case 't': return ParseLiteral("true", JsonValue::Bool(true), out);
      case 'f': return ParseLiteral("false", JsonValue::Bool(false), out);
      case 'n': return ParseLiteral("null", JsonValue(), out);
      default:
        if (Peek() == '-' || IsDigit(Peek())) return ParseNumber(out);
        return Error("expected a value");
    }
  }

  Status ParseLiteral(std::string_view word, JsonValue value, JsonValue* out) {
    const size_t start = pos_;
    for (char expected : word) {
      if (AtEnd() || Peek() != expected) {
        return AtEnd() ? Error(fmt::format("expected '{}'", word))
                       : ErrorAt(fmt::format("expected '{}'", word), start);
      }
      ++pos_;
    }
    *out = std::move(value);
    return Status::OK();
  }

  // Consumes one or more digits.
  Status ParseDigits() {
    if (AtEnd() || !IsDigit(Peek())) return Error("expected a digit");
    while (!AtEnd() && IsDigit(Peek())) ++pos_;
    return Status::OK();
  }

  Status ParseNumber(JsonValue* out) {
    const size_t start = pos_;
    if (Peek() == '-') ++pos_;
    if (AtEnd() || !IsDigit(Peek())) return Error("expected a digit");
    if (Peek() == '0') {
      ++pos_;  // a leading zero stands alone; what follows is judged by the caller
    } else {
      COMMITLAB_RETURN_IF_ERROR(ParseDigits());
    }
    bool integral = true;
    if (!AtEnd() && Peek() == '.') {
      integral = false;
      ++pos_;
      COMMITLAB_RETURN_IF_ERROR(ParseDigits());
    }
    if (!AtEnd() && (Peek() == 'e' || Peek() == 'E')) {
      integral = false;
      ++pos_;
      if (!AtEnd() && (Peek() == '+' || Peek() == '-')) ++pos_;
      COMMITLAB_RETURN_IF_ERROR(ParseDigits());
    }
    const char* first = text_.data() + start;
    const char* last = text_.data() + pos_;
    if (integral) {
      int64_t i = 0;
      auto [ptr, ec] = std::from_chars(first, last, i);
      if (ec == std::errc() && ptr == last) {
        *out = JsonValue::Int(i);
        return Status::OK();
      }
      // Out of int64 range: keep it as a (rounded) double like most readers do.
    }
    double d = 0;
    auto [ptr, ec] = std::from_chars(first, last, d);
    if (ec == std::errc::result_out_of_range) return ErrorAt("number out of range", start);
    if (ec != std::errc() || ptr != last) return ErrorAt("invalid number", start);
    *out = JsonValue::Double(d);
    return Status::OK();
  }

  // Reads the 4 hex digits of a \u escape whose backslash is at `escape_start`.
  Status ParseHex4(size_t escape_start, uint32_t* out) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      if (AtEnd()) return Error("expected 4 hex digits after '\\u'");
      const int h = HexValue(Peek());
      if (h < 0) return ErrorAt("expected 4 hex digits after '\\u'", escape_start);
      v = v * 16 + static_cast<uint32_t>(h);
      ++pos_;
    }
    *out = v;
    return Status::OK();
  }

  // After "\u": one code point, joining a surrogate pair; pos_ is just past the 'u'.
  Status ParseUnicodeEscape(size_t escape_start, std::string* out) {
    uint32_t cp = 0;
    COMMITLAB_RETURN_IF_ERROR(ParseHex4(escape_start, &cp));
    if (cp >= 0xDC00 && cp <= 0xDFFF)
      return ErrorAt(fmt::format("unpaired surrogate \\u{:04x}", cp), escape_start);
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      const size_t low_start = pos_;
      if (text_.substr(pos_, 2) != "\\u") {
        const std::string_view rest = text_.substr(pos_);
        if (rest.size() < 2 && std::string_view("\\u").starts_with(rest))
          return ErrorAt("expected a low surrogate", text_.size());
        return ErrorAt(fmt::format("unpaired surrogate \\u{:04x}", cp), escape_start);
      }
      pos_ += 2;
      uint32_t low = 0;
      COMMITLAB_RETURN_IF_ERROR(ParseHex4(low_start, &low));
      if (low < 0xDC00 || low > 0xDFFF)
        return ErrorAt(fmt::format("unpaired surrogate \\u{:04x}", cp), escape_start);
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    AppendUtf8(cp, out);
    return Status::OK();
  }

  Status ParseEscape(std::string* out) {
    const size_t escape_start = pos_;
    ++pos_;  // the backslash
    if (AtEnd()) return Error("expected an escape character");
    const char c = Peek();
    ++pos_;
    switch (c) {
      case '"': *out += '"'; return Status::OK();
      case '\\': *out += '\\'; return Status::OK();
      case '/': *out += '/'; return Status::OK();
      case 'b': *out += '\b'; return Status::OK();
      case 'f': *out += '\f'; return Status::OK();
      case 'n': *out += '\n'; return Status::OK();
      case 'r': *out += '\r'; return Status::OK();
      case 't': *out += '\t'; return Status::OK();
      case 'u': return ParseUnicodeEscape(escape_start, out);
      default: break;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7F)
      return ErrorAt(fmt::format("invalid escape '\\' followed by byte 0x{:02x}", byte), escape_start);
    return ErrorAt(fmt::format("invalid escape '\\{}'", c), escape_start);
  }

  // REQUIRES: Peek() == '"'.
  Status ParseString(std::string* out) {
    ++pos_;
    while (true) {
      if (AtEnd()) return Error("expected '\"'");
      const char c = Peek();
      if (c == '"') {
        ++pos_;
        return Status::OK();
      }
      if (c == '\\') {
        COMMITLAB_RETURN_IF_ERROR(ParseEscape(out));
        continue;
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        return Error(fmt::format("unescaped control character 0x{:02x} in string",
                                 static_cast<unsigned>(static_cast<unsigned char>(c))));
      }
      *out += c;
      ++pos_;
    }
  }

  Status Enter() {
    if (++depth_ > kMaxJsonDepth) return Error(fmt::format("nesting deeper than {}", kMaxJsonDepth));
    return Status::OK();
  }

  // REQUIRES: Peek() == '['.
  Status ParseArray(JsonValue* out) {
    COMMITLAB_RETURN_IF_ERROR(Enter());
    ++pos_;
    *out = JsonValue::EmptyArray();
    SkipSpace();
    if (!AtEnd() && Peek() == ']') {
      ++pos_;
      --depth_;
      return Status::OK();
    }
    while (true) {
      JsonValue element;
      COMMITLAB_RETURN_IF_ERROR(ParseValue(&element));
      out->Append(std::move(element));
      SkipSpace();
      if (AtEnd() || (Peek() != ',' && Peek() != ']')) return Error("expected ',' or ']'");
      if (Peek() == ']') break;
      ++pos_;
    }
    ++pos_;
    --depth_;
    return Status::OK();
  }

  // REQUIRES: Peek() == '{'.
  Status ParseObject(JsonValue* out) {
    COMMITLAB_RETURN_IF_ERROR(Enter());
    ++pos_;
    *out = JsonValue::EmptyObject();
    SkipSpace();
    if (!AtEnd() && Peek() == '}') {
      ++pos_;
      --depth_;
      return Status::OK();
    }
    std::set<std::string, std::less<>> keys;  // JsonValue::Find is linear: huge objects stay fast
    while (true) {
      COMMITLAB_RETURN_IF_ERROR(ParseMember(&keys, out));
      SkipSpace();
      if (AtEnd() || (Peek() != ',' && Peek() != '}')) return Error("expected ',' or '}'");
      if (Peek() == '}') break;
      ++pos_;
    }
    ++pos_;
    --depth_;
    return Status::OK();
  }

  // One "key": value pair of an object.
  Status ParseMember(std::set<std::string, std::less<>>* keys, JsonValue* object) {
    SkipSpace();
    if (AtEnd() || Peek() != '"') return Error(keys->empty() ? "expected '\"' or '}'" : "expected '\"'");
    const size_t key_start = pos_;
    std::string key;
    COMMITLAB_RETURN_IF_ERROR(ParseString(&key));
    if (!keys->insert(key).second)
      return ErrorAt(fmt::format("duplicate key {}", JsonQuote(key)), key_start);
    SkipSpace();
    if (AtEnd() || Peek() != ':') return Error("expected ':'");
    ++pos_;
    JsonValue value;
    COMMITLAB_RETURN_IF_ERROR(ParseValue(&value));
    object->object_.emplace_back(std::move(key), std::move(value));
    return Status::OK();
  }

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace json_internal

namespace {

void WriteJson(const JsonValue& v, std::string* out) {
  switch (v.type()) {
    case JsonValue::Type::kNull: *out += "null"; return;
    case JsonValue::Type::kBool: *out += v.as_bool() ? "true" : "false"; return;
    case JsonValue::Type::kInt: *out += fmt::format("{}", v.as_int()); return;
    case JsonValue::Type::kDouble: {
      const double d = v.as_double();
      if (!std::isfinite(d)) {
        *out += "null";
        return;
      }
      std::string s = fmt::format("{}", d);  // shortest text that reads back as d
      // Keep it a double when read back: "1" would come back as an integer.
      if (s.find_first_of(".eE") == std::string::npos) s += ".0";
      *out += s;
      return;
    }
    case JsonValue::Type::kString: *out += JsonQuote(v.as_string()); return;
    case JsonValue::Type::kArray: {
      *out += '[';
      bool first = true;
      for (const JsonValue& e : v.as_array()) {
        if (!first) *out += ',';
        first = false;
        WriteJson(e, out);
      }
      *out += ']';
      return;
    }
    case JsonValue::Type::kObject: {
      *out += '{';
      bool first = true;
      for (const JsonValue::Member& m : v.as_object()) {
        if (!first) *out += ',';
        first = false;
        *out += JsonQuote(m.first);
        *out += ':';
        WriteJson(m.second, out);
      }
      *out += '}';
      return;
    }
  }
}

Status WrongType(std::string_view key, std::string_view want, const JsonValue& got) {
  return Status::InvalidArgument(
      fmt::format("field {} must be {}, got {}", JsonQuote(key), want, JsonTypeName(got.type())));
}

}  // namespace

Result<JsonValue> ParseJson(std::string_view text) { return json_internal::Parser(text).ParseDocument(); }

std::string ToJson(const JsonValue& v) {
  std::string out;
  WriteJson(v, &out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Field accessors

Result<const JsonValue*> GetField(const JsonValue& obj, std::string_view key) {
  if (!obj.is_object())
    return Status::InvalidArgument(fmt::format("expected an object, got {}", JsonTypeName(obj.type())));
  const JsonValue* v = obj.Find(key);
  if (v == nullptr) return Status::InvalidArgument(fmt::format("field {} is missing", JsonQuote(key)));
  return v;
}

Result<int64_t> GetInt(const JsonValue& obj, std::string_view key) {
  Result<const JsonValue*> v = GetField(obj, key);
  if (!v.ok()) return v.status();
  if (!(*v)->is_int()) return WrongType(key, "an integer", **v);
  return (*v)->as_int();
}

Result<double> GetNumber(const JsonValue& obj, std::string_view key) {
  Result<const JsonValue*> v = GetField(obj, key);
  if (!v.ok()) return v.status();
  if (!(*v)->is_number()) return WrongType(key, "a number", **v);
  return (*v)->as_double();
}

Result<bool> GetBool(const JsonValue& obj, std::string_view key) {
  Result<const JsonValue*> v = GetField(obj, key);
  if (!v.ok()) return v.status();
  if (!(*v)->is_bool()) return WrongType(key, "a boolean", **v);
  return (*v)->as_bool();
}

Result<std::string> GetString(const JsonValue& obj, std::string_view key) {
  Result<const JsonValue*> v = GetField(obj, key);
  if (!v.ok()) return v.status();
  if (!(*v)->is_string()) return WrongType(key, "a string", **v);
  return (*v)->as_string();
}

Result<const JsonValue::Array*> GetArray(const JsonValue& obj, std::string_view key) {
  Result<const JsonValue*> v = GetField(obj, key);
  if (!v.ok()) return v.status();
  if (!(*v)->is_array()) return WrongType(key, "an array", **v);
  return &(*v)->as_array();
}

Result<const JsonValue*> GetObject(const JsonValue& obj, std::string_view key) {
  Result<const JsonValue*> v = GetField(obj, key);
  if (!v.ok()) return v.status();
  if (!(*v)->is_object()) return WrongType(key, "an object", **v);
  return *v;
}

}  // namespace commitlab
