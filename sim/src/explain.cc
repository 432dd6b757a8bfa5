#include "commitlab/sim/explain.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "commitlab/core/retry_policy.h"
#include "commitlab/sim/history_fields.h"
#include "commitlab/sim/protocol_words.h"
#include "commitlab/sim/run_state.h"
#include "commitlab/sim/text_width.h"
#include "commitlab/sim/violation_words.h"

namespace commitlab::sim {
namespace {

constexpr size_t kMaxTableRows = 12;

std::vector<std::string> Strings(const Json& e, const char* key) {
  std::vector<std::string> out;
  if (!e.contains(key) || !e[key].is_array()) return out;
  for (const Json& s : e[key])
    if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}
// The log line's first line, up to Paimon's "Give up committing." when more follows it.
std::string FirstLine(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  const std::string_view give_up = "Give up committing.";
  const size_t at = line.find(give_up);
  return at == std::string::npos ? line : line.substr(0, at + give_up.size());
}

// What the table's ids are called: Paimon snapshot ids, Iceberg metadata versions, Delta log
// versions (sim/protocol_words.h).
struct Nouns {
  std::string protocol = "paimon";
  bool zh = false;
  std::string Id(int64_t id) const {
    return IdName(WordsOf(protocol), id, zh ? Language::kChinese : Language::kEnglish);
  }
};

// What the scenario text in the header says about its tables: their protocol (when they agree,
// else Paimon's words) and which table each writer writes (`writer name=W table=T`, else the
// first table). Snapshot ids are per table, and events do not name theirs.
struct Tables {
  Nouns nouns;
  std::map<std::string, std::string> of_writer;
  std::string first;
};

Tables TablesOf(const Json& header) {
  Tables t;
  if (!header.contains("scenario") || !header["scenario"].is_object()) return t;
  const std::string text = StringField(header["scenario"], "text");
  std::set<std::string> seen;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line(text.data() + at, end - at);
    if (line.starts_with("table ")) {
      if (const std::string protocol = KeyValue(line, "protocol="); !protocol.empty()) seen.insert(protocol);
      if (t.first.empty()) t.first = KeyValue(line, "name=");
    } else if (line.starts_with("writer ")) {
      t.of_writer[KeyValue(line, "name=")] = KeyValue(line, "table=");
    }
    at = end + 1;
  }
  if (seen.size() == 1) t.nouns.protocol = *seen.begin();
  return t;
}

struct Attempt {
  int64_t base = -1;
  int64_t snapshot = -1;
  int attempt = 0;
  std::string kind;
  std::vector<std::string> add;
  std::vector<std::string> remove;
};

struct Publish {
  std::string writer;
  std::string kind;
  int64_t t_us = 0;
  int64_t step = -1;
};

struct CounterCommit {
  std::string writer;
  int64_t read = 0;
  int64_t read_at = 0;
  int64_t value = 0;
  int64_t version = -1;  // the metadata version it landed as
};

class Explainer {
 public:
  Explainer(const std::vector<Json>& history, Language language) : h_(history), zh_(language == Language::kChinese) {}

  Result<std::vector<Explanation>> Run() {
    if (h_.size() < 2) return Status::InvalidArgument("line 1: not a commitlab history (no header)");
    COMMITLAB_RETURN_IF_ERROR(CheckHistoryFormat(h_.front()));
    tables_ = TablesOf(h_.front());
    // An imported history (commitlab import) names its format in the header, not in a scenario.
    if (StringField(h_.front(), "command") == "import" && h_.front().contains("source"))
      tables_.nouns.protocol = StringField(h_.front()["source"], "format");
    nouns_ = tables_.nouns;
    nouns_.zh = zh_;
    if (h_.front().contains("plan") && h_.front()["plan"].is_object()) {
      Result<RetryPolicy> p = ParseRetryPolicy(StringField(h_.front()["plan"], "retry"));
      if (p.ok()) policy_ = *p;
    }
    for (size_t i = 1; i < h_.size(); ++i) {
      const Json& e = h_[i];
      if (!e.is_object() || !e.contains("type") || !e["type"].is_string())
        return Status::InvalidArgument(fmt::format("line {}: an event without a type", i + 1));
      timed_ = timed_ || IntField(e, "t_us", 0) > 0;
    }
    try {
      for (size_t i = 1; i < h_.size(); ++i) Event(h_[i], i + 1);
    } catch (const nlohmann::json::exception& ex) {
      return Status::InvalidArgument(fmt::format("history: {}", ex.what()));
    }
    return std::move(out_);
  }

