#include "commitlab/sim/run_state.h"

#include <fmt/format.h>

#include <algorithm>

#include "commitlab/sim/detail_words.h"
#include "commitlab/sim/history_fields.h"
#include "commitlab/sim/protocol_words.h"

namespace commitlab::sim {
namespace {

std::string FirstLine(const std::string& s) { return s.substr(0, s.find('\n')); }

}  // namespace

std::string Clock(int64_t micros) {
  std::string text = micros >= 1'000'000 ? fmt::format("{:.3f}", static_cast<double>(micros) / 1e6)
                                         : fmt::format("{:.3f}", static_cast<double>(micros) / 1e3);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text + (micros >= 1'000'000 ? " s" : " ms");
}

namespace {

std::vector<std::string> Strings(const Json& e, const char* key) {
  std::vector<std::string> out;
  if (!e.is_object() || !e.contains(key) || !e[key].is_array()) return out;
  for (const Json& s : e[key])
    if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}

// "writer.loaded -> compact-job-1.plan": the writer and the point the gated writer waits for.
std::pair<std::string, std::string> GateSource(const std::string& order) {
  const std::string first = order.substr(0, order.find(" -> "));
  const size_t dot = first.rfind('.');
  if (dot == std::string::npos) return {first, ""};
  return {first.substr(0, dot), first.substr(dot + 1)};
}

}  // namespace

std::string WaitWords(const std::string& explained, Language language) {
  if (language != Language::kChinese) return explained;
  struct Swap {
    const char* en;
    const char* zh;
  };
  // ExplainWait's words (core/src/retry_policy.cc).
  static constexpr Swap kSwaps[] = {{" (the cap)", "（上限）"},
                                    {" jitter", " 抖动"},
                                    {" (fixed)", "（固定）"},
                                    {" (none: at once)", "（不等待）"},
                                    {", drawn from ", "，从此区间抽取："},
                                    {" (half of ", "（一半，共 "},
                                    {" drawn (decorrelated, at most 3 × the last wait, capped at ",
                                     " 随机（decorrelated：至多上次等待的 3 倍，上限 "}};
  std::string out = explained;
  for (const Swap& s : kSwaps) {
    for (size_t at = out.find(s.en); at != std::string::npos; at = out.find(s.en, at + 1))
      out.replace(at, std::string_view(s.en).size(), s.zh);
  }
  return TidyChinese(out);
}

RunState::RunState(const Json& header, Language language) : language_(language), layout_(TablesOfHeader(header)) {
  if (header.is_object() && header.contains("plan") && header["plan"].is_object()) {
    Result<RetryPolicy> p = ParseRetryPolicy(StringField(header["plan"], "retry"));
    if (p.ok()) policy_ = *p;
  }
  for (const HistoryTables::Table& t : layout_.tables)
    tables_.push_back({.name = t.name, .protocol = t.protocol, .files_known = t.protocol == "paimon"});
  for (const std::string& w : layout_.writers) Writer(w);
}

WriterNow& RunState::Writer(const std::string& name) {
  auto it = index_.find(name);
  if (it != index_.end()) return writers_[it->second];
  index_[name] = writers_.size();
  writers_.push_back({.name = name, .table = layout_.TableOf(name), .phase = F("not started", "未开始")});
  return writers_.back();
}

std::string RunState::IdOf(size_t table, int64_t id) const {
  return IdName(WordsOf(table < tables_.size() ? tables_[table].protocol : ""), id, language_);
}

std::string RunState::LatestLine(size_t table) const {
  const TableNow& t = tables_[table];
  if (!t.latest) return F("no snapshot yet", "还没有快照");
  const std::string by = t.latest_kind.empty() ? t.latest_by : t.latest_kind + " " + t.latest_by;
  return Say(language_, "latest {0} ({1})", "最新是 {0}（{1}）", IdOf(table, *t.latest), by);
}

std::string RunState::TableLine(size_t table, size_t max_files) const {
  const TableNow& t = tables_[table];
  std::string text = LatestLine(table);
  if (t.files_known) {
    std::string files;
    for (size_t i = 0; i < t.live_files.size() && i < max_files; ++i)
      files += (i ? F(", ", "、") : "") + ShortFileName(t.live_files[i]);
    if (t.live_files.size() > max_files)
      files += Say(language_, " and {0} more", " 等", t.live_files.size() - max_files);
    text += t.live_files.empty()
                ? F("; no live file", "；没有存活文件")
                : Say(language_, "; {0} live file(s): {1}", "；存活文件 {0} 个：{1}", t.live_files.size(), files);
  }
  for (const auto& [key, value] : t.counters)
    text += Say(language_, "; counter {0} = {1}", "；计数器 {0} = {1}", key, value);
  return text;
}

std::string RunState::WriterLine(size_t writer) const {
  const WriterNow& w = writers_[writer];
  return w.waits_for.empty() ? w.phase : Say(language_, "{0}: {1}", "{0}：{1}", w.phase, w.waits_for);
}

std::string RunState::Files(const std::vector<std::string>& files) const {
  std::string out;
  for (size_t i = 0; i < files.size() && i < 4; ++i) out += (i ? ", " : "") + ShortFileName(files[i]);
  if (files.size() > 4) out += Say(language_, " and {0} more", " 等共 {0} 个", files.size());
  return out;
}

void RunState::Landed(WriterNow& w, int64_t id) {
  TableNow& t = tables_[w.table];
  t.latest = id;
  t.latest_by = w.name;
  auto plan = plans_.find(w.name);
  t.latest_kind = plan != plans_.end() && plan->second.snapshot == id ? plan->second.kind : "";
  if (!t.files_known || plan == plans_.end() || plan->second.snapshot != id) return;
  for (const std::string& f : plan->second.remove) std::erase(t.live_files, f);
  for (const std::string& f : plan->second.add) t.live_files.push_back(f);
}

std::vector<std::string> RunState::Apply(const Json& e) {
  const std::string type = StringField(e, "type");
  now_us_ = std::max(now_us_, IntField(e, "t_us", 0));
  if (type == "footer") {
    for (WriterNow& w : writers_) {
      if (w.failed || !w.started) continue;
      w.phase = F("finished", "已完成");
      w.waits_for.clear();
    }
    return {F("the run is over", "运行结束")};
  }
  const std::string name = StringField(e, "writer");
  if (name.empty()) return {};
  WriterNow& w = Writer(name);
  w.started = true;
  std::string said;
  if (type == "op_start") {
    said = OpStarted(w, StringField(e, "op"));
  } else if (type == "op_end") {
    said = OpEnded(w, e);
  } else if (type == "step_start" || type == "step_end") {
    said = Step(w, type, e);
  } else if (type == "gate_wait" || type == "gate_open") {
    said = Gate(w, type, e);
  } else {
    said = Engine(w, type, e);
  }
  if (said.empty()) return {};
  return {said};
}

std::string RunState::OpStarted(WriterNow& w, const std::string& op) {
  const auto plan = plans_.find(w.name);
  const Plan* p = plan == plans_.end() ? nullptr : &plan->second;
  const std::string& protocol = tables_[w.table].protocol;
  if (op == "read-latest") {
    w.phase = F("reads the latest snapshot", "读取最新快照");
  } else if (op == "read-snapshot") {
    w.phase = F("reads a snapshot", "读取一个快照");
  } else if (op == "write-data") {
    w.phase = F("writes a data file", "写数据文件");
  } else if (op == "check-data") {
    w.phase = F("asks whether its checkpoint's file exists", "检查 checkpoint 的文件是否存在");
  } else if (op == "write-manifest") {
    w.phase = p == nullptr ? F("writes the manifest", "写 manifest")
                           : Say(language_, "writes the manifest of {0}: ADD {1}, DELETE {2}",
                                 "写{0}的 manifest：ADD {1} 个，DELETE {2} 个", IdOf(w.table, p->snapshot),
                                 p->add.size(), p->remove.size());
  } else if (op == "publish" && p == nullptr) {
    w.phase = F("publishes", "发布");
  } else if (op == "publish") {
    const std::string id = IdOf(w.table, p->snapshot);
    w.phase = protocol == "iceberg"
                  ? Say(language_, "swaps the catalog pointer to {0}", "在 Catalog 中把指针条件式替换为 {0}", id)
              : protocol == "delta" ? Say(language_, "writes {0} of the log", "写日志{0}", id)
                                    : Say(language_, "claims {0} (rename)", "抢{0}（rename）", id);
  } else {
    w.phase = op;
  }
  w.waits_for.clear();
  return Say(language_, "{0} {1}", "{0} {1}", w.name, w.phase);
}

std::string RunState::OpEnded(WriterNow& w, const Json& e) {
  const std::string op = StringField(e, "op");
  if (e.contains("saw")) {
    const int64_t saw = IntField(e, "saw", 0);
    w.phase = Say(language_, "read the latest: {0}", "读到最新的是{0}", IdOf(w.table, saw));
    return Say(language_, "{0} {1}", "{0} {1}", w.name, w.phase);
  }
  if (op == "publish") {
    const int64_t id = IntField(e, "snapshot", -1);
    const std::string outcome = StringField(e, "outcome");
    if (outcome == "published") {
      Landed(w, id);
      w.phase = Say(language_, "{0} is in the table", "{0}已生效", IdOf(w.table, id));
      return Say(language_, "{0}'s publish took effect: {1} is the table's now", "{0} 的发布生效：表的最新是{1}",
                 w.name, IdOf(w.table, id));
    }
    // A lost one is told by the engine's event that follows, with who took the id.
    w.phase = outcome == "lost"
                  ? Say(language_, "found {0} taken", "发现 {0} 已被占用", IdOf(w.table, id))
                  : Say(language_, "does not know whether {0} landed", "不知道 {0} 是否生效", IdOf(w.table, id));
    return outcome == "lost" ? "" : Say(language_, "{0} {1}", "{0} {1}", w.name, w.phase);
  }
  if (op == "write-manifest") {
    const auto plan = plans_.find(w.name);
    if (plan == plans_.end()) return "";
    const Plan& p = plan->second;
    std::string what;
    if (!p.remove.empty()) what += "DELETE " + Files(p.remove);
    if (!p.add.empty()) what += (what.empty() ? "" : "; ") + std::string("ADD ") + Files(p.add);
    if (what.empty()) what = F("no file change (an empty commit)", "没有文件变更（空提交）");
    w.phase = Say(language_, "wrote the manifest of {0}", "写好了{0}的 manifest", IdOf(w.table, p.snapshot));
    return Say(language_, "{0} {1}: {2}", "{0} {1}：{2}", w.name, w.phase, what);
  }
  const std::string file = StringField(e, "file");
  w.phase = op == "write-data" ? F("wrote a data file", "写好了数据文件") : Say(language_, "{0} done", "{0} 完成", op);
  return file.empty() ? "" : Say(language_, "{0} wrote {1}", "{0} 写好了 {1}", w.name, ShortFileName(file));
}

std::string RunState::Step(WriterNow& w, const std::string& type, const Json& e) {
  const int64_t line = IntField(e, "line", 0);
  const std::string op = StringField(e, "op");
  if (type == "step_start") {
    w.failed = false;
    w.phase = Say(language_, "line {0}: {1}", "第 {0} 行：{1}", line, op);
    w.waits_for.clear();
    return Say(language_, "{0} starts line {1}: {2}", "{0} 开始第 {1} 行：{2}", w.name, line, op);
  }
  const bool failed = StringField(e, "status") == "failed";
  w.failed = failed;
  if (failed) {
    w.phase = Say(language_, "line {0} failed ({1})", "第 {0} 行失败（{1}）", line,
                  OutcomeText(StringField(e, "outcome"), language_));
    return Say(language_, "{0} {1}", "{0} {1}", w.name, w.phase);
  }
  if (e.contains("counter") && e["counter"].is_object()) {
    const Json& c = e["counter"];
    if (StringField(c, "action") == "commit")
      tables_[w.table].counters[StringField(c, "key")] = IntField(c, "value", 0);
  }
  w.phase = Say(language_, "line {0} done", "第 {0} 行完成", line);
  const std::string detail = StepDetailSentence(StringField(e, "detail"), language_);
  return detail.empty() ? "" : Say(language_, "{0} line {1}: {2}", "{0} 第 {1} 行：{2}", w.name, line, detail);
}

std::string RunState::Gate(WriterNow& w, const std::string& type, const Json& e) {
  const std::string order = StringField(e, "order");
  const int64_t line = IntField(e, "line", 0);
  if (type == "gate_open") {
    w.waits_for.clear();
    w.phase = Say(language_, "goes on past order line {0}", "通过第 {0} 行的 order", line);
    return Say(language_, "{0} {1}", "{0} {1}", w.name, w.phase);
  }
  const auto [who, point] = GateSource(order);
  w.phase = Say(language_, "held at order line {0}", "停在第 {0} 行的 order", line);
  w.waits_for = point.empty() ? order : Say(language_, "waits for {0} to reach {1}", "等 {0} 到达 {1}", who, point);
  return Say(language_, "{0} {1} ({2}): {3}", "{0} {1}（{2}）：{3}", w.name, w.phase, order, w.waits_for);
}

std::string RunState::Engine(WriterNow& w, const std::string& type, const Json& e) {
  const std::string message = FirstLine(StringField(e, "message"));
  const ProtocolWords& words = WordsOf(tables_[w.table].protocol);
  if (type == "attempt") {
    Plan p{.snapshot = IntField(e, "snapshot", -1), .kind = StringField(e, "kind"), .add = {}, .remove = {}};
    w.attempt = static_cast<int>(IntField(e, "attempt", 0));
    if (e.contains("plan") && e["plan"].is_object()) {
      const int64_t base = IntField(e["plan"], "base", -1);
      if (base >= 0) w.base = base;
      p.add = Strings(e["plan"], "add");
      p.remove = Strings(e["plan"], "delete");
    }
    plans_[w.name] = std::move(p);
    w.phase =
        Say(language_, "attempt {0} on {1}", "第 {0} 次尝试，基于{1}", w.attempt, IdOf(w.table, w.base.value_or(0)));
    return Say(language_, "{0} {1}", "{0} {1}", w.name, w.phase);
  }
  if (type == "retry_wait") {
    const RetryWait wait{.base_micros = IntField(e, "base_us", 0),
                         .jitter_micros = IntField(e, "jitter_us", 0),
                         .wait_micros = IntField(e, "wait_us", 0)};
    const int failures = static_cast<int>(IntField(e, "attempt", 1));
    const std::string how = WaitWords(policy_ ? ExplainWait(*policy_, failures, wait) : ExplainWait(wait), language_);
    w.wait_until_us = IntField(e, "t_us", 0) + wait.wait_micros;
    w.phase = Say(language_, "waits {0}", "等待 {0}", how);
    w.waits_for = Say(language_, "its retry wait, until {0}", "重试等待到 {0}", Clock(w.wait_until_us));
    return Say(language_, "{0} {1}, then {2}", "{0} {1}，然后{2}", w.name, w.phase,
               language_ == Language::kChinese ? words.retry_zh : words.retry_en);
  }
  if (type == "atomic_commit_failed") {
    const Json to = e.contains("lost_to") && e["lost_to"].is_object() ? e["lost_to"] : Json::object();
    const int64_t id = IntField(e, "snapshot", IntField(to, "snapshot", 0));
    const std::string sentence = LostRaceSentence(words, w.name, id, StringField(to, "writer"), language_);
    w.phase = sentence.substr(std::min(sentence.size(), w.name.size() + 1));
    return sentence;
  }
  if (type == "conflict") {
    w.phase = F("refused", "被拒绝");
    w.failed = true;
    return Say(language_, "{0} is refused: {1}", "{0} 被拒绝：{1}", w.name, message);
  }
  if (type == "gave_up" || type == "crashed") {
    w.phase = type == "crashed" ? F("crashed", "崩溃") : F("gave up", "放弃");
    w.failed = true;
    return Say(language_, "{0} {1}: {2}", "{0} {1}：{2}", w.name, w.phase, message);
  }
  if (type == "fault")
    return Say(language_, "{0}: fault {1} at {2}", "{0}：在 {2} 注入故障 {1}", w.name, StringField(e, "effect"),
               StringField(e, "point"));
  if (type == "published") return "";  // the store's side said it at the publish's end
  if (message.empty()) return "";
  return Say(language_, "{0} {1} {2}", "{0} {1} {2}", w.name, StringField(e, "level"), message);
}

}  // namespace commitlab::sim
