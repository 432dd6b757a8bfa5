// Values inside a line: the key=value arguments of a directive or step, integers, ranges, names
// and choices, each failing with a message that names what was expected.
#ifndef COMMITLAB_SCENARIOS_ARGS_H_
#define COMMITLAB_SCENARIOS_ARGS_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/status.h"
#include "lang/lexer.h"

namespace commitlab::scenarios::internal {

using Tokens = std::span<const Token>;

// "a, b, c" for messages.
std::string JoinNames(std::span<const std::string_view> names);

// Parses `text` (at `col`) as a decimal integer in [lo, hi]. `what` names it in messages:
// "key \"rows\"", "the repeat count".
Status ParseInt(const LineContext& ctx, std::string_view text, int col, std::string_view what, int64_t lo, int64_t hi,
                int64_t* out);
Status ParseUint64(const LineContext& ctx, std::string_view text, int col, std::string_view what, uint64_t* out);
// LO..HI with LO <= HI, both in [lo, hi].
Status ParseRange(const LineContext& ctx, std::string_view text, int col, std::string_view what, int64_t lo, int64_t hi,
                  int64_t* out_lo, int64_t* out_hi);
// Letters, digits, '-' and '_', starting with a letter, digit or '_', at most kMaxNameBytes.
bool IsName(std::string_view text);
// A name, or a name given inside a repeat: NAME[i] (labels and checkpoint references).
bool IsRefName(std::string_view text);
Status CheckName(const LineContext& ctx, std::string_view text, int col, std::string_view what);
// The index of `text` in `choices`.
Status ParseChoice(const LineContext& ctx, std::string_view text, int col, std::string_view what,
                   std::span<const std::string_view> choices, size_t* out);
// Fails on tokens[from] if there is one: "unexpected "x" after <after>".
Status NoMoreTokens(const LineContext& ctx, Tokens tokens, size_t from, std::string_view after);

// The key=value arguments of one directive, step or expectation.
class Args {
 public:
  // `what` names the owner in messages ("directive table", "step write") and `owner_col` is where
  // a missing key is reported; `allowed` is every key it accepts, in the order messages list them.
  static Status Collect(const LineContext& ctx, int owner_col, Tokens tokens, std::string_view what,
                        std::span<const std::string_view> allowed, Args* out);

  const Token* Find(std::string_view key) const;
  Status Require(std::string_view key, const Token** out) const;
  // Each leaves *out unchanged when the key is absent.
  Status Int(std::string_view key, int64_t lo, int64_t hi, int64_t* out) const;
  Status Int32(std::string_view key, int32_t lo, int32_t hi, int32_t* out) const;
  Status Bool(std::string_view key, bool* out) const;
  Status Name(std::string_view key, std::string_view what, std::string* out) const;
  Status Choice(std::string_view key, std::span<const std::string_view> choices, size_t* out) const;

 private:
  const LineContext* ctx_ = nullptr;
  std::string what_;
  int owner_col_ = 1;
  std::vector<const Token*> tokens_;
};

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_ARGS_H_