 private:
  // The sentence in the explanation's language; both forms take the same arguments ({0}, {1}, ...).
  template <typename... Args>
  std::string F(const char* en, const char* zh, Args&&... args) const {
    return Say(zh_ ? Language::kChinese : Language::kEnglish, en, zh, std::forward<Args>(args)...);
  }
  Language lang() const { return zh_ ? Language::kChinese : Language::kEnglish; }
  const char* T(const char* en, const char* zh) const { return zh_ ? zh : en; }
  // "APPEND ", "COMPACT ": Paimon's commit kinds name what a commit did; Iceberg's and Delta's
  // operations (delete, merge, OPTIMIZE) are not in the event, so none is named for them.
  std::string KindWord(const std::string& kind) const {
    return nouns_.protocol == "paimon" && !kind.empty() ? kind + " " : "";
  }

  std::string When(const Json& e) const {
    if (timed_) return fmt::format("{:.3f} s", static_cast<double>(IntField(e, "t_us", 0)) / 1e6);
    return F("step {0}", "第 {0} 步", IntField(e, "step", 0));
  }
  std::string When(const Publish& p) const {
    if (timed_) return fmt::format("{:.3f} s", static_cast<double>(p.t_us) / 1e6);
    return F("step {0}", "第 {0} 步", p.step);
  }

  Explanation& Add(size_t line, const std::string& writer, std::string kind, std::string headline) {
    out_.push_back({.line = line, .writer = writer, .kind = std::move(kind), .lines = {std::move(headline)}});
    return out_.back();
  }

