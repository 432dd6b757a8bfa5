// Minimal JSON helpers: snapshots, traces and reports are written with JsonQuote; snapshot files,
// manifests and trace headers are read back with ParseJson.
#ifndef COMMITLAB_CORE_JSON_H_
#define COMMITLAB_CORE_JSON_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/core/status.h"

namespace commitlab {

// Returns s as a JSON string literal: quoted, with ", \ and control characters escaped.
std::string JsonQuote(std::string_view s);

namespace json_internal {
class Parser;
}  // namespace json_internal

// A parsed JSON value. Integers that fit int64 stay exact (snapshot ids, commit identifiers up to
// Long.MAX_VALUE); other numbers are doubles. Object members keep their order in the text, so a
// value prints back the way it was read.
class JsonValue {
 public:
  enum class Type { kNull, kBool, kInt, kDouble, kString, kArray, kObject };
  using Array = std::vector<JsonValue>;
  using Member = std::pair<std::string, JsonValue>;
  using Object = std::vector<Member>;

  JsonValue() = default;  // null
  static JsonValue Bool(bool b);
  static JsonValue Int(int64_t i);
  static JsonValue Double(double d);
  static JsonValue String(std::string s);
  static JsonValue EmptyArray();
  static JsonValue EmptyObject();

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }
  bool is_bool() const { return type_ == Type::kBool; }
  bool is_int() const { return type_ == Type::kInt; }
  bool is_number() const { return type_ == Type::kInt || type_ == Type::kDouble; }
  bool is_string() const { return type_ == Type::kString; }
  bool is_array() const { return type_ == Type::kArray; }
  bool is_object() const { return type_ == Type::kObject; }

  // Accessors for the wrong type return false / 0 / empty rather than failing: check the type
  // first, or use the Get* helpers below, which say what was wrong.
  bool as_bool() const { return type_ == Type::kBool && bool_; }
  int64_t as_int() const { return type_ == Type::kInt ? int_ : 0; }
  double as_double() const;  // an int converts
  const std::string& as_string() const;
  const Array& as_array() const;
  const Object& as_object() const;

  // The member named `key` of an object, or nullptr (also for a non-object).
  const JsonValue* Find(std::string_view key) const;

  // Builders. Append needs an array, Set an object; a null turns into one, any other type ignores
  // the call. Set replaces an existing member in place.
  void Append(JsonValue v);
  void Set(std::string key, JsonValue v);

  bool operator==(const JsonValue& other) const;

 private:
  friend class json_internal::Parser;  // appends members after its own duplicate check

  Type type_ = Type::kNull;
  bool bool_ = false;
  int64_t int_ = 0;
  double double_ = 0;
  std::string string_;
  Array array_;
  Object object_;
};

// "null", "boolean", "integer", "number", "string", "array", "object".
std::string_view JsonTypeName(JsonValue::Type t);

// Parses one JSON document (RFC 8259; surrounding whitespace allowed). On failure the status is
// InvalidArgument and its message says why and at which byte offset, starting with
// "truncated JSON: " when the text ended too early and "invalid JSON: " otherwise, e.g.
// "invalid JSON: expected ',' or '}' at offset 57". Rejects trailing data, nesting deeper than
// kMaxJsonDepth, duplicate object keys, invalid escapes and unpaired surrogates.
inline constexpr int kMaxJsonDepth = 64;
Result<JsonValue> ParseJson(std::string_view text);

// Compact JSON text for `v` (no whitespace); ParseJson(ToJson(v)) == v for finite numbers.
// Non-finite doubles have no JSON form and print as null.
std::string ToJson(const JsonValue& v);

// Field accessors for decoding documents. Errors are InvalidArgument with messages like
// `field "id" is missing` or `field "id" must be an integer, got string`; callers add the file.
Result<const JsonValue*> GetField(const JsonValue& obj, std::string_view key);
Result<int64_t> GetInt(const JsonValue& obj, std::string_view key);
Result<double> GetNumber(const JsonValue& obj, std::string_view key);
Result<bool> GetBool(const JsonValue& obj, std::string_view key);
Result<std::string> GetString(const JsonValue& obj, std::string_view key);
Result<const JsonValue::Array*> GetArray(const JsonValue& obj, std::string_view key);
Result<const JsonValue*> GetObject(const JsonValue& obj, std::string_view key);

}  // namespace commitlab

#endif  // COMMITLAB_CORE_JSON_H_
