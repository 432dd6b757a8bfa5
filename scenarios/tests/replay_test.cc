// Replay: a history carries everything needed to run it again. 1,000 seeded races come back
// identical event by event; a race on OS threads comes back with the same reads, publishes and
// outcome; a scenario edited after the recording parts at a named event.
#include "commitlab/scenarios/replay.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "commitlab/scenarios/parser.h"
#include "commitlab/scenarios/race.h"
#include "commitlab/scenarios/report_json.h"

namespace commitlab::scenarios {
namespace {

using sim::Json;
using ::testing::HasSubstr;

constexpr char kLatency[] =
    "read-latest=uniform:0.2,1;write-manifest=uniform:1,4;publish=uniform:0.5,2;"
    "write-data=uniform:4,10";

// Records `s` with `options` as `commitlab run` would: header, events, footer.
std::vector<Json> Record(const Scenario& s, RunOptions options, const Json& settings, const Json& plan) {
  NullEventSink quiet;
  sim::History history;
  history.Header({{"commitlab", {{"version", "test"}, {"git", "test"}}},
                  {"command", "run"},
                  {"argv", Json::array()},
                  {"settings", settings},
                  {"plan", plan},
                  {"scenario", {{"file", s.file_name}, {"sha256", sim::Sha256Hex(s.text)}, {"text", s.text}}}});
  options.events = &quiet;
  options.history = &history;
  Result<RunReport> r = RunScenario(s, options);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  if (!r.ok()) return {};
  history.Footer(HistoryFooter(*r));
  std::vector<Json> lines;
  for (const std::string& line : history.lines()) lines.push_back(Json::parse(line));
  return lines;
}

Json PlanOf(const Scenario& s, const RunOptions& o) {
  Result<RunPlan> plan = PlanRun(s, o);
  EXPECT_TRUE(plan.ok());
  return plan.ok() ? PlanJson(*plan) : Json();
}

TEST(ReplayTest, AThousandSeededRacesComeBackIdentical) {
  Result<Scenario> race = RaceScenario({.latency = kLatency});
  ASSERT_TRUE(race.ok());
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    const RunOptions o{.seed = seed, .sched = "random"};
    const std::vector<Json> recorded =
        Record(*race, o, {{"seed", seed}, {"sched", "random"}, {"schedule", nullptr}}, PlanOf(*race, o));
    Result<ReplayOutcome> r = ReplayHistory(recorded);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_FALSE(r->difference.has_value()) << "seed " << seed << " differs at event " << r->difference->index;
    ASSERT_EQ(r->replayed.size() + 1, recorded.size());
  }
}

// A history's lines as text, read one at a time as `commitlab replay` reads its file.
class Lines final : public RecordedLines {
 public:
  explicit Lines(std::vector<std::string> lines) : lines_(std::move(lines)) {}
  Result<bool> Next(std::string* line) override {
    if (at_ == lines_.size()) return false;
    *line = lines_[at_++];
    return true;
  }
  size_t line_number() const override { return at_; }

 private:
  std::vector<std::string> lines_;
  size_t at_ = 1;  // the header is the caller's
};

std::vector<std::string> Texts(const std::vector<Json>& lines) {
  std::vector<std::string> out;
  for (const Json& l : lines) out.push_back(l.dump());
  return out;
}

TEST(ReplayTest, AStreamedReplayComparesAsTheWholeOneDoes) {
  Result<Scenario> race = RaceScenario({.commits = 50, .latency = kLatency});
  ASSERT_TRUE(race.ok());
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const RunOptions o{.seed = seed, .sched = "random"};
    const std::vector<Json> recorded =
        Record(*race, o, {{"seed", seed}, {"sched", "random"}, {"schedule", nullptr}}, PlanOf(*race, o));
    Lines lines(Texts(recorded));
    Result<StreamedReplay> r = ReplayHistoryStreamed(recorded.front(), &lines);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_FALSE(r->difference.has_value()) << "seed " << seed << " differs at event " << r->difference->index;
    EXPECT_EQ(r->events + 2, recorded.size());  // without the header and the footer
  }
}