  void Event(const Json& e, size_t line) {
    const std::string type = StringField(e, "type");
    const std::string writer = StringField(e, "writer");
    if (type == "attempt") {
      Attempt a{.base = -1,
                .snapshot = IntField(e, "snapshot"),
                .attempt = static_cast<int>(IntField(e, "attempt", 0)),
                .kind = StringField(e, "kind"),
                .add = {},
                .remove = {}};
      if (e.contains("plan") && e["plan"].is_object()) {
        a.base = IntField(e["plan"], "base");
        a.add = Strings(e["plan"], "add");
        a.remove = Strings(e["plan"], "delete");
      }
      attempts_[writer] = std::move(a);
      publish_outcome_.erase(writer);
    } else if (type == "op_end" && StringField(e, "op") == "publish") {
      publish_outcome_[writer] = StringField(e, "outcome");
    } else if (type == "op_end" && StringField(e, "op") == "read-latest" && e.contains("saw")) {
      read_at_[writer] = When(e);
    } else if (type == "published") {
      Published(e, writer);
    } else if (type == "atomic_commit_failed") {
      LostRace(e, writer, line);
    } else if (type == "retry_wait") {
      Wait(e, writer);
    } else if (type == "conflict") {
      Conflict(e, writer, line);
    } else if (type == "gave_up") {
      GaveUp(e, writer, line);
    } else if (type == "finding") {
      Finding(e, writer, line);
    } else if (type == "unknown_outcome") {
      Explanation& x = Add(line, writer, "unknown-outcome",
                           F("{0}'s publish of {1} failed without saying whether it landed",
                             "{0} 发布 {1} 失败，但不知道是否已经生效", writer, nouns_.Id(IntField(e, "snapshot"))));
      x.lines.push_back(F("log: {0}", "日志：{0}", FirstLine(StringField(e, "message"))));
      // What the store knows and the writer does not.
      auto told = publish_outcome_.find(writer);
      if (told == publish_outcome_.end()) {
        x.lines.push_back(
            T("its publish never reached the store: nothing landed", "发布请求没有到达存储：什么都没有生效"));
      } else if (told->second == "published") {
        x.lines.push_back(F("the store had taken it: {0} is in the table", "存储已经接受了：{0} 在表里",
                            nouns_.Id(IntField(e, "snapshot"))));
      } else {
        x.lines.push_back(T("the store had not taken it: nothing landed", "存储没有接受：什么都没有生效"));
      }
      if (nouns_.protocol == "iceberg") {
        x.lines.push_back(
            T("Iceberg neither retries it nor cleans up (SnapshotProducer.commit): the new metadata may "
              "be the table's; only a read of the table can tell",
              "Iceberg 既不重试也不清理（SnapshotProducer.commit）：新的元数据可能已是表的当前状态，"
              "只有读表才知道"));
      }
      waiting_[writer] = out_.size() - 1;
    } else if (type == "crashed") {
      Explanation& x = Add(line, writer, "crash",
                           F("{0} crashed: {1}", "{0} 崩溃：{1}", writer, FirstLine(StringField(e, "message"))));
      auto a = attempts_.find(writer);
      if (publish_outcome_.find(writer) == publish_outcome_.end() && a != attempts_.end()) {
        x.lines.push_back(
            F("attempt {0} of {1} published nothing: what it wrote belongs to no snapshot, an "
              "orphan for a cleanup job unless a restart commits it again",
              "第 {0} 次尝试（{1}）什么也没有发布：它写下的文件不属于任何快照，除非重启后再次提交，"
              "否则就是等待清理的孤儿文件",
              a->second.attempt, nouns_.Id(a->second.snapshot)));
      }
    } else if (type == "idempotent_match") {
      Explanation& x =
          Add(line, writer, "unknown-outcome",
              F("{0} found its own {1} (commit user {2}, identifier {3}): the publish that "
                "reported an error had landed, and counts once",
                "{0} 找到了自己的 {1}（commitUser {2}，identifier {3}）：报错的那次发布其实已经生效，只算一次", writer,
                nouns_.Id(IntField(e, "snapshot")), StringField(e, "user"), IntField(e, "identifier", 0)));
      x.lines.push_back(T("the idempotency check that runs first in each retry (tryCommitOnce) looked for it",
                          "每轮重试开头的幂等检查（tryCommitOnce）找到了它"));
    } else if (type == "step_end" && e.contains("counter") && e["counter"].is_object()) {
      const Json& c = e["counter"];
      if (StringField(c, "action") == "read")
        counter_read_[writer] = {StringField(c, "key"), IntField(c, "read", 0), IntField(c, "read_at", 0)};
      if (StringField(c, "action") == "commit" && StringField(e, "status") == "ok") {
        auto p = last_published_.find(writer);
        counters_[StringField(c, "key")].push_back({.writer = writer,
                                                    .read = IntField(c, "read", 0),
                                                    .read_at = IntField(c, "read_at", 0),
                                                    .value = IntField(c, "value", 0),
                                                    .version = p == last_published_.end() ? -1 : p->second});
      }
    } else if (type == "footer") {
      LostUpdates(e, line);
    }
    if (type != "retry_wait" && type != "atomic_commit_failed" && type != "unknown_outcome" && type != "op_start" &&
        type != "op_end" && type != "attempt" && type != "fault")
      waiting_.erase(writer);
  }

  void Published(const Json& e, const std::string& writer) {
    const int64_t id = IntField(e, "snapshot");
    published_[Key(writer, id)] = {
        .writer = writer, .kind = StringField(e, "kind"), .t_us = IntField(e, "t_us", 0), .step = IntField(e, "step")};
    last_published_[writer] = id;
    // The files each published snapshot added and removed, replayed for a later merge table.
    auto a = attempts_.find(writer);
    if (a == attempts_.end() || a->second.snapshot != id) return;
    for (const std::string& f : a->second.add) live_[f] = {id, writer};
    for (const std::string& f : a->second.remove) {
      live_.erase(f);
      removed_by_[f] = {id, writer};
    }
  }

