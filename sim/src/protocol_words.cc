#include "commitlab/sim/protocol_words.h"

#include <array>

namespace commitlab::sim {
namespace {

constexpr std::array<ProtocolWords, 3> kWords = {{
    // S2 第 5 讲: "抢一个文件名 snapshot-(N+1)", "抢号失败", "重读最新快照、退避后重试".
    {"paimon", "snapshot #{0}", "快照 #{0}", "an empty table", "空表", "{0} lost the race for {1} to {2}",
     "{0} 抢 {1} 失败，被 {2} 抢到", "{0} lost the race for {1} (who took it is not recorded)",
     "{0} 抢 {1} 失败（没有记录被谁抢到）", "reads the latest again and retries", "重读最新快照并重试", "抢号失败",
     "Atomic commit failed 共 {0} 次（{1}）", "每个已确认的提交恰好落地一次，快照 id 连续，没有删除不存在的文件"},
    // 无锁并发写入: "在 Catalog 中做条件式替换", "输的一方在条件式替换中落败", "读取新状态再重新叠加".
    {"iceberg", "metadata v{0}", "元数据 v{0}", "metadata v0", "元数据 v0",
     "{0} lost the conditional swap to {1}: {2} swapped the pointer first",
     "{0} 在条件式替换中落败：{2} 先把指针换到了 {1}",
     "{0} lost the conditional swap to {1} (who swapped first is not recorded)",
     "{0} 在条件式替换中落败：{1} 已被占用（没有记录是谁）", "reads the new metadata and applies its change again",
     "读取新的元数据，把变更重新叠加上去", "在条件式替换中落败", "在条件式替换中落败共 {0} 次（{1}）",
     "快照连成一条线，每个已确认的快照都还在或已过期，保留的快照引用的文件都在，每个计数器都包含已确认的增加"},
    // 04 事务与并发控制 3.3: every Delta writer races for the next log version (00000.json, 00001.json, ...).
    {"delta", "version {0}", "版本 {0}", "version 0", "版本 0", "{0} lost {1} of the log to {2}",
     "{0} 争夺日志 {1} 失败，被 {2} 先写入", "{0} lost {1} of the log (who wrote it is not recorded)",
     "{0} 争夺日志 {1} 失败（没有记录是谁先写入）", "checks what the winner committed and tries the next version",
     "检查赢家提交的内容，再争夺下一个版本", "争夺日志版本失败", "争夺日志版本失败共 {0} 次（{1}）",
     "每个已确认的版本都是其写入方的提交"},
}};

}  // namespace

const ProtocolWords& WordsOf(std::string_view protocol) {
  for (const ProtocolWords& w : kWords)
    if (w.protocol == protocol) return w;
  return kWords[0];
}

std::string IdName(const ProtocolWords& w, int64_t id, Language language) {
  if (w.protocol == "paimon" && id == 0) return language == Language::kChinese ? w.empty_zh : w.empty_en;
  return Say(language, w.id_en, w.id_zh, id);
}

std::string LostRaceSentence(const ProtocolWords& w, const std::string& loser, int64_t id, const std::string& winner,
                             Language language) {
  const std::string what = IdName(w, id, language);
  if (winner.empty()) return Say(language, w.lost_unknown_en, w.lost_unknown_zh, loser, what);
  return Say(language, w.lost_en, w.lost_zh, loser, what, winner);
}

}  // namespace commitlab::sim