TEST(ReplayTest, AStreamedReplayNamesWhereItParts) {
  Result<Scenario> race = RaceScenario({.commits = 5, .latency = kLatency});
  ASSERT_TRUE(race.ok());
  const RunOptions o{.seed = 3, .sched = "random"};
  const std::vector<Json> recorded =
      Record(*race, o, {{"seed", 3}, {"sched", "random"}, {"schedule", nullptr}}, PlanOf(*race, o));
  std::vector<std::string> texts = Texts(recorded);

  // An event changed by hand: found at its index, with the three before it.
  std::vector<std::string> edited = texts;
  Json changed = recorded[10];
  changed["t_us"] = 123456789;
  edited[10] = changed.dump();
  Lines edited_lines(edited);
  Result<StreamedReplay> r = ReplayHistoryStreamed(recorded.front(), &edited_lines);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_TRUE(r->difference.has_value());
  EXPECT_EQ(r->difference->index, 9u);  // the lines after the header
  EXPECT_EQ((*r->difference->recorded)["t_us"], 123456789);
  ASSERT_EQ(r->before.size(), 3u);
  EXPECT_EQ(r->before.back(), recorded[9]);

  // Members in another order are the same event.
  std::vector<std::string> reordered = texts;
  std::vector<std::string> keys;
  for (const auto& [key, value] : recorded[10].items()) keys.push_back(key);
  Json shuffled = Json::object();
  for (auto key = keys.rbegin(); key != keys.rend(); ++key) shuffled[*key] = recorded[10][*key];
  ASSERT_NE(shuffled.dump(), texts[10]);
  reordered[10] = shuffled.dump();
  Lines reordered_lines(reordered);
  r = ReplayHistoryStreamed(recorded.front(), &reordered_lines);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->difference.has_value());

  // Cut short: the replay goes on past the recorded end.
  std::vector<std::string> cut(texts.begin(), texts.begin() + 20);
  Lines cut_lines(cut);
  r = ReplayHistoryStreamed(recorded.front(), &cut_lines);
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r->difference.has_value());
  EXPECT_EQ(r->difference->index, 19u);
  EXPECT_FALSE(r->difference->recorded.has_value());

  // A line that is not JSON, even after the first difference, is bad input named by its line.
  std::vector<std::string> broken = edited;
  broken[30] = "{not json";
  Lines broken_lines(broken);
  r = ReplayHistoryStreamed(recorded.front(), &broken_lines);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("line 31: not JSON"));
}

TEST(ReplayTest, ARaceOnThreadsComesBackWithTheSameOutcome) {
  Result<Scenario> race = RaceScenario({.writers = 3, .commits = 20, .latency = kLatency});
  ASSERT_TRUE(race.ok());
  for (int run = 0; run < 3; ++run) {
    const RunOptions o{.sched = "free"};
    const std::vector<Json> recorded = Record(*race, o, {{"seed", 1}, {"sched", "free"}}, PlanOf(*race, o));
    Result<ReplayOutcome> r = ReplayHistory(recorded);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_TRUE(r->threads);
    EXPECT_EQ(r->threads_problem, "");
    EXPECT_EQ(r->replayed.back()["latest_snapshot"], 60);
  }
}

TEST(ReplayTest, AnEditedScenarioPartsAtANamedEvent) {
  Result<Scenario> s = ParseScenario(
      "title \"t\"\ntable name=T protocol=paimon\nwriter name=a\nwriter name=b\n"
      "a.x: write rows=1; commit\nb.y: write rows=1; commit\norder a.x -> b.y\n",
      "t.scn");
  ASSERT_TRUE(s.ok());
  const RunOptions o{};
  const std::vector<Json> recorded = Record(*s, o, {{"seed", nullptr}}, PlanOf(*s, o));
  Result<ReplayOutcome> same = ReplayHistory(recorded);
  ASSERT_TRUE(same.ok());
  EXPECT_FALSE(same->difference.has_value());
  Result<ReplayOutcome> edited = ReplayHistory(
      recorded, {.scenario_text = "title \"t\"\ntable name=T protocol=paimon\nwriter name=a\nwriter name=b\n"
                                  "a.x: write rows=3; commit\nb.y: write rows=1; commit\norder a.x -> b.y\n"});
  ASSERT_TRUE(edited.ok());
  ASSERT_TRUE(edited->difference.has_value());
  ASSERT_TRUE(edited->difference->recorded.has_value());
  EXPECT_EQ((*edited->difference->recorded)["writer"], "a");
  EXPECT_EQ((*edited->difference->recorded)["type"], "step_end");
  EXPECT_THAT(sim::DescribeChangedMembers(*edited->difference->recorded, *edited->difference->replayed),
              HasSubstr("rows=1) -> "));
}

// A hand-made history of two writers recorded on OS threads, each committing once: `ops` are the
// op_end lines (writer, op, saw or snapshot and outcome).
std::vector<Json> ThreadHistory(const std::vector<Json>& ops) {
  Result<Scenario> s = ParseScenario(
      "title \"t\"\ntable name=T protocol=paimon\nwriter name=a\nwriter name=b\n"
      "a: write rows=1; commit\nb: write rows=1; commit\n",
      "t.scn");
  EXPECT_TRUE(s.ok());
  std::vector<Json> lines = {{{"type", "header"},
                              {"format", "commitlab-history"},
                              {"version", 1},
                              {"command", "run"},
                              {"settings", {{"sched", "free"}}},
                              {"plan", {{"sched", "free"}, {"faults", Json::array()}}},
                              {"scenario", {{"file", "t.scn"}, {"text", s->text}}}}};
  for (const Json& op : ops) lines.push_back(op);
  lines.push_back({{"type", "footer"}, {"latest_snapshot", 2}});
  return lines;
}

