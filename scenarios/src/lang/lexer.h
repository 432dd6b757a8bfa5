// Lexer for one scenario line: words, quoted strings and ';'. A '#' outside quotes starts a
// comment. A word key=value (non-empty key) is split, and its value may be quoted: msg="a b".
#ifndef COMMITLAB_SCENARIOS_LEXER_H_
#define COMMITLAB_SCENARIOS_LEXER_H_

#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/status.h"
#include "commitlab/scenarios/scenario.h"

namespace commitlab::scenarios::internal {

// The line being parsed: turns (column, message) into "file:line:col: message".
class LineContext {
 public:
  LineContext(std::string_view file, int line) : file_(file), line_(line) {}

  int line() const { return line_; }
  SourcePos Pos(int col) const { return {line_, col}; }
  Status Error(int col, std::string_view message) const;

 private:
  std::string_view file_;
  int line_;
};

struct Token {
  enum class Kind { kWord, kString, kSemicolon };
  Kind kind = Kind::kWord;
  std::string text;  // kWord: as written; kString: the unescaped contents; kSemicolon: ";"
  int col = 0;       // 1-based column of the first byte (the opening quote of a string)
  int end_col = 0;   // column just past the last byte
  // kWord "key=value" with a non-empty key; the value is unescaped when it was quoted.
  bool is_pair = false;
  std::string key;
  std::string value;
  int value_col = 0;  // first byte of the value (inside the quotes when quoted)
  bool value_quoted = false;
};

// Appends the tokens of `line` (no newline) to `out`, or fails at the first bad byte.
Status TokenizeLine(const LineContext& ctx, std::string_view line, std::vector<Token>* out);

}  // namespace commitlab::scenarios::internal

#endif  // COMMITLAB_SCENARIOS_LEXER_H_