  void LostRace(const Json& e, const std::string& writer, size_t line) {
    const int64_t id = IntField(e, "snapshot");
    const Json to = e.contains("lost_to") && e["lost_to"].is_object() ? e["lost_to"] : Json::object();
    Explanation* x = nullptr;
    if (to.value("injected", false)) {
      x = &Add(line, writer, "lost-race",
               F("{0}'s publish of {1} was refused by an injected `lost` fault: nobody took it",
                 "{0} 发布 {1} 被注入的 `lost` 故障拒绝：没有人抢到它", writer, nouns_.Id(id)));
    } else {
      const std::string winner = StringField(to, "writer");
      // In each protocol's own words: Paimon's 抢号, Iceberg's conditional swap, Delta's log version.
      x = &Add(line, writer, "lost-race", LostRaceSentence(WordsOf(nouns_.protocol), writer, id, winner, lang()));
      auto a = attempts_.find(writer);
      auto won = published_.find(Key(writer, id));
      std::string base;
      if (a != attempts_.end() && a->second.base >= 0) {
        auto read = read_at_.find(writer);
        base = F("{0}'s attempt {1} built on {2}{3}", "{0} 的第 {1} 次尝试基于{2}{3}", writer, a->second.attempt,
                 nouns_.Id(a->second.base),
                 read == read_at_.end() ? "" : F(", read at {0}", "（读取于 {0}）", read->second));
      }
      std::string landed;
      if (won != published_.end() && won->second.writer == winner)
        landed = F("{0}'s {1}publish of {2} landed first, at {3}", "{0} 的 {1}提交在 {3} 先发布了 {2}", winner,
                   KindWord(won->second.kind), nouns_.Id(id), When(won->second));
      if (!base.empty() || !landed.empty())
        x->lines.push_back(base.empty() ? landed : landed.empty() ? base : base + T("; ", "；") + landed);
    }
    waiting_[writer] = out_.size() - 1;
  }

  void Wait(const Json& e, const std::string& writer) {
    auto w = waiting_.find(writer);
    if (w == waiting_.end()) return;
    const RetryWait wait{.base_micros = IntField(e, "base_us", 0),
                         .jitter_micros = IntField(e, "jitter_us", 0),
                         .wait_micros = IntField(e, "wait_us", 0)};
    const int failures = static_cast<int>(IntField(e, "attempt", 1));
    const std::string how = WaitWords(policy_ ? ExplainWait(*policy_, failures, wait) : ExplainWait(wait), lang());
    const ProtocolWords& words = WordsOf(nouns_.protocol);
    out_[w->second].lines.push_back(
        F("{0} waits {1}{2}, then {3}", "{0} 等待 {1}{2}，然后{3}", writer, how,
          policy_ ? F(" ({0} policy, retry {1})", "（{0} 策略，第 {1} 次重试）", RetryKindName(policy_->kind), failures)
                  : "",
          zh_ ? words.retry_zh : words.retry_en));
    waiting_.erase(w);
  }

