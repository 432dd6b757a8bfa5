#include "commitlab/sim/trace.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <sstream>
#include <thread>

namespace commitlab::sim {
namespace {

// A fixed event sequence: a lost race, its retry wait, then success.
std::vector<Event> RaceEvents() {
  return {
      {.type = EventType::kAttempt, .user = "job-A", .identifier = 7, .attempt = 1, .snapshot_id = 3,
       .time_micros = 1500, .message = "Try to commit snapshot #3 by user job-A with identifier 7 and kind APPEND."},
      {.type = EventType::kAtomicCommitFailed, .level = Level::kWarn, .user = "job-A", .identifier = 7, .attempt = 1,
       .snapshot_id = 3, .time_micros = 2500, .message = "Atomic commit failed for snapshot #3"},
      {.type = EventType::kRetryWait, .user = "job-A", .identifier = 7, .attempt = 1, .wait_micros = 12345,
       .time_micros = 2500, .message = "Retry commit after waiting 12.345 ms."},
      {.type = EventType::kPublished, .user = "job-A", .identifier = 7, .kind = CommitKind::kCompact,
       .attempt = 2, .snapshot_id = 4, .time_micros = 15000, .message = "say \"hi\"\n\tback\\slash"},
  };
}

constexpr std::string_view kRaceTrace =
    R"({"t_us":1500,"step":1,"writer":"job-A","event":"attempt","level":"INFO","identifier":7,"kind":"APPEND",)"
    R"("attempt":1,"snapshot":3,"message":"Try to commit snapshot #3 by user job-A with identifier 7 and )"
    R"(kind APPEND."})"
    "\n"
    R"({"t_us":2500,"step":2,"writer":"job-A","event":"atomic_commit_failed","level":"WARN","identifier":7,)"
    R"("kind":"APPEND","attempt":1,"snapshot":3,"message":"Atomic commit failed for snapshot #3"})"
    "\n"
    R"({"t_us":2500,"step":3,"writer":"job-A","event":"retry_wait","level":"INFO","identifier":7,"kind":"APPEND",)"
    R"("attempt":1,"snapshot":0,"wait_us":12345,"message":"Retry commit after waiting 12.345 ms."})"
    "\n"
    R"({"t_us":15000,"step":4,"writer":"job-A","event":"published","level":"INFO","identifier":7,"kind":"COMPACT",)"
    R"("attempt":2,"snapshot":4,"message":"say \"hi\"\n\tback\\slash"})"
    "\n";

TEST(TraceTest, EventLinesAreByteStable) {
  int64_t step = 0;
  TraceWriter trace(nullptr, [&step] { return ++step; });
  for (const Event& e : RaceEvents()) trace.OnEvent(e);
  EXPECT_EQ(trace.TakeBuffer(), kRaceTrace);
  EXPECT_EQ(trace.TakeBuffer(), "");  // drained
}

TEST(TraceTest, StreamModeWritesTheSameBytes) {
  std::ostringstream out;
  int64_t step = 0;
  TraceWriter trace(&out);
  trace.set_step_source([&step] { return ++step; });
  for (const Event& e : RaceEvents()) trace.OnEvent(e);
  EXPECT_EQ(out.str(), kRaceTrace);
  EXPECT_EQ(trace.TakeBuffer(), "");
}

TEST(TraceTest, StepIsMinusOneWithoutASource) {
  EXPECT_EQ(TraceLine(Event{.type = EventType::kGaveUp, .level = Level::kError, .user = "w"}, -1),
            R"({"t_us":0,"step":-1,"writer":"w","event":"gave_up","level":"ERROR","identifier":0,"kind":"APPEND",)"
            R"("attempt":0,"snapshot":0,"message":""})"
            "\n");
  TraceWriter trace;
  trace.OnEvent(Event{.type = EventType::kCrashed});
  EXPECT_NE(trace.TakeBuffer().find(R"("step":-1,)"), std::string::npos);
}

