#include "commitlab/sim/history_fields.h"

namespace commitlab::sim {

std::string StringField(const Json& e, const char* key) {
  return e.is_object() && e.contains(key) && e[key].is_string() ? e[key].get<std::string>() : std::string();
}

int64_t IntField(const Json& e, const char* key, int64_t otherwise) {
  return e.is_object() && e.contains(key) && e[key].is_number_integer() ? e[key].get<int64_t>() : otherwise;
}

std::string ShortFileName(const std::string& name) {
  // <prefix>-<uuid>-N.parquet: the uuid's first block and the counter are enough to tell files apart.
  const size_t slash = name.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : name.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  const size_t first_dash = base.find('-');
  const size_t last_dash = base.rfind('-');
  if (base.size() < 40 || first_dash == std::string::npos || last_dash <= first_dash + 9) return name;
  return dir + base.substr(0, first_dash + 9) + "…" + base.substr(last_dash);
}

}  // namespace commitlab::sim