  void Conflict(const Json& e, const std::string& writer, size_t line) {
    const Json cause = e.contains("cause") && e["cause"].is_object() ? e["cause"] : Json::object();
    const Json culprit = e.contains("culprit") && e["culprit"].is_object() ? e["culprit"] : Json::object();
    const std::string kind = StringField(cause, "kind");
    const std::string message = StringField(e, "message");
    Explanation& x = Add(line, writer, "conflict",
                         F("{0}'s {1}commit was refused: {2}", "{0} 的 {1}提交被拒绝：{2}", writer,
                           KindWord(StringField(e, "kind")), FirstLine(message)));
    auto a = attempts_.find(writer);
    if (a != attempts_.end() && a->second.base >= 0)
      x.lines.push_back(
          F("its attempt {0} built on {1}", "它的第 {0} 次尝试基于{1}", a->second.attempt, nouns_.Id(a->second.base)));
    if (kind == "file-deletion" && a != attempts_.end()) MergeTable(x, a->second, Strings(cause, "files"));
    if (auto r = counter_read_.find(writer); kind == "validation" && r != counter_read_.end()) {
      x.lines.push_back(
          F("it read {0} = {1} at {2}: the overwrite's validation looks at every commit since that "
            "read (validateNoConflictingData)",
            "它在 {2} 读到 {0} = {1}：覆盖写入的验证检查这次读取之后的每一次提交（validateNoConflictingData）",
            r->second.key, r->second.read, nouns_.Id(r->second.read_at)));
    }
    if (kind == "lsm") LsmFiles(x, message, a == attempts_.end() ? std::vector<std::string>() : a->second.add);
    if (!culprit.empty()) {
      const std::string change = StringField(culprit, "change");
      const std::string file = StringField(culprit, "file");
      const int64_t id = IntField(culprit, "snapshot");
      const std::string who =
          StringField(culprit, "writer").empty() ? StringField(culprit, "user") : StringField(culprit, "writer");
      auto p = nouns_.protocol == "paimon" ? published_.find(Key(writer, id)) : published_.end();
      const std::string what = p == published_.end() ? "" : KindWord(p->second.kind);
      // Iceberg names the conflicting snapshot by its sequence number, Delta by its log version.
      const std::string culprit_id = nouns_.protocol == "iceberg"
                                         ? F("the snapshot of sequence number {0}", "序列号为 {0} 的快照", id)
                                         : nouns_.Id(id);
      const std::string done = !zh_ ? change : change == "removed" ? "删除" : change == "added" ? "添加" : "提交";
      // The merge table already names who removed each file.
      if (kind != "file-deletion" || change != "removed") {
        x.lines.push_back(file.empty() ? F("the commit it conflicts with: {0}, {1}by {2}",
                                           "与它冲突的提交：{0}（{1}{2}）", culprit_id, what, who)
                                       : F("{0} was {1} by {2} ({3}by {4})", "{0} 已被 {2} {1}（{3}{4}）",
                                           ShortFileName(file), done, culprit_id, what, who));
      }
      // Paimon's message names the latest snapshot's author as the base commit user: not who did it.
      const size_t b = message.find("Base commit user is: ");
      if (b != std::string::npos) {
        std::string base_user = message.substr(b + 21);
        base_user = base_user.substr(0, base_user.find_first_of(".; \n"));
        if (!base_user.empty() && base_user != StringField(culprit, "user"))
          x.lines.push_back(
              F("the log's \"Base commit user\" ({0}) is the latest snapshot's author, not who {1} the file",
                "日志里的 \"Base commit user\"（{0}）只是最新快照的提交者，不是{1}文件的人", base_user,
                change.empty() ? T("changed", "改动") : done));
      }
    }
    if (nouns_.protocol == "paimon" && (kind == "file-deletion" || kind == "lsm"))
      x.lines.push_back(
          F("not retried: {0} (a Flink job fails over and re-plans)", "不重试：{0}（Flink 作业会 failover 并重新规划）",
            kind == "lsm"                               ? T("the overlap will not go away", "重叠不会消失")
            : StringField(culprit, "change") == "added" ? T("the file is already in the table", "文件已经在表里")
                                                        : T("the files will not come back", "要删的文件不会回来")));
  }