TEST(TraceTest, HeaderAndFooterKeepTheOrderGiven) {
  constexpr std::string_view kCommand = "commitlab race --seed 7 --fault 'job-B:publish.after:nth=1:unknown'";
  TraceWriter trace;
  trace.WriteHeader(TraceFields()
                        .Add("seed", uint64_t{18446744073709551615u})
                        .Add("strategy", "pct")
                        .Add("pct_depth", 3)
                        .Add("offset", int64_t{-5})
                        .Add("idempotency_check", false)
                        .Add("command", std::string(kCommand)));
  trace.OnEvent(Event{.type = EventType::kAttempt, .user = "job-B"});
  trace.WriteFooter("0.1.1.0", TraceFields().Add("violations", 0));
  trace.WriteFooter("");
  const std::string text = trace.TakeBuffer();
  const size_t first_nl = text.find('\n');
  EXPECT_EQ(text.substr(0, first_nl + 1),
            R"({"type":"header","seed":18446744073709551615,"strategy":"pct","pct_depth":3,"offset":-5,)"
            R"("idempotency_check":false,"command":"commitlab race --seed 7 --fault )"
            R"('job-B:publish.after:nth=1:unknown'"})"
            "\n");
  EXPECT_TRUE(text.ends_with(R"({"type":"footer","schedule":"0.1.1.0","violations":0})"
                             "\n"
                             R"({"type":"footer","schedule":""})"
                             "\n"))
      << text;
}

TEST(TraceTest, ConcurrentWritersNeverInterleaveWithinALine) {
  TraceWriter trace;
  constexpr int kThreads = 4, kEvents = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&trace] {
      for (int i = 0; i < kEvents; ++i) trace.OnEvent(Event{.user = "writer", .message = std::string(64, 'x')});
    });
  }
  for (std::thread& th : threads) th.join();
  const std::string expected_line = TraceLine(Event{.user = "writer", .message = std::string(64, 'x')}, -1);
  const std::string text = trace.TakeBuffer();
  ASSERT_EQ(text.size(), expected_line.size() * kThreads * kEvents);
  for (size_t pos = 0; pos < text.size(); pos += expected_line.size())
    ASSERT_EQ(text.compare(pos, expected_line.size(), expected_line), 0) << "at byte " << pos;
}

TEST(TraceDiffTest, FirstDifferingLine) {
  EXPECT_EQ(FirstDifferingLine("", ""), std::nullopt);
  EXPECT_EQ(FirstDifferingLine("a\nb\nc\n", "a\nb\nc\n"), std::nullopt);
  EXPECT_EQ(FirstDifferingLine("a\nb\nc\n", "a\nB\nc\n"), 2u);
  EXPECT_EQ(FirstDifferingLine("a\nb\n", "a\nb\nc\n"), 3u);  // a is a prefix of b
  EXPECT_EQ(FirstDifferingLine("a\nb\nc\n", "a\nb\n"), 3u);
  EXPECT_EQ(FirstDifferingLine("a\nb", "a\nb\n"), 2u);        // only the final newline differs
  EXPECT_EQ(FirstDifferingLine("x\n", ""), 1u);
  EXPECT_EQ(FirstDifferingLine("a\nbc\n", "a\nb\nc\n"), 2u);
}

TEST(TraceDiffTest, DescribeFirstDifference) {
  EXPECT_EQ(DescribeFirstDifference("a\nb\n", "a\nb\n"), "");
  EXPECT_EQ(DescribeFirstDifference("a\nb\nc\n", "a\nB\nc\n"), "line 2 differs:\n- b\n+ B");
  EXPECT_EQ(DescribeFirstDifference("a\n", "a\n{\"x\":1}\n"), "line 2 differs:\n- <end of file>\n+ {\"x\":1}");
  EXPECT_EQ(DescribeFirstDifference("a\nb", "a\nb\n"), "line 2 differs:\n- b <no newline at end of file>\n+ b");
}

}  // namespace
}  // namespace commitlab::sim
