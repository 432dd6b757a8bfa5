#include "commitlab/sim/detail_words.h"

#include <string_view>
#include <utility>
#include <vector>

#include "commitlab/sim/fill.h"
#include "commitlab/sim/std_regex.h"

namespace commitlab::sim {
namespace {

struct Form {
  std::regex pattern;
  const char* zh;  // {1}, {2}, ...: the pattern's groups
};

// The runner's details (scenarios/src/protocols/<p>/runner_<p>.cc), by protocol.
const std::vector<Form>& Forms() {
  static const std::vector<Form>* forms = new std::vector<Form>{
      // Paimon (runner_paimon.cc).
      {std::regex(R"(write (\S+) \((?:partition (\S+) )?bucket (\d+), L0, keys (-?\d+)\.\.(-?\d+), rows=(\d+)\))"),
       "写入 {1}（{2} bucket {3}，L0，key {4}..{5}，{6} 行）"},
      {std::regex(R"(nothing to compact: (?:partition (\S+) )?bucket (\d+) L(\d+) has no files as of snapshot (\d+))"),
       "没有可合并的文件：快照 {4} 时 {1} bucket {2} 的 L{3} 没有文件"},
      {std::regex(
           R"(compact (?:partition (\S+) )?bucket (\d+) L(\d+) -> L(\d+) as of snapshot (\d+): (compactBefore = \[.*\]), (compactAfter = \[.*\]))"),
       "基于快照 {5} 合并 {1} bucket {2} 的 L{3} -> L{4}：{6}，{7}"},
      {std::regex(R"(commit identifier (\d+) \(checkpoint (\S+)\): (\d+) snapshot\(s\))"),
       "提交 identifier {1}（checkpoint {2}）：{3} 个快照"},
      {std::regex(R"(commit identifier (\d+): (\d+) snapshot\(s\))"), "提交 identifier {1}：{2} 个快照"},
      {std::regex(R"(checkpoint (\S+): identifier (\d+), (\d+) file change\(s\))"),
       "checkpoint {1}：identifier {2}，{3} 个文件变更"},
      {std::regex(R"(filter-and-commit: (\d+) of (\d+) committable\(s\) committed)"),
       "filterAndCommit：{2} 个待提交中实际提交了 {1} 个"},
      {std::regex(R"(deleted (\d+) data file\(s\) behind the table's back: (.*))"), "绕过表删除了 {1} 个数据文件：{2}"},
      {std::regex(R"(restart: a new committer for user (\S+); (\d+) pending file change\(s\) dropped)"),
       "重启：commitUser {1} 换用新的提交器，丢弃 {2} 个未提交的文件变更"},
      // Iceberg (runner_iceberg.cc).
      {std::regex(R"(read counter (\S+) = (-?\d+) at v(\d+) \(snapshot (\S+)\))"),
       "在 v{3}（快照 {4}）读到计数器 {1} = {2}"},
      {std::regex(R"((\S+) = (-?\d+) \+ (-?\d+) = (-?\d+), written to (\S+))"), "{1} = {2} + {3} = {4}，写入 {5}"},
      {std::regex(
           R"(counter (\S+) = (-?\d+) in (\S+): v(\d+) -> v(\d+), snapshot (\S+) \(sequence (\d+)\), (\d+) attempt\(s\))"),
       "计数器 {1} = {2}，写在 {3}：v{4} -> v{5}，快照 {6}（序列号 {7}），尝试 {8} 次"},
      {std::regex(
           R"(counter (\S+) = (-?\d+) \(read (-?\d+), first read (-?\d+), (\d+) commit\(s\), on-validation=(\S+)\): v(\d+) -> v(\d+), snapshot (\S+) \(sequence (\d+)\), (\d+) attempt\(s\))"),
       "计数器 {1} = {2}（由读到的 {3} 算出，首次读到 {4}，提交 {5} 次，on-validation={6}）：v{7} -> v{8}，快照 {9}（序列号 {10}），尝试 {11} 次"},
      {std::regex(
           R"(counter (\S+) = (-?\d+) \(read (-?\d+), (\d+) commit\(s\), on-validation=(\S+)\): v(\d+) -> v(\d+), snapshot (\S+) \(sequence (\d+)\), (\d+) attempt\(s\))"),
       "计数器 {1} = {2}（由读到的 {3} 算出，提交 {4} 次，on-validation={5}）：v{6} -> v{7}，快照 {8}（序列号 {9}），尝试 {10} 次"},
      {std::regex(
           R"(overwrite (.*) with (\S+): (v\d+ -> v\d+), snapshot (\S+) \(sequence (\d+)\), (\d+) attempt\(s\))"),
       "覆盖写入 {1}，新文件 {2}：{3}，快照 {4}（序列号 {5}），尝试 {6} 次"},
      {std::regex(
           R"(delete where (.*) \((\d+) file\(s\)\): (v\d+ -> v\d+), snapshot (\S+) \(sequence (\d+)\), (\d+) attempt\(s\))"),
       "删除 {1}（{2} 个文件）：{3}，快照 {4}（序列号 {5}），尝试 {6} 次"},
      {std::regex(R"(append (\S+): (v\d+ -> v\d+), snapshot (\S+) \(sequence (\d+)\), (\d+) attempt\(s\))"),
       "追加 {1}：{2}，快照 {3}（序列号 {4}），尝试 {5} 次"},
      {std::regex(
           R"(replace partitions with (.*): (v\d+ -> v\d+), snapshot (\S+) \(sequence (\d+)\), (\d+) attempt\(s\))"),
       "替换分区，新文件 {1}：{2}，快照 {3}（序列号 {4}），尝试 {5} 次"},
      {std::regex(R"(rewrite into (\S+): (v\d+ -> v\d+), snapshot (\S+) \(sequence (\d+)\), (\d+) attempt\(s\))"),
       "重写为 {1}：{2}，快照 {3}（序列号 {4}），尝试 {5} 次"},
      {std::regex(
           R"((append|overwrite|delete where|rewrite into|schema) (.*): (v\d+ -> v\d+), snapshot (\S+) \(sequence (\d+)\), (\d+) attempt\(s\))"),
       "{1} {2}：{3}，快照 {4}（序列号 {5}），尝试 {6} 次"},
      {std::regex(
           R"((append|overwrite|delete where|rewrite into|schema) (.*): (v\d+ -> v\d+), no snapshot, (\d+) attempt\(s\))"),
       "{1} {2}：{3}，没有新快照，尝试 {4} 次"},
      {std::regex(R"(read v(\d+) \(snapshot (\S+)\): (\d+) file\(s\) planned)"),
       "读取 v{1}（快照 {2}）：计划读 {3} 个文件"},
      {std::regex(R"(scan of snapshot (\S+): (\d+) row\(s\))"), "扫描快照 {1}：{2} 行"},
      {std::regex(R"(row delta: no row matches (.*) as of v(\d+) \(snapshot (\S+)\))"),
       "行级变更（row delta）：v{2}（快照 {3}）中没有行匹配 {1}"},
      {std::regex(R"(nothing to rewrite as of v(\d+) \(snapshot (\S+)\))"), "v{1}（快照 {2}）中没有可重写的文件"},
      {std::regex(R"(expire retain-last=(\d+): (\d+) snapshot\(s\) expired, (\d+) file\(s\) deleted)"),
       "快照过期 retain-last={1}：过期 {2} 个快照，删除 {3} 个文件"},
      {std::regex(R"(remove_orphan_files older than (\S+): (\d+) file\(s\) deleted)"),
       "remove_orphan_files（早于 {1}）：删除 {2} 个文件"},
      {std::regex(R"(remove_orphan_files: (\d+) file\(s\) deleted)"), "remove_orphan_files：删除 {1} 个文件"},
      {std::regex(R"((\d+) orphan file\(s\) older than (\S+))"), "{1} 个早于 {2} 的孤儿文件"},
      {std::regex(R"((\d+) orphan file\(s\))"), "{1} 个孤儿文件"},
      // Delta (runner_delta.cc).
      {std::regex(R"(begin at version (\d+) \((\d+) live file\(s\)\))"), "从版本 {1} 开始（{2} 个存活文件）"},
      {std::regex(R"(read where (.*) \(recorded as (.*)\): \[(.*)\])"), "读取 {1}（记作 {2}）：[{3}]"},
      {std::regex(R"(read every file: \[(.*)\])"), "读取全部文件：[{1}]"},
      {std::regex(R"(read (\S+): \[(.*)\])"), "读取 {1}：[{2}]"},
      {std::regex(R"(readWholeTable)"), "readWholeTable：读取整张表"},
      {std::regex(R"(add (\S+) to (\S+) \(dataChange=false\))"), "新增 {1} 到 {2}（dataChange=false）"},
      {std::regex(R"(add (\S+) to (\S+))"), "新增 {1} 到 {2}"},
      {std::regex(R"(add (\S+) \(dataChange=false\))"), "新增 {1}（dataChange=false）"},
      {std::regex(R"(add (\S+))"), "新增 {1}"},
      {std::regex(R"(remove (.*) \(dataChange=false\))"), "移除 {1}（dataChange=false）"},
      {std::regex(R"(remove (.*))"), "移除 {1}"},
      {std::regex(R"(commit (.+) read at version (\d+): version (\d+) \((\S+)\))"),
       "提交 {1}（读取于版本 {2}）：版本 {3}（{4}）"},
      {std::regex(R"(txn (\S+) version (-?\d+))"), "txn {1}，版本 {2}"},
      {std::regex(R"(read txnVersion\((\S+)\) = (-?\d+))"), "读取 txnVersion({1}) = {2}"},
      {std::regex(R"(metadata \(schema (.*)\))"), "metadata（schema {1}）"},
      {std::regex(R"(protocol \((\d+), (\d+)\))"), "协议（{1}，{2}）"},
  };
  return *forms;
}

}  // namespace

std::string StepDetailSentence(const std::string& detail, Language language) {
  if (language != Language::kChinese || detail.empty()) return detail;
  for (const Form& f : Forms()) {
    std::smatch m;
    // An optional group that did not match (a bucket without a partition) leaves a space that
    // TidyChinese drops.
    if (std::regex_match(detail, m, f.pattern)) {
      std::string zh = Fill(f.zh, m);
      for (size_t at = zh.find("  "); at != std::string::npos; at = zh.find("  ", at)) zh.erase(at, 1);
      return TidyChinese(zh);
    }
  }
  return detail;
}

std::string OutcomeText(const std::string& outcome, Language language) {
  if (language != Language::kChinese) return outcome;
  // The outcomes a step_end or writer_end names (scenarios' OutcomeName), and the two a lab names a
  // refusal that was none: a commit whose outcome nobody knows, a step that failed without a commit.
  static constexpr std::pair<std::string_view, const char*> kWords[] = {
      {"ok", "成功"},      {"refused", "被拒绝"},           {"gave-up", "放弃"},
      {"crashed", "崩溃"}, {"outcome unknown", "结果未知"}, {"failed", "失败"}};
  for (const auto& [en, zh] : kWords)
    if (outcome == en) return zh;
  return outcome;
}

}  // namespace commitlab::sim