  // S2 第 5 讲's merge (docs/lectures.md#s2-5-conflict): the latest snapshot's files (base) with
  // the changes, an ADD cancelling a DELETE of the same file; a DELETE left over is a file someone
  // else removed.
  void MergeTable(Explanation& x, const Attempt& a, const std::vector<std::string>& conflicting) {
    x.lines.push_back(
        T("merging the base's files with its changes (ConflictDetection: FileEntry.mergeEntries(base ++ changes)):",
          "把 base 的文件和它的变更合并（ConflictDetection：FileEntry.mergeEntries(base ++ changes)）："));
    std::vector<std::array<std::string, 4>> rows = {
        {T("file", "文件"), T("in base?", "在 base 中？"), T("change", "变更"), T("result", "结果")}};
    for (const std::string& f : a.remove) {
      const bool live = live_.contains(f);
      const bool named = std::find(conflicting.begin(), conflicting.end(), f) != conflicting.end();
      auto by = removed_by_.find(f);
      std::string in_base = live ? T("yes", "是") : T("no", "否");
      if (!live && by != removed_by_.end() && by->second.id <= a.base) {
        // "#5" not "snapshot #5": the row must fit a projector's 100 columns.
        in_base = F("no: removed by #{0} ({1})", "否：被 #{0}（{1}）删除", by->second.id, by->second.writer);
      }
      // Paimon stops at the first left-over DELETE (`named`); every other one would conflict too.
      rows.push_back({ShortFileName(f), in_base, "DELETE",
                      live    ? T("cancels the base's ADD", "抵消 base 的 ADD")
                      : named ? T("left over: conflict", "剩下 DELETE：冲突")
                              : T("left over", "剩下 DELETE")});
    }
    // An ADD of a file the base already has is the other half of the check (checkAppendFiles).
    for (const std::string& f : a.add) {
      auto live = live_.find(f);
      if (live == live_.end()) {
        rows.push_back({ShortFileName(f), T("no", "否"), "ADD", T("added", "新增")});
      } else {
        rows.push_back({ShortFileName(f),
                        F("yes: added by #{0} ({1})", "是：由 #{0}（{1}）添加", live->second.id, live->second.writer),
                        "ADD", T("added twice: conflict", "重复添加：冲突")});
      }
    }
    size_t width[4] = {0, 0, 0, 0};
    for (const auto& r : rows)
      for (size_t c = 0; c < 4; ++c) width[c] = std::max(width[c], DisplayColumns(r[c]));
    for (size_t i = 0; i < rows.size() && i <= kMaxTableRows; ++i) {
      std::string text = "  ";
      for (size_t c = 0; c < 4; ++c)
        text += rows[i][c] + (c == 3 ? "" : std::string(width[c] - DisplayColumns(rows[i][c]) + 2, ' '));
      x.lines.push_back(text);
    }
    if (rows.size() > kMaxTableRows + 1)
      x.lines.push_back(F("  … {0} more", "  …… 还有 {0} 行", rows.size() - kMaxTableRows - 1));
  }

  // "{}, bucket 0, level 5, file F, minKey 1, maxKey 4" lines of Paimon's LSM conflict message.
  void LsmFiles(Explanation& x, const std::string& message, const std::vector<std::string>& own) {
    for (size_t at = 0; at < message.size();) {
      const size_t end = std::min(message.find('\n', at), message.size());
      const std::string line = message.substr(at, end - at);
      at = end + 1;
      const size_t level = line.find("level ");
      const size_t file = line.find("file ");
      const size_t lo = line.find("minKey ");
      const size_t hi = line.find("maxKey ");
      if (level == std::string::npos || file == std::string::npos || lo == std::string::npos || hi == std::string::npos)
        continue;
      auto word = [&](size_t from) { return line.substr(from, line.find(',', from) - from); };
      const std::string name = word(file + 5);
      const bool mine = std::find(own.begin(), own.end(), name) != own.end();
      auto live = live_.find(name);
      std::string whose = mine ? T("this commit's output", "本次提交的输出") : "";
      if (!mine && live != live_.end()) {
        whose = F("added by {0}{1}", "由 {0}{1} 添加", nouns_.Id(live->second.id),
                  F(" ({0})", "（{0}）", live->second.writer));
      }
      x.lines.push_back(F("  {0}  level {1}  keys {2}..{3}{4}", "  {0}  第 {1} 层  key {2}..{3}{4}",
                          ShortFileName(name), word(level + 6), word(lo + 7), line.substr(hi + 7),
                          whose.empty() ? "" : "  " + whose));
    }
    x.lines.push_back(T("two files of one level of a bucket may not overlap in key range (PrimaryKeyConflictDetection)",
                        "同一 bucket 同一层的两个文件，key 范围不能重叠（PrimaryKeyConflictDetection）"));
  }