Json Read(const char* writer, int64_t saw) {
  return {{"type", "op_end"}, {"writer", writer}, {"op", "read-latest"}, {"saw", saw}};
}
Json Publish(const char* writer, int64_t snapshot, const char* outcome) {
  return {{"type", "op_end"}, {"writer", writer}, {"op", "publish"}, {"snapshot", snapshot}, {"outcome", outcome}};
}

TEST(ThreadReplayTest, ReproducesALostRace) {
  Result<ReplayOutcome> r =
      ReplayHistory(ThreadHistory({Read("a", 0), Read("b", 0), Publish("a", 1, "published"), Publish("b", 1, "lost"),
                                   Read("b", 1), Publish("b", 2, "published")}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->threads_problem,
            "the outcome differs: tally recorded null, replayed "
            "{\"committed\":2,\"attempts\":3,\"atomic_failures\":1,\"conflicts\":0,"
            "\"unknown_outcomes\":0,\"idempotent_matches\":0,\"gave_up\":0,\"orphan_files\":1}")
      << "every recorded effect came back; only this hand-made footer has no tally";
}

TEST(ThreadReplayTest, NamesTwoWinnersOfOneSnapshot) {
  Result<ReplayOutcome> r = ReplayHistory(
      ThreadHistory({Read("a", 0), Read("b", 0), Publish("a", 1, "published"), Publish("b", 1, "published")}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_THAT(r->threads_problem, HasSubstr("could not force b's 2nd storage effect (line 5): a publish of snapshot 1 "
                                            "that won: the recording has 2 writers told they published snapshot 1"));
}

TEST(ThreadReplayTest, NamesAnEffectOfTheWrongKind) {
  Result<ReplayOutcome> r =
      ReplayHistory(ThreadHistory({Publish("a", 2, "published"), Read("b", 0), Publish("b", 1, "published")}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_THAT(r->threads_problem,
              HasSubstr("could not force a's 1st storage effect (line 2): a publish of snapshot 2 that won: the writer "
                        "reads the latest snapshot instead"));
}

TEST(ThreadReplayTest, NamesAReadNoOrderCanReach) {
  Result<ReplayOutcome> r = ReplayHistory(ThreadHistory({Read("a", 5), Read("b", 0), Publish("b", 1, "published")}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_THAT(r->threads_problem,
              HasSubstr("could not force a's 1st storage effect (line 2): a read of the latest snapshot that saw 5: no "
                        "order of the other writers gets the table there"));
}

TEST(ThreadReplayTest, RefusesAFaultThatFiresByChance) {
  std::vector<Json> h = ThreadHistory({});
  h[0]["plan"]["faults"] = {"a:publish.after:p=0.5:unknown"};
  EXPECT_THAT(ReplayHistory(h).status().message(), HasSubstr("fires by chance"));
}

TEST(ReplayTest, RefusesWhatIsNotAHistoryItCanRead) {
  EXPECT_THAT(ReplayHistory({Json::parse(R"({"type":"event"})")}).status().message(),
              HasSubstr("line 1: not a commitlab history"));
  EXPECT_THAT(
      ReplayHistory({Json::parse(R"({"type":"header","format":"commitlab-history","version":2})")}).status().message(),
      HasSubstr("history format version 2 is not one this build reads (1)"));
  EXPECT_THAT(
      CheckHistoryHeader(
          Json::parse(
              R"({"type":"header","format":"commitlab-history","version":1,"command":"run","settings":{},"plan":{}})"))
          .message(),
      HasSubstr("the header's scenario has no text"));
  // Found by history_fuzz: a repeated key whose last value is not a string made the reader throw.
  EXPECT_THAT(
      CheckHistoryHeader(Json::parse(R"({"type":"header","type":["x"],"format":"commitlab-history"})")).message(),
      HasSubstr("line 1: not a commitlab history"));
  const Json wrong_sched = Json::parse(R"({"type":"header","format":"commitlab-history","version":1,"command":"run",
      "settings":{},"plan":{"sched":7},"scenario":{"file":"x.scn","text":"title \"x\"\ntable name=t protocol=paimon\nwriter name=a\na: write rows=1; commit\n"}})");
  EXPECT_THAT(ReplayHistory({wrong_sched}).status().message(), HasSubstr("line 1: the header is malformed"));
}

}  // namespace
}  // namespace commitlab::scenarios
