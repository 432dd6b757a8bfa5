// libFuzzer target for core's JSON reader (core/src/json_parse.h) against commitlab's own syntax
// checker (core/src/json_syntax.h), which words the reader's errors: for any bytes the reader
// accepts exactly the texts the checker accepts and refuses the others in the checker's words,
// but for a key given twice, which only the reader looks for, and finds before any error the
// checker sees. A disagreement would otherwise surface as "refused by nlohmann::json".
#include <string>

#include "fuzz_check.h"
#include "json_parse.h"
#include "json_syntax.h"

namespace {

// The N of "... at offset N", which every error message ends with.
size_t Offset(const std::string& message) { return std::stoul(message.substr(message.rfind(' ') + 1)); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace json_io = commitlab::json_io;
  using commitlab::fuzz::Check;
  const std::string_view text = commitlab::fuzz::AsText(data, size);
  const commitlab::Result<nlohmann::json> doc = json_io::Parse(text);
  const commitlab::Status syntax = json_io::CheckSyntax(text, json_io::kMaxDepth);
  if (doc.ok()) {
    Check(syntax.ok());
    return 0;
  }
  const std::string& why = doc.status().message();
  Check(doc.status().code() == commitlab::Code::kInvalidArgument && Offset(why) <= size);
  if (why.find(": duplicate key ") != std::string::npos) {
    Check(syntax.ok() || Offset(syntax.message()) > Offset(why));
    return 0;
  }
  Check(syntax.message() == why);
  return 0;
}