  void GaveUp(const Json& e, const std::string& writer, size_t line) {
    const std::string message = StringField(e, "message");
    Explanation& x = Add(line, writer, "gave-up", F("{0} gave up: {1}", "{0} 放弃：{1}", writer, FirstLine(message)));
    if (message.find("after 9223372036854775807 millis") != std::string::npos) {
      x.lines.push_back(
          F("9223372036854775807 millis is Long.MAX_VALUE: commit.timeout is unset, so commit.max-retries{0} "
            "alone ended the commit (FileStoreCommitImpl.tryCommit)",
            "9223372036854775807 millis 就是 Long.MAX_VALUE：commit.timeout 没有设置，是 commit.max-retries{0} "
            "单独结束了这次提交（FileStoreCommitImpl.tryCommit）",
            policy_ && policy_->max_retries >= 0 ? fmt::format(" ({})", policy_->max_retries) : ""));
    }
  }

  // What an imported log itself shows (commitlab import): the finding's words, and the commits.
  void Finding(const Json& e, const std::string& writer, size_t line) {
    const bool problem = StringField(e, "severity") == "problem";
    Explanation& x = Add(line, writer, problem ? "finding" : "note",
                         F("{0} in the log ({1}) at {2}: {3}", "日志中的{0}（{1}），{2}：{3}",
                           problem ? T("a problem", "问题") : T("a note", "说明"), StringField(e, "kind"),
                           nouns_.Id(IntField(e, "snapshot", 0)), StringField(e, "message")));
    std::string commits;
    if (e.contains("commits") && e["commits"].is_array())
      for (const Json& c : e["commits"])
        if (c.is_number_integer()) commits += (commits.empty() ? "" : T(", ", "、")) + nouns_.Id(c.get<int64_t>());
    if (!commits.empty()) x.lines.push_back(F("the commits that show it: {0}", "体现它的提交：{0}", commits));
  }

  // Elle's way: which read was stale when which commit landed, and what the value should have been.
  void LostUpdates(const Json& footer, size_t line) {
    if (!footer.contains("verdicts") || !footer["verdicts"].is_object()) return;
    const Json& v = footer["verdicts"];
    if (!v.contains("violations") || !v["violations"].is_array()) return;
    for (const Json& violation : v["violations"]) {
      if (StringField(violation, "kind") != "lost_update") {
        // The invariant checker's own finding (a lost or doubled commit, a missing file) says what
        // broke; the explanations above say how the run got there.
        const std::string kind = StringField(violation, "kind");
        Add(line, "", "violation",
            F("the checker ({2}): {0}{1}", "检查器发现{0}{1}",
              ViolationSentence(kind, StringField(violation, "message"), lang()),
              violation.value("expected", false) ? T(" (expected by the scenario)", "（场景预期之中）") : "",
              ViolationKindName(kind, lang())));
        continue;
      }
      std::string message = StringField(violation, "message");
      if (message.starts_with("lost update: ")) message = message.substr(13);
      // The checker's message names the counter: "counter hits is 15, but ...".
      std::string counter;
      if (message.starts_with("counter ")) counter = message.substr(8, message.find(' ', 8) - 8);
      Explanation& x = Add(line, "", "lost-update",
                           zh_ ? ViolationSentence("lost_update", StringField(violation, "message"), lang())
                               : "lost update: " + message);
      for (auto& [key, commits] : counters_) {
        if (!counter.empty() && key != counter) continue;
        std::sort(commits.begin(), commits.end(),
                  [](const CounterCommit& a, const CounterCommit& b) { return a.version < b.version; });
        for (size_t i = 0; i < commits.size(); ++i) {
          const CounterCommit& c = commits[i];
          std::string text =
              F("{0} read {1} = {2} at {3} and committed {4} as {5}", "{0} 在 {3} 读到 {1} = {2}，提交了 {4}，成为 {5}",
                c.writer, key, c.read, nouns_.Id(c.read_at), c.value, nouns_.Id(c.version));
          // The commits that landed between its read and its own: the ones it overwrote unseen.
          std::vector<std::string> unseen;
          for (size_t j = 0; j < i; ++j)
            if (commits[j].version > c.read_at && commits[j].writer != c.writer)
              unseen.push_back(F("{0} ({1}'s {2})", "{0}（{1} 的 {2}）", nouns_.Id(commits[j].version),
                                 commits[j].writer, commits[j].value));
          if (!unseen.empty()) {
            std::string list;
            for (const std::string& u : unseen) list += (list.empty() ? "" : T(", ", "、")) + u;
            text +=
                F(": its read was stale, {0} landed after it, and {1}'s {2} overwrote that unseen",
                  "：它的读取已经过期，{0} 在这次读取之后生效，{1} 的 {2} 不知情地覆盖了它", list, c.writer, c.value);
          }
          x.lines.push_back(text);
        }
      }
    }
  }

