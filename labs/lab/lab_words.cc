#include "lab/lab_words.h"

namespace commitlab::cli {
namespace {

constexpr LabWords kEnglish = {
    .language = sim::Language::kEnglish,
    .source = "source: {0}",
    .claim = "claim:  {0}",
    .lecture_run = "S2 第 5 讲's run {0} lost {1} races: seed {2} simulated loses as many",
    .on_threads = "OS threads and the real clock, as S2 第 5 讲 ran it",
    .simulated = "simulated, seed={0} sched={1}",
    .atomic_failures = "atomic commit failures: {0} ({1})",
    .tally = "conflicts: {0}; unknown outcomes: {1}; idempotent matches: {2}",
    .failed_jobs = "failed jobs: {0}{1}",
    .latest = "{0}latest snapshot id: {1}",
    .per_user = "{0}snapshots per commit user: {1}",
    .table_prefix = "table {0}: ",
    .matrix_tally = "atomic commit failures: {0}; conflicts: {1}; writers refused: {2}",
    .expectations = "expectations: {0} of {1} held ({2})",
    .chain_heading = "table {0} ({1}):",
    .lectures = "lectures: {0}",
    .timeline = "timeline: {0}",
    .verdict = "verdict: {0}{1}",
    .agrees = "AGREES",
    .differs = "DIFFERS",
    .verdicts_heading = "== Verdicts ==",
    .invariants = "invariants: ",
};

// S2 第 5 讲's own words where it has them: "Atomic commit failed 共 25 次；失败的作业数 = 0；最新快照 id = 60";
// an Iceberg writer's lost race in 无锁并发写入's (在条件式替换中落败), a Delta one's in 04's 3.3.
constexpr LabWords kChinese = {
    .language = sim::Language::kChinese,
    .source = "出处：{0}",
    .claim = "断言：{0}",
    .lecture_run = "S2 第 5 讲第 {0} 次运行抢号失败 {1} 次：seed {2} 的模拟运行失败同样多次",
    .on_threads = "操作系统线程和真实时钟，与 S2 第 5 讲的实验一样",
    .simulated = "模拟运行，seed={0} sched={1}",
    .atomic_failures = "Atomic commit failed 共 {0} 次（{1}）",
    .tally = "冲突 {0} 次；结果未知 {1} 次；幂等命中 {2} 次",
    .failed_jobs = "失败的作业数 = {0}{1}",
    .latest = "{0}最新快照 id = {1}",
    .per_user = "{0}每个提交用户的快照数：{1}",
    .table_prefix = "表 {0}：",
    .matrix_tally = "竞争落败共 {0} 次；冲突 {1} 次；被拒绝的写入方 {2} 个",
    .expectations = "预期：{1} 条中 {0} 条成立（{2}）",
    .chain_heading = "表 {0}（{1}）：",
    .lectures = "讲义对照：{0}",
    .timeline = "时间线：{0}",
    .verdict = "结论：{0}{1}",
    .agrees = "符合",
    .differs = "不符",
    .verdicts_heading = "== 结论 ==",
    .invariants = "不变量：",
};

}  // namespace

const LabWords* FindLabWords(std::string_view lang) {
  if (lang == "en") return &kEnglish;
  if (lang == "zh") return &kChinese;
  return nullptr;
}

}  // namespace commitlab::cli
