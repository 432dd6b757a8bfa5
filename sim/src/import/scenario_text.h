// Writing an imported window of commits as scenario text (import_scenario.h): the parts every
// format shares, and one function per format.
#ifndef COMMITLAB_SIM_SRC_IMPORT_SCENARIO_TEXT_H_
#define COMMITLAB_SIM_SRC_IMPORT_SCENARIO_TEXT_H_

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "commitlab/sim/import/import_scenario.h"

namespace commitlab::sim::import::internal {

struct ScenarioInput {
  const ImportSource& source;
  const TableFacts& facts;
  const ScenarioOptions& options;
  const std::deque<ImportedCommit>& window;
  const std::deque<Finding>& findings;
};

// The scenario language's limits (scenarios/README.md, "Limits").
inline constexpr size_t kMaxListEntries = 64;
inline constexpr int64_t kMaxScenarioSteps = 100000;
inline constexpr size_t kMaxScenarioWriters = 1000;

// One writer per committing job; a job's commit that began before its previous one had landed
// (Delta's readVersion says so) gets a lane of its own, since a writer runs one step at a time.
// Returns each commit's writer name; `order` lists the names in order of first appearance.
// With `per_commit`, each commit is a writer of its own, named by its operation and version.
std::vector<std::string> AssignLanes(const std::deque<ImportedCommit>& window, bool per_commit,
                                     std::vector<std::string>* order);

// A value as one word of a scenario line: as it is when it is plain, else quoted.
std::string Word(std::string_view text);

// The file's opening: comments naming the source, the title and source directives.
std::string Opening(const ScenarioInput& in, std::string_view what);
// The findings about `version` as comments ("#   finding ...").
std::string FindingComments(const ScenarioInput& in, int64_t version);
// "# version 12 (DELETE) by W at 2023-...: ..." for a commit.
std::string CommitComment(const ImportedCommit& c, std::string_view noun);
// `writer name=W` lines, then each writer's `expect writer W ok` (as the log shows, each landed).
std::string WriterLines(const std::vector<std::string>& writers, std::string_view user_key);
std::string ExpectLines(const std::vector<std::string>& writers);
// The table name: the table folder's name.
std::string TableName(const ImportSource& source);

Result<std::string> DeltaScenario(const ScenarioInput& in);
Result<std::string> IcebergScenario(const ScenarioInput& in);
Result<std::string> PaimonScenario(const ScenarioInput& in);

}  // namespace commitlab::sim::import::internal

#endif  // COMMITLAB_SIM_SRC_IMPORT_SCENARIO_TEXT_H_