  // A snapshot id of the table `writer` writes: ids repeat across tables.
  using TableId = std::pair<std::string, int64_t>;
  TableId Key(const std::string& writer, int64_t id) const {
    auto it = tables_.of_writer.find(writer);
    return {it == tables_.of_writer.end() || it->second.empty() ? tables_.first : it->second, id};
  }

  const std::vector<Json>& h_;
  const bool zh_;
  Tables tables_;
  Nouns nouns_;
  std::optional<RetryPolicy> policy_;
  bool timed_ = false;
  std::vector<Explanation> out_;
  std::map<std::string, Attempt> attempts_;        // writer -> its latest attempt
  std::map<std::string, std::string> read_at_;     // writer -> when it last read the latest
  std::map<TableId, Publish> published_;           // (table, id) -> who published it
  std::map<std::string, int64_t> last_published_;  // writer -> the id it published last
  struct Touch {
    int64_t id = 0;      // the snapshot
    std::string writer;  // who published it
  };
  std::map<std::string, Touch> live_;                   // Paimon file -> the snapshot that added it
  std::map<std::string, Touch> removed_by_;             // file -> the snapshot that removed it
  std::map<std::string, size_t> waiting_;               // writer -> its explanation a retry wait completes
  std::map<std::string, std::string> publish_outcome_;  // writer -> what the store did with its last publish
  std::map<std::string, std::vector<CounterCommit>> counters_;
  struct CounterRead {
    std::string key;
    int64_t read = 0;
    int64_t read_at = 0;
  };
  std::map<std::string, CounterRead> counter_read_;  // writer -> its last counter read
};

}  // namespace

Result<std::vector<Explanation>> ExplainHistory(const std::vector<Json>& history, Language language) {
  return Explainer(history, language).Run();
}

std::string ExplanationKindName(const std::string& kind, Language language) {
  struct Name {
    const char* kind;
    const char* en;
    const char* zh;
  };
  static constexpr Name kNames[] = {{"lost-race", "lost-race", "竞争落败"},
                                    {"conflict", "conflict", "拒绝"},
                                    {"gave-up", "gave-up", "放弃"},
                                    {"unknown-outcome", "unknown-outcome", "结果未知"},
                                    {"crash", "crash", "崩溃"},
                                    {"lost-update", "lost-update", "丢失更新"},
                                    {"violation", "violation", "违反"}};
  for (const Name& n : kNames)
    if (kind == n.kind) return language == Language::kChinese ? n.zh : n.en;
  return kind;
}

std::string ExplanationText(const std::vector<Explanation>& explanations, size_t max_per_kind, Language language) {
  const bool zh = language == Language::kChinese;
  const std::string label = zh ? "原因：" : "why: ";
  const std::string indent(DisplayColumns(label), ' ');
  std::string out;
  std::map<std::string, size_t> shown;
  std::map<std::string, size_t> skipped;
  for (const Explanation& x : explanations) {
    if (shown[x.kind]++ >= max_per_kind) {
      ++skipped[x.kind];
      continue;
    }
    for (size_t i = 0; i < x.lines.size(); ++i) out += (i == 0 ? label : indent) + x.lines[i] + "\n";
  }
  for (const auto& [kind, n] : skipped) {
    out += zh ? fmt::format("{}…… 还有 {} 条同类（{}）的说明\n", label, n, ExplanationKindName(kind, language))
              : fmt::format("{}… and {} more {} explanation(s) like these\n", label, n, kind);
  }
  return out;
}

}  // namespace commitlab::sim
