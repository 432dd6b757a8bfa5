#include "commitlab/sim/violation_words.h"

#include <array>
#include <string_view>

#include "commitlab/sim/fill.h"
#include "commitlab/sim/std_regex.h"

namespace commitlab::sim {
namespace {

struct KindName {
  std::string_view kind;
  const char* zh;
};
constexpr std::array<KindName, 11> kKinds = {{{"lost", "丢失的提交"},
                                              {"duplicate", "重复的提交"},
                                              {"failed_visible", "失败的提交却可见"},
                                              {"misplaced", "错位的提交"},
                                              {"gap", "快照 id 不连续"},
                                              {"duplicate_id", "重复的快照 id"},
                                              {"fork", "快照分叉"},
                                              {"delete_not_live", "删除不存在的文件"},
                                              {"add_live", "重复添加文件"},
                                              {"lost_update", "丢失更新"},
                                              {"missing_file", "缺失的文件"}}};

// One form a checker writes and its Chinese: `zh` takes the regex's groups as {1}, {2}, ...
// (sim::Fill). Compiled once.
struct Form {
  Form(const char* re, const char* chinese) : pattern(re), zh(chinese) {}
  std::regex pattern;
  const char* zh;
};
// The forms of CheckCounter (iceberg_counter.cc), CheckCommit (checker.cc), IcebergTableRun::Report
// and DeltaTableRun::Report (runner_lakes.cc), as the labs meet them.
const std::array<Form, 11>& Forms() {
  static const std::array<Form, 11> kForms = {{
      {R"re(lost update: counter (\S+) is (-?\d+), but (\d+) acknowledged increments? of (-?\d+) from (-?\d+) make (-?\d+) \((\d+) increments? lost\))re",
       "计数器 {1} 是 {2}，但从 {5} 起 {3} 次已确认的增加（每次 {4}）应得 {6}（丢了 {7} 次增加）"},
      {R"re(lost update: counter (\S+) is (-?\d+), but (\d+) acknowledged increments? of (-?\d+) from (-?\d+) make (-?\d+))re",
       "计数器 {1} 是 {2}，但从 {5} 起 {3} 次已确认的增加（每次 {4}）应得 {6}"},
      {R"re(lost update: counter (\S+) is (-?\d+), but (\d+) acknowledged increment\(s\) from (-?\d+) make (-?\d+))re",
       "计数器 {1} 是 {2}，但从 {4} 起 {3} 次已确认的增加应得 {5}"},
      {R"re(acknowledged commit of (\S+) identifier (\d+) kind (\S+) \(told snapshot (\d+)\) is not in the table)re",
       "已确认的提交（{1}，identifier {2}，{3}）不在表里（它被告知成为快照 {4}）"},
      {R"re(acknowledged commit of (\S+) identifier (\d+) kind (\S+) is not in the table)re",
       "已确认的提交（{1}，identifier {2}，{3}）不在表里"},
      {R"re(acknowledged commit of (\S+) identifier (\d+) kind (\S+) appears (\d+) times: snapshots? (.*))re",
       "已确认的提交（{1}，identifier {2}，{3}）在表里出现了 {4} 次：快照 {5}"},
      {R"re(commit of (\S+) identifier (\d+) kind (\S+) with unknown outcome appears (\d+) times: snapshots? (.*))re",
       "结果未知的提交（{1}，identifier {2}，{3}）在表里出现了 {4} 次：快照 {5}"},
      {R"re(snapshot (\d+) \((\S+) identifier (\d+) kind (\S+)\) adds file (\S+) \(partition "(.*)", bucket (\d+), level (\d+)\) which is already live)re",
       "快照 {1}（{2}，identifier {3}，{4}）添加的文件 {5}（分区 \"{6}\"，bucket {7}，L{8}）早已存在"},
      {R"re(snapshot (\d+) \((\S+) identifier (\d+) kind (\S+)\) deletes file (\S+) \(partition "(.*)", bucket (\d+), level (\d+)\) which is not live)re",
       "快照 {1}（{2}，identifier {3}，{4}）删除的文件 {5}（分区 \"{6}\"，bucket {7}，L{8}）并不存在"},
      {R"re(table (\S+): (\S+) is gone, but snapshot (\d+) \(sequence (\d+)\) still reaches it)re",
       "表 {1}：{2} 已被删除，但快照 {3}（序列号 {4}）仍然引用它"},
      {R"re(table (\S+): acknowledged snapshot (\d+) \(sequence (\d+)\) is not in the table and no expire step removed it)re",
       "表 {1}：已确认的快照 {2}（序列号 {3}）不在表里，也没有哪一步过期操作删掉它"},
  }};
  return kForms;
}

}  // namespace

std::string ViolationKindName(const std::string& kind, Language language) {
  if (language != Language::kChinese) return kind;
  for (const KindName& k : kKinds)
    if (k.kind == kind) return k.zh;
  return kind;
}

std::string ViolationSentence(const std::string& kind, const std::string& message, Language language) {
  if (language != Language::kChinese) return message;
  // Always the kind first: 丢失更新：计数器 hits 是 15，...
  for (const Form& f : Forms()) {
    std::smatch m;
    if (std::regex_match(message, m, f.pattern))
      return TidyChinese(ViolationKindName(kind, language) + "：" + Fill(f.zh, m));
  }
  return ViolationKindName(kind, language) + "：" + message;
}

}  // namespace commitlab::sim
