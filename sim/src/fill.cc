#include "commitlab/sim/fill.h"

namespace commitlab::sim {

std::string Fill(const char* zh, const std::smatch& m) {
  std::string out;
  for (const char* p = zh; *p != '\0'; ++p) {
    if (*p == '{' && p[1] >= '1' && p[1] <= '9' && (p[2] == '}' || (p[2] >= '0' && p[2] <= '9' && p[3] == '}'))) {
      const bool two = p[2] != '}';
      const size_t group =
          two ? static_cast<size_t>((p[1] - '0') * 10 + (p[2] - '0')) : static_cast<size_t>(p[1] - '0');
      out += group < m.size() ? m[group].str() : "";
      p += two ? 3 : 2;
    } else {
      out += *p;
    }
  }
  return out;
}

}  // namespace commitlab::sim
