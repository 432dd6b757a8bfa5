// The value of an Iceberg step's `filter=`: a row filter in Iceberg's Expressions, with each
// literal checked against its column's type as the file is read (scenarios/README.md, "Filters").
#ifndef COMMITLAB_SCENARIOS_FILTER_EXPR_H_
#define COMMITLAB_SCENARIOS_FILTER_EXPR_H_

#include <string>
#include <string_view>
#include <vector>

#include "commitlab/core/iceberg/expression.h"
#include "commitlab/core/status.h"
#include "lang/lexer.h"

namespace commitlab::scenarios {

// A step's filter as parsed: Iceberg's Expression and the text it was written as.
struct FilterSpec {
  iceberg::Expression expr;
  std::string text;  // as written
};

namespace internal {

struct FilterColumn {
  std::string name;
  bool integer = false;    // the literal must be an integer (else a string)
  bool partition = false;  // a partition key: text, compared as a number when the literal is one
};

// Parses `text`, which starts at column `col` of the line:
//   expr := term ("or" term)* ; term := factor ("and" factor)*
//   factor := "not" factor | "(" expr ")" | "true" | "false" | COLUMN OP LITERAL | COLUMN=LO..HI
//   OP := = | == | != | < | <= | > | >=
// A literal is -?[0-9]+ (an integer), 'quoted' or a bare word (a string). Errors name the column
// of the offending word and what would be accepted there; `what` names the columns' owner
// ("the filter column of table T").
Status ParseFilterExpression(const LineContext& ctx, std::string_view text, int col,
                             const std::vector<FilterColumn>& columns, std::string_view what, iceberg::Expression* out);

}  // namespace internal
}  // namespace commitlab::scenarios

#endif  // COMMITLAB_SCENARIOS_FILTER_EXPR_H_
