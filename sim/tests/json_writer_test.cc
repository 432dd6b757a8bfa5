// JsonWriter writes the bytes nlohmann's dump(-1, ' ', false, replace) writes, so that a history
// written in place is the one a DOM per line wrote: checked on every kind of value and on strings
// of every byte, and for the engine events' members (AppendEventFields against EventFields).
#include "commitlab/sim/json_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "commitlab/sim/history.h"

namespace commitlab::sim {
namespace {

std::string Dumped(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string Written(const Json& j) {
  std::string out;
  JsonWriter(&out).Value(j);
  return out;
}

TEST(JsonWriterTest, WritesWhatNlohmannDumps) {
  const Json j = {{"type", "op_end"},
                  {"t_us", -5},
                  {"big", uint64_t{18446744073709551615u}},
                  {"min", std::numeric_limits<int64_t>::min()},
                  {"step", nullptr},
                  {"ok", true},
                  {"no", false},
                  {"ratio", 0.1},
                  {"list", {1, "two", nullptr, Json::array(), Json::object()}},
                  {"nested", {{"a", {{"b", {1, 2}}}}}}};
  EXPECT_EQ(Written(j), Dumped(j));
}

TEST(JsonWriterTest, EscapesEveryByteAsNlohmannDoes) {
  // Every single byte, then every pair of bytes that starts beyond ASCII (valid and invalid UTF-8
  // alike), then some whole characters.
  std::vector<std::string> strings;
  for (int c = 0; c < 256; ++c) strings.emplace_back(1, static_cast<char>(c));
  for (int a = 0x80; a < 256; ++a)
    for (int b = 0; b < 256; b += 7) strings.push_back({static_cast<char>(a), static_cast<char>(b)});
  for (const char* s : {"第 5 讲", "\xe2\x80\xa6 tail", "quote \" back \\ slash", "tab\tnew\nline\r\f\b", "\x7f del",
                        "half \xe2\x80", "\xf0\x9f\x98\x80 emoji", ""})
    strings.emplace_back(s);
  for (const std::string& s : strings) {
    std::string out;
    AppendJsonString(s, &out);
    EXPECT_EQ(out, Dumped(Json(s))) << s.size() << " bytes from "
                                    << (s.empty() ? -1 : static_cast<int>(static_cast<unsigned char>(s[0])));
  }
}

// Multibyte characters are copied as they are only when well-formed: every lead byte with second
// bytes at the edges of its range (overlong forms, surrogates, past U+10FFFF, cut short), inside
// longer strings whose other bytes are plain or escaped, each against nlohmann.
TEST(JsonWriterTest, CopiesWellFormedUtf8AndReplacesTheRestAsNlohmannDoes) {
  std::vector<std::string> strings;
  for (int lead = 0xc0; lead < 0x100; ++lead) {
    for (int second : {0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0}) {
      for (const char* tail : {"", "\x80", "\x80\x80", "\x80\x80\x80",
                               "\x80"
                               "a",
                               "\x80\x80\\"}) {
        const std::string ch = std::string(1, static_cast<char>(lead)) + static_cast<char>(second) + tail;
        strings.push_back(ch);
        strings.push_back("detail " + ch + " tail \"quoted\"");
      }
    }
  }
  for (const std::string& s : strings) {
    std::string out;
    JsonWriter(&out).String(s);
    EXPECT_EQ(out, Dumped(Json(s))) << Json(s).dump(-1, ' ', true, Json::error_handler_t::replace);
  }
}

TEST(JsonWriterTest, WritesIntegersAtEveryLength) {
  std::vector<int64_t> values = {0, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  for (int64_t p = 1;; p *= 10) {  // 1 .. 10^18; stops before p * 10 would overflow
    for (int64_t v : {p - 1, p, p + 1, 2 * p - 1}) {
      values.push_back(v);
      values.push_back(-v);
    }
    if (p > std::numeric_limits<int64_t>::max() / 10) break;
  }
  for (int64_t v : values) {
    std::string out;
    JsonWriter(&out).Int(v);
    EXPECT_EQ(out, std::to_string(v));
    out.clear();
    JsonWriter(&out).Uint(static_cast<uint64_t>(v));
    EXPECT_EQ(out, std::to_string(static_cast<uint64_t>(v)));
  }
}

// Short strings are tested in overlapping pieces: a byte to escape anywhere in them is found.
TEST(JsonWriterTest, FindsTheByteToEscapeAnywhereInAShortString) {
  for (size_t n = 1; n <= 17; ++n) {
    EXPECT_TRUE(IsPlainJsonString(std::string(n, 'x')));
    for (size_t at = 0; at < n; ++at) {
      for (char c : {'"', '\\', '\n', '\x01', '\x7f', '\xe2'}) {
        std::string s(n, 'x');
        s[at] = c;
        EXPECT_EQ(IsPlainJsonString(s), c == '\x7f') << n << " bytes, at " << at;
        std::string out;
        JsonWriter(&out).String(s);
        EXPECT_EQ(out, Dumped(Json(s)));
      }
    }
  }
  EXPECT_TRUE(IsPlainJsonString(""));
}

TEST(JsonWriterTest, AWordIsWrittenAsStrWritesIt) {
  std::string word, str;
  JsonWriter(&word).BeginObject().Word("type", "op_start").Word("op", "write-data").EndObject();
  JsonWriter(&str).BeginObject().Str("type", "op_start").Str("op", "write-data").EndObject();
  EXPECT_EQ(word, str);
}

TEST(JsonWriterTest, AppendsToWhatTheStringHeldAndGrows) {
  std::string out = "prefix ";
  {
    JsonWriter w(&out);
    w.BeginArray();
    for (int i = 0; i < 1000; ++i) w.String("element");  // past the room it started with
    w.EndArray();
  }
  EXPECT_EQ(out.substr(0, 18), "prefix [\"element\",");
  EXPECT_EQ(out.size(), 7 + 2 + 1000 * 9 + 999);
  EXPECT_TRUE(Json::accept(out.substr(7)));
}

TEST(JsonWriterTest, MembersAndElementsAreSeparated) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject().Str("a", "x").Int("b", 2).Key("c").BeginArray().String("y").Int(3).Null().EndArray();
  w.Key("d").BeginObject().EndObject().Bool("e", false).Raw("f", "[1]").EndObject();
  w.Done();
  EXPECT_EQ(out, R"({"a":"x","b":2,"c":["y",3,null],"d":{},"e":false,"f":[1]})");
}

// The members WriterHistory writes for an engine event are EventFields' members, in its order.
void ExpectSameFields(const Event& e) {
  std::string out;
  JsonWriter w(&out);
  w.BeginObject();
  AppendEventFields(e, &w);
  AppendEventMessage(e, &w);
  w.EndObject().Done();
  EXPECT_EQ(out, Dumped(EventFields(e))) << EventTypeName(e.type);
}

TEST(JsonWriterTest, EventMembersAreEventFields) {
  const std::vector<FileChange> changes = {{ChangeKind::kDelete, {.name = "f0"}}, {ChangeKind::kAdd, {.name = "f1"}}};
  const EventCause cause{.kind = CauseKind::kValidation, .files = {"a", "b\"c"}, .snapshot = 4, .by = "job-B"};
  const EventCause bare{.kind = CauseKind::kFileDeletion, .files = {}};
  for (EventType type :
       {EventType::kAttempt, EventType::kPublished, EventType::kAtomicCommitFailed, EventType::kUnknownOutcome,
        EventType::kIdempotentMatch, EventType::kConflict, EventType::kRetryWait, EventType::kGaveUp,
        EventType::kCrashed, EventType::kFiltered, EventType::kError}) {
    Event e{.type = type,
            .level = Level::kWarn,
            .user = "job-A",
            .identifier = 3,
            .kind = CommitKind::kCompact,
            .attempt = 2,
            .snapshot_id = 6,
            .wait_micros = 12000,
            .time_micros = 99,
            .message = "line\nwith \"quotes\" and 第 5 讲",
            .base_snapshot = 5,
            .changes = &changes,
            .wait_base_micros = 10000,
            .wait_jitter_micros = 2000,
            .cause = &cause};
    ExpectSameFields(e);
    e.changes = nullptr;
    e.cause = &bare;
    ExpectSameFields(e);
    e.base_snapshot = -1;
    e.cause = nullptr;
    ExpectSameFields(e);
  }
}

TEST(JsonWriterTest, DrainedPiecesJoinToTheWholeValue) {
  auto write = [](JsonWriter& w, const std::function<void(JsonWriter&, int)>& after) {
    w.BeginObject().Name("items").BeginArray();
    for (int i = 0; i < 5000; ++i) {
      w.BeginObject().Int("i", i).Str("s", "a\"b").EndObject();
      after(w, i);
    }
    w.EndArray().Bool("ok", true).EndObject();
  };
  std::string whole;
  {
    JsonWriter w(&whole);
    write(w, [](JsonWriter&, int) {});
  }
  std::string buffer, joined;
  size_t largest = 0;
  {
    JsonWriter w(&buffer);
    write(w, [&](JsonWriter& x, int i) {
      if (i % 1000 == 999)
        x.Drain([&](std::string_view piece) {
          joined += piece;
          largest = std::max(largest, piece.size());
        });
    });
  }
  joined += buffer;
  EXPECT_EQ(joined, whole);
  EXPECT_LT(largest, whole.size() / 3);  // never held whole
}

}  // namespace
}  // namespace commitlab::sim
