// What each protocol calls its ids and a lost race, in the words of the lecture it comes from
// (docs/lectures.md): a Paimon writer races for the next snapshot id and loses it (S2 第 5 讲: 抢号,
// 抢号失败); an Iceberg writer loses the conditional swap of the catalog pointer (无锁并发写入: 在条件式
// 替换中落败); a Delta writer loses the next log version (04 事务与并发控制 3.3). One small table keyed
// by protocol, read by the explanations, the stepper and the timeline page.
#ifndef COMMITLAB_SIM_PROTOCOL_WORDS_H_
#define COMMITLAB_SIM_PROTOCOL_WORDS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "commitlab/sim/language.h"

namespace commitlab::sim {

struct ProtocolWords {
  std::string_view protocol;  // paimon, iceberg, delta
  const char* id_en;          // {0}: the id
  const char* id_zh;
  const char* empty_en;  // id 0 of a Paimon table: nothing published yet
  const char* empty_zh;
  const char* lost_en;  // {0} the loser, {1} the id it tried, {2} who took it
  const char* lost_zh;
  const char* lost_unknown_en;  // {0} the loser, {1} the id; who took it is not recorded
  const char* lost_unknown_zh;
  const char* retry_en;  // what the loser does next
  const char* retry_zh;
  const char* lost_count_zh;  // a lab's count of lost races: 抢号失败 {n} 次
  const char* tally_zh;       // a lab's summary of them: {0} in all, {1} per writer
  const char* checked_zh;     // what its invariants assert when they hold
};

// The words of `protocol`; Paimon's for any other name (a history without a scenario text).
const ProtocolWords& WordsOf(std::string_view protocol);

// "snapshot #5", "metadata v2", "version 3" (an empty Paimon table for id 0) in `language`.
std::string IdName(const ProtocolWords& w, int64_t id, Language language);
// "job-A lost the race for snapshot #1 to job-B", "worker-b lost the conditional swap ...".
std::string LostRaceSentence(const ProtocolWords& w, const std::string& loser, int64_t id, const std::string& winner,
                             Language language);

}  // namespace commitlab::sim

#endif  // COMMITLAB_SIM_PROTOCOL_WORDS_H_
