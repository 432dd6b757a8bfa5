// Status: the result of every fallible core operation. Codes are chosen for what the caller
// does next (retry, give up, reconcile), in the spirit of Abseil's status-code guide.
#ifndef COMMITLAB_CORE_STATUS_H_
#define COMMITLAB_CORE_STATUS_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "commitlab/core/check.h"

namespace commitlab {

enum class Code {
  kOk,
  kInvalidArgument,  // bad input: a flag, a scenario line, a policy spec
  kNotFound,
  kCorruption,        // a stored file that cannot be parsed
  kIOError,           // a storage call failed; whether it took effect is unknown
  kConflict,          // a real conflict: never retried
  kRetriesExhausted,  // the retry loop gave up
  kCrashed,           // an injected crash: the writer stops where it stands
  kLostRace,          // an injected refusal of the atomic step, as if another writer had won
};

// An OK status is one null pointer, as in LevelDB: the engine makes and drops several per
// simulated commit attempt, and only a failure pays for its code and message.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(const Status& other) : state_(other.state_ ? std::make_unique<State>(*other.state_) : nullptr) {}
  Status& operator=(const Status& other) {
    if (this != &other) state_ = other.state_ ? std::make_unique<State>(*other.state_) : nullptr;
    return *this;
  }
  Status(Status&&) noexcept = default;  // a moved-from status is OK
  Status& operator=(Status&&) noexcept = default;
  ~Status() = default;

  static Status OK() { return Status(); }
  static Status InvalidArgument(std::string m) { return {Code::kInvalidArgument, std::move(m)}; }
  static Status NotFound(std::string m) { return {Code::kNotFound, std::move(m)}; }
  static Status Corruption(std::string m) { return {Code::kCorruption, std::move(m)}; }
  static Status IOError(std::string m) { return {Code::kIOError, std::move(m)}; }
  static Status Conflict(std::string m) { return {Code::kConflict, std::move(m)}; }
  static Status RetriesExhausted(std::string m) { return {Code::kRetriesExhausted, std::move(m)}; }
  static Status LostRace(std::string m) { return {Code::kLostRace, std::move(m)}; }
  static Status Crashed(std::string m) { return {Code::kCrashed, std::move(m)}; }

  bool ok() const { return state_ == nullptr; }
  Code code() const { return state_ ? state_->code : Code::kOk; }
  // "" for OK.
  const std::string& message() const { return state_ ? state_->message : EmptyMessage(); }
  std::string ToString() const;

 private:
  struct State {
    Code code;
    std::string message;
  };
  Status(Code c, std::string m) : state_(std::make_unique<State>(State{c, std::move(m)})) {}
  static const std::string& EmptyMessage();

  std::unique_ptr<State> state_;  // null: OK
};

std::string_view CodeName(Code c);

// Result<T>: a value or a non-OK Status. Made from a Status, that status must be an error (an OK
// status with no value is a bug at the return site); the value may be read only when ok(). Both
// are checked in every build.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}         // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    COMMITLAB_CHECK(!status_.ok(), "a Result made from a Status needs an error; return the value instead");
  }
  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() & { return checked(); }
  const T& value() const& { return checked(); }
  T&& value() && { return std::move(checked()); }
  T* operator->() { return &checked(); }
  const T* operator->() const { return &checked(); }
  T& operator*() { return checked(); }
  const T& operator*() const { return checked(); }

 private:
  T& checked() {
    COMMITLAB_CHECK(value_.has_value(), "read the value of a failed Result; test ok() first");
    return *value_;
  }
  const T& checked() const {
    COMMITLAB_CHECK(value_.has_value(), "read the value of a failed Result; test ok() first");
    return *value_;
  }

  Status status_;
  std::optional<T> value_;
};

}  // namespace commitlab

#define COMMITLAB_RETURN_IF_ERROR(expr) \
  do {                                  \
    ::commitlab::Status _st = (expr);   \
    if (!_st.ok()) return _st;          \
  } while (0)

// COMMITLAB_ASSIGN_OR_RETURN(lhs, rexpr): evaluates rexpr (a Result<T>); on an error returns its
// status from the enclosing function, else moves the value into lhs, which may declare it:
//   COMMITLAB_ASSIGN_OR_RETURN(Snapshot s, store->ReadSnapshot(id));
// As paimon-cpp's PAIMON_ASSIGN_OR_RAISE and Arrow's ARROW_ASSIGN_OR_RAISE.
#define COMMITLAB_ASSIGN_OR_RETURN(lhs, rexpr) \
  COMMITLAB_ASSIGN_OR_RETURN_IMPL(COMMITLAB_CONCAT(_result_, __LINE__), lhs, rexpr)
#define COMMITLAB_ASSIGN_OR_RETURN_IMPL(result, lhs, rexpr) \
  auto result = (rexpr);                                    \
  if (!result.ok()) return result.status();                 \
  lhs = std::move(result).value()
#define COMMITLAB_CONCAT(a, b) COMMITLAB_CONCAT_INNER(a, b)
#define COMMITLAB_CONCAT_INNER(a, b) a##b

#endif  // COMMITLAB_CORE_STATUS_H_
