// Reading members of a history line (docs/history.md) that may be missing or of another type than
// the format gives them (a hand-edited or cut file): the readers of a history (timeline, explain,
// the stepper) take a default instead of throwing.
#ifndef COMMITLAB_SIM_HISTORY_FIELDS_H_
#define COMMITLAB_SIM_HISTORY_FIELDS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/sim/history.h"
#include "commitlab/sim/language.h"

namespace commitlab::sim {

// e[key] when it is a string, else "".
std::string StringField(const Json& e, const char* key);
// e[key] when it is an integer, else `otherwise`.
int64_t IntField(const Json& e, const char* key, int64_t otherwise = -1);
// A data file's name cut to what tells files apart: data-bf08119f…-0.parquet (a directory kept).
std::string ShortFileName(const std::string& name);

// The tables of the scenario text a history's header recorded (`table name=N protocol=P`), and
// which table each writer writes (`writer name=W table=T`, else the first): snapshot ids are per
// table, and events do not name theirs. A header without a scenario text has one table, "",
// whose protocol is "paimon".
struct HistoryTables {
  struct Table {
    std::string name;
    std::string protocol;
  };
  std::vector<Table> tables;                        // in the order the text declares them; never empty
  std::vector<std::string> writers;                 // in the order the text declares them
  std::map<std::string, size_t> of_writer;          // writer -> index into tables
  size_t TableOf(const std::string& writer) const;  // 0 for a writer the text does not declare
};
HistoryTables TablesOfHeader(const Json& header);

// The scenario's title (`title.zh` in Chinese when the text has one), else its file name, else
// "commitlab run".
std::string ScenarioTitle(const Json& header, Language language = Language::kEnglish);

// The value of `key=` on a scenario line, "" when absent.
std::string KeyValue(std::string_view line, std::string_view key);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_HISTORY_FIELDS_H_
