// `commitlab timeline` pages opened in a real browser (Debian's headless chromium): what a person
// looking at one would see, counted against the history it was drawn from, with a real pointer
// hovering and clicking. The SVG is also rendered by librsvg (rsvg-convert), the renderer slides
// and papers meet it in.
#include <stdlib.h>
#include <sys/wait.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "headless_chromium.h"

namespace commitlab::test {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

std::vector<Json> ReadHistory(const std::string& path) {
  std::ifstream in(path);
  std::vector<Json> events;
  for (std::string line; std::getline(in, line);) events.push_back(Json::parse(line));
  return events;
}

size_t Count(const std::vector<Json>& history, const std::string& type) {
  size_t n = 0;
  for (const Json& e : history) n += e.value("type", "") == type;
  return n;
}

int Shell(const std::string& command) {
  const int rc = std::system(command.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::string Base64Decode(const std::string& in) {
  std::string out;
  int bits = 0;
  unsigned value = 0;
  for (char c : in) {
    int d;
    if (c >= 'A' && c <= 'Z') d = c - 'A';
    else if (c >= 'a' && c <= 'z') d = c - 'a' + 26;
    else if (c >= '0' && c <= '9') d = c - '0' + 52;
    else if (c == '+') d = 62;
    else if (c == '/') d = 63;
    else continue;  // '=' padding
    value = (value << 6) | static_cast<unsigned>(d);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((value >> bits) & 0xFF));
    }
  }
  return out;
}

// PNG width and height from the IHDR chunk; {0, 0} when the bytes are not a PNG.
std::pair<uint32_t, uint32_t> PngSize(const std::string& bytes) {
  if (bytes.size() < 24 || bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) return {0, 0};
  auto be32 = [&](size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
    return v;
  };
  return {be32(16), be32(20)};
}

// Writes `bytes` to `path` whole or not at all: into a temporary file beside it, checked, then
// renamed over it (a README screenshot is never left half-written).
void WriteWhole(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << bytes;
    f.close();
    ASSERT_TRUE(f) << "cannot write " << tmp;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  ASSERT_FALSE(ec) << "cannot rename " << tmp << " to " << path << ": " << ec.message();
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string fmt_step(size_t k, size_t n) { return "step " + std::to_string(k) + " of " + std::to_string(n); }

class TimelineBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const fs::path base = ::testing::TempDir().empty() ? fs::temp_directory_path() : fs::path(::testing::TempDir());
    std::string pattern = (base / "commitlab-browser-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
    std::string why;
    browser_ = HeadlessChromium::Start(dir_, &why);
    ASSERT_NE(browser_, nullptr) << why;
  }
  void TearDown() override {
    browser_.reset();
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }

  // Draws `history` with the CLI into DIR/NAME and opens it.
  void Open(const std::string& history, const std::string& name) {
    const std::string out = dir_ + "/" + name;
    ASSERT_EQ(Shell(std::string(COMMITLAB_BINARY) + " timeline '" + history + "' -o '" + out + "' > /dev/null"), 0);
    browser_->Navigate("file://" + out);
  }

  // The centre of the first element matching `selector` that is on top there (no mark covers it),
  // in viewport pixels, scrolled into view.
  std::pair<double, double> Centre(const std::string& selector) {
    const Json c =
        browser_->Evaluate("(() => { for (const e of document.querySelectorAll('" + selector +
                           "')) {"
                           " e.scrollIntoView({block: 'center', inline: 'center'});"
                           " const r = e.getBoundingClientRect(); const x = r.x + r.width / 2, y = r.y + r.height / 2;"
                           " const top = document.elementFromPoint(x, y);"
                           " if (top && top.closest('.el') === e.closest('.el')) return [x, y]; } return null; })()");
    EXPECT_TRUE(c.is_array()) << "nothing matches " << selector;
    return c.is_array() ? std::pair{c[0].get<double>(), c[1].get<double>()} : std::pair{0.0, 0.0};
  }

  // The middle of the first path matching `selector`, on its stroke (a curve's box centre may be
  // off it), in viewport pixels, scrolled into view.
  std::pair<double, double> Midpoint(const std::string& selector) {
    const Json c = browser_->Evaluate("(() => { const e = document.querySelector('" + selector +
                                      "'); if (!e) return null;"
                                      " e.scrollIntoView({block: 'center', inline: 'center'});"
                                      " const p = e.getPointAtLength(e.getTotalLength() / 2), m = e.getScreenCTM();"
                                      " return [p.x * m.a + p.y * m.c + m.e, p.x * m.b + p.y * m.d + m.f]; })()");
    EXPECT_TRUE(c.is_array()) << "nothing matches " << selector;
    return c.is_array() ? std::pair{c[0].get<double>(), c[1].get<double>()} : std::pair{0.0, 0.0};
  }

  // What is under the pointer at (x, y): the class of the timeline element a click there reaches.
  std::string ElementAt(std::pair<double, double> p) {
    return browser_
        ->Evaluate("(() => { const e = document.elementFromPoint(" + std::to_string(p.first) + ", " +
                   std::to_string(p.second) +
                   "); const el = e && e.closest('.el');"
                   " return el ? el.getAttribute('class') : ''; })()")
        .get<std::string>();
  }

  std::string Tooltip() {
    return browser_
        ->Evaluate(
            "(() => { const t = document.getElementById('tip');"
            " return getComputedStyle(t).display === 'none' ? '(hidden)' : t.textContent; })()")
        .get<std::string>();
  }

  std::string dir_;
  std::unique_ptr<HeadlessChromium> browser_;
};

// The checks below rely on the driver hearing what the page says: a page that logs an error and
// throws must be heard.
TEST_F(TimelineBrowserTest, TheDriverHearsConsoleErrorsAndUncaughtExceptions) {
  const std::string page = dir_ + "/noisy.html";
  std::ofstream(page) << "<!doctype html><script>console.error('drawn wrong'); undefinedFunction();</script>";
  browser_->Navigate("file://" + page);
  browser_->Evaluate("1");  // the events arrive before this reply
  ASSERT_EQ(browser_->Problems().size(), 2u);
  EXPECT_EQ(browser_->Problems()[0], "console.error: drawn wrong");
  EXPECT_THAT(browser_->Problems()[1], StartsWith("uncaught: ReferenceError: undefinedFunction is not defined"));
}

TEST_F(TimelineBrowserTest, APaimonRaceShowsItsLanesSpansLostRacesAndTheirWinners) {
  const std::string history = std::string(COMMITLAB_SOURCE_DIR) + "/results/golden/paimon_race.jsonl";
  const std::vector<Json> h = ReadHistory(history);
  Open(history, "race.html");

  std::set<std::string> writers;
  size_t lost_with_winner = 0;
  for (const Json& e : h) {
    if (e.contains("writer") && e["writer"].is_string()) writers.insert(e["writer"].get<std::string>());
    if (e.value("type", "") == "atomic_commit_failed" && e.contains("lost_to") && e["lost_to"].contains("writer") &&
        e["lost_to"]["writer"].is_string())
      ++lost_with_winner;
  }
  ASSERT_GT(lost_with_winner, 0u) << "the golden race should lose some races";
  EXPECT_EQ(browser_->Evaluate("document.querySelectorAll('svg .lane').length"), writers.size());
  // Every storage operation and every retry wait is one span.
  EXPECT_EQ(browser_->Evaluate("document.querySelectorAll('svg .span').length"),
            Count(h, "op_end") + Count(h, "retry_wait"));
  // Each lost race is an arrow, or a tooth of its winner's bundle.
  EXPECT_EQ(
      browser_->Evaluate("[...document.querySelectorAll('svg .arrow')].reduce((n, a) => n + Number(a.dataset.n), 0)"),
      lost_with_winner);
  EXPECT_EQ(browser_->Evaluate("document.querySelectorAll('svg .snapshot').length"), h.back()["latest_snapshot"]);

  // Hover a lost publish: its tooltip follows the pointer.
  const auto lost = Centre(".span.publish.lost rect");
  EXPECT_THAT(ElementAt(lost), HasSubstr("lost"));
  EXPECT_EQ(Tooltip(), "(hidden)");
  browser_->MoveMouse(lost.first, lost.second);
  EXPECT_THAT(Tooltip(), ::testing::MatchesRegex("job-[AB] publishes #[0-9]+: lost"));
  browser_->MoveMouse(2, 2);
  EXPECT_EQ(Tooltip(), "(hidden)");

  // The arrow from the winner says who took the snapshot.
  const auto arrow = Centre(".arrow line");
  EXPECT_EQ(ElementAt(arrow), "el arrow");
  browser_->MoveMouse(arrow.first, arrow.second);
  EXPECT_THAT(Tooltip(), ::testing::MatchesRegex("#[0-9]+ taken by job-[AB]"));

  // A click shows the history event behind the element, with its log line.
  browser_->Click(arrow.first, arrow.second);
  const std::string pane = browser_->Evaluate("document.getElementById('event').textContent").get<std::string>();
  EXPECT_THAT(pane, HasSubstr("\"type\": \"atomic_commit_failed\""));
  EXPECT_THAT(pane, HasSubstr("log: Atomic commit failed for snapshot #"));
  EXPECT_THAT(browser_->Problems(), IsEmpty());
}

TEST_F(TimelineBrowserTest, ZoomStretchesTimeAndKeepsLanes) {
  Open(std::string(COMMITLAB_SOURCE_DIR) + "/results/golden/paimon_race.jsonl", "zoom.html");
  const Json before = browser_->Evaluate(
      "(() => { const s = document.querySelector('svg.timeline'); return [s.width.baseVal.value, "
      "s.height.baseVal.value, [...document.querySelectorAll('.span text')].filter(t => "
      "getComputedStyle(t).display !== 'none').length]; })()");
  browser_->Evaluate(
      "(() => { const z = document.getElementById('zoom'); z.value = 10;"
      " z.dispatchEvent(new Event('input')); })()");
  const Json after = browser_->Evaluate(
      "(() => { const s = document.querySelector('svg.timeline'); return [s.width.baseVal.value, "
      "s.height.baseVal.value, [...document.querySelectorAll('.span text')].filter(t => "
      "getComputedStyle(t).display !== 'none').length]; })()");
  const double plot = before[0].get<double>() - 140 - 40;  // the lane names and the right margin stay
  EXPECT_NEAR(after[0].get<double>(), 140 + 10 * plot + 40, 1);
  EXPECT_EQ(after[1], before[1]);
  EXPECT_GT(after[2].get<int>(), before[2].get<int>()) << "labels that fit once zoomed in should show";
  // Each shown label sits at its span's start, not scaled away from it.
  EXPECT_EQ(
      browser_->Evaluate("[...document.querySelectorAll('.span text')].filter(t => getComputedStyle(t).display !== "
                         "'none' && Math.abs(t.getAttribute('x') - t.previousElementSibling.getAttribute('x') - 2) "
                         "> 0.01).length"),
      0);
  // The pointer still finds elements where they are drawn now.
  const auto lost = Centre(".span.publish.lost rect");
  browser_->MoveMouse(lost.first, lost.second);
  EXPECT_THAT(Tooltip(), HasSubstr(": lost"));
  EXPECT_THAT(browser_->Problems(), IsEmpty());
}

TEST_F(TimelineBrowserTest, TheConflictShowsGatesAndTheRefusalAndLeavesAScreenshot) {
  const std::string history = std::string(COMMITLAB_SOURCE_DIR) + "/results/golden/paimon_conflict.jsonl";
  const std::vector<Json> h = ReadHistory(history);
  Open(history, "conflict.html");
  EXPECT_EQ(browser_->Evaluate("document.querySelectorAll('svg .lane').length"), 3);
  // Each gate that opened is a dashed arrow into the gated lane: in this scenario every order line's
  // first point is another writer's (the timeline draws no arrow for a writer's own or an unknown one).
  EXPECT_EQ(browser_->Evaluate("document.querySelectorAll('svg .order').length"), Count(h, "gate_open"));
  const auto gate = Centre(".order line");
  browser_->MoveMouse(gate.first, gate.second);
  EXPECT_THAT(Tooltip(), ::testing::MatchesRegex("order [a-z0-9-]+\\.[a-z]+ -> [a-z0-9-]+\\.[a-z]+ \\(line [0-9]+\\)"));

  const auto refusal = Centre(".mark.conflict path");
  browser_->MoveMouse(refusal.first, refusal.second);
  EXPECT_EQ(Tooltip(), "compact-job-2: File deletion conflicts detected! Give up committing.");
  EXPECT_THAT(browser_->Problems(), IsEmpty());

  browser_->Evaluate("window.scrollTo(0, 0)");
  const auto shown = Centre(".mark.conflict path");  // where it is after the scroll
  browser_->MoveMouse(shown.first, shown.second);
  // The page's drawing and its event pane, not the empty window below them.
  const Json bottom = browser_->Evaluate("document.getElementById('event').getBoundingClientRect().bottom + 12");
  const Json shot = browser_->Call(
      "Page.captureScreenshot",
      {{"format", "png"}, {"clip", {{"x", 0}, {"y", 0}, {"width", 1400}, {"height", bottom}, {"scale", 1}}}});
  const std::string png = Base64Decode(shot.at("data").get<std::string>());
  const auto [w, hgt] = PngSize(png);
  EXPECT_GT(w, 1000u);
  EXPECT_GT(hgt, 200u);
  // `./run.sh screenshots` keeps it for the README.
  const char* keep = std::getenv("COMMITLAB_SCREENSHOT_DIR");
  const std::string out = (keep != nullptr ? std::string(keep) : dir_) + "/paimon_conflict.png";
  WriteWhole(out, png);
  EXPECT_EQ(PngSize(ReadBytes(out)).first, w);
}

// The page steps through a run as a trace explorer does. Every step of S2 第 5 讲's scenario 2,
// forwards with the keyboard, and the state the panel shows at three of them checked against the
// history: compact-job-2 held at its order line, snapshot #5 landing with its one live L5 file,
// and the refusal.
TEST_F(TimelineBrowserTest, TheStepperWalksEveryStepOfTheConflictAndShowsTheTablesState) {
  const std::string history = std::string(COMMITLAB_SOURCE_DIR) + "/results/golden/paimon_conflict.jsonl";
  const std::vector<Json> h = ReadHistory(history);
  Open(history, "stepped.html");
  // One page step per scheduler step that recorded an event, and the footer's.
  std::vector<int64_t> steps;
  int64_t held = -1, landed = -1, refused = -1;
  int64_t held_line = -1, failed_line = -1;  // the scenario's lines, as the history names them
  for (const Json& e : h) {
    if (!e.contains("step") || !e["step"].is_number_integer()) continue;
    const int64_t s = e["step"].get<int64_t>();
    if (steps.empty() || steps.back() != s) steps.push_back(s);
    const std::string type = e.value("type", "");
    if (type == "gate_wait" && e.value("order", "") == "compact-job-1.commit -> compact-job-2.commit") {
      held = s;
      held_line = e.value("line", int64_t{-1});
    }
    if (type == "step_end" && e.value("writer", "") == "compact-job-2" && e.value("status", "") == "failed")
      failed_line = e.value("line", int64_t{-1});
    if (type == "op_end" && e.value("op", "") == "publish" && e.value("snapshot", 0) == 5) landed = s;
    if (type == "conflict") refused = s;
  }
  ASSERT_GT(held, 0);
  ASSERT_GT(held_line, 0);
  ASSERT_GT(failed_line, 0);
  ASSERT_GT(landed, held);
  ASSERT_GT(refused, landed);
  const size_t n = steps.size() + 1;
  ASSERT_EQ(browser_->Evaluate("Number(document.getElementById('step').max)"), n);

  auto panel = [&] {
    return browser_->Evaluate(
        "(() => { const rows = {}; for (const tr of document.querySelectorAll('#rows tr'))"
        " rows[tr.cells[0].textContent] = tr.cells[1].textContent;"
        " return {line: document.getElementById('stepline').textContent,"
        " said: [...document.querySelectorAll('#said li')].map(li => li.textContent), rows,"
        " later: document.querySelectorAll('.el.later').length}; })()");
  };
  browser_->PressKey("Home", "Home", 36);
  Json at = panel();
  EXPECT_THAT(at["line"].get<std::string>(), StartsWith("step 0 of " + std::to_string(n)));
  EXPECT_EQ(at["rows"]["table conflict_orders (paimon)"], "no snapshot yet; no live file");
  EXPECT_EQ(at["rows"]["compact-job-2"], "not started");
  std::map<int64_t, Json> seen;
  for (size_t k = 1; k <= n; ++k) {
    browser_->PressKey("ArrowRight", "ArrowRight", 39);
    at = panel();
    ASSERT_THAT(at["line"].get<std::string>(), StartsWith(fmt_step(k, n))) << "after " << k << " presses";
    ASSERT_FALSE(at["said"].empty());
    if (k <= steps.size()) seen[steps[k - 1]] = at;
  }
  // Past the last step the key does nothing, and nothing is dimmed at the end.
  browser_->PressKey("ArrowRight", "ArrowRight", 39);
  EXPECT_THAT(panel()["line"].get<std::string>(), StartsWith(fmt_step(n, n)));
  EXPECT_EQ(panel()["later"], 0);

  const Json& waiting = seen[held];
  EXPECT_EQ(waiting["rows"]["compact-job-2"],
            "held at order line " + std::to_string(held_line) + ": waits for compact-job-1 to reach commit");
  EXPECT_GT(waiting["later"].get<int>(), 0) << "what has not happened yet is dimmed";
  const Json& five = seen[landed];
  EXPECT_EQ(five["rows"]["table conflict_orders (paimon)"],
            "latest snapshot #5 (COMPACT compact-job-1); 1 live file(s): data-c42237bc…-0.parquet");
  EXPECT_THAT(five["said"], ::testing::Contains("compact-job-1's publish took effect: snapshot #5 is the table's now"));
  const Json& no = seen[refused];
  EXPECT_EQ(no["rows"]["compact-job-2"], "line " + std::to_string(failed_line) + " failed (refused)");
  EXPECT_THAT(no["said"],
              ::testing::Contains("compact-job-2 is refused: File deletion conflicts detected! Give up committing."));
  // The refusal's cause: an arrow from snapshot #5, which deleted the file.
  EXPECT_EQ(browser_->Evaluate("document.querySelectorAll('svg .cause').length"), 1);
  const auto cause = Midpoint(".cause path");
  browser_->MoveMouse(cause.first, cause.second);
  EXPECT_EQ(Tooltip(), "caused by #5: compact-job-1 removed data-bf08119f…-0.parquet");
  EXPECT_THAT(browser_->Problems(), IsEmpty());

  // The screenshot the README shows: the state at the refusal.
  browser_->PressKey("Home", "Home", 36);
  for (size_t k = 0; k < steps.size() && steps[k] <= refused; ++k) browser_->PressKey("ArrowRight", "ArrowRight", 39);
  browser_->Evaluate("window.scrollTo(0, 0)");
  const Json bottom = browser_->Evaluate("document.getElementById('state').getBoundingClientRect().bottom + 12");
  const Json shot = browser_->Call(
      "Page.captureScreenshot",
      {{"format", "png"}, {"clip", {{"x", 0}, {"y", 0}, {"width", 1320}, {"height", bottom}, {"scale", 1}}}});
  const std::string png = Base64Decode(shot.at("data").get<std::string>());
  EXPECT_GT(PngSize(png).second, 300u);
  const char* keep = std::getenv("COMMITLAB_SCREENSHOT_DIR");
  WriteWhole(std::string(keep != nullptr ? keep : dir_.c_str()) + "/paimon_conflict_stepped.png", png);
}

// A legend says what each mark means; the lane names and the axis stay in view when zoomed and
// scrolled, and the axis's ticks follow what is in view.
TEST_F(TimelineBrowserTest, LegendNamesAndAxisStayInViewWhenZoomed) {
  Open(std::string(COMMITLAB_SOURCE_DIR) + "/results/golden/paimon_race.jsonl", "sticky.html");
  EXPECT_GE(browser_->Evaluate("document.querySelectorAll('svg .legend text').length").get<int>(), 10);
  browser_->Evaluate(
      "(() => { const z = document.getElementById('zoom'); z.value = 40; z.dispatchEvent(new Event('input'));"
      " const v = document.getElementById('view'); v.scrollLeft = v.scrollWidth / 2; })()");
  browser_->Evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))");
  const Json where = browser_->Evaluate(
      "(() => { const v = document.getElementById('view').getBoundingClientRect();"
      " const name = document.querySelector('svg .lane text').getBoundingClientRect();"
      " const ticks = [...document.querySelectorAll('svg .ticks text')].map(t => t.getBoundingClientRect())"
      "   .filter(r => r.left >= v.left && r.right <= v.right);"
      " return [name.left - v.left, ticks.length]; })()");
  EXPECT_GE(where[0].get<double>(), 0);
  EXPECT_LT(where[0].get<double>(), 20) << "the lane names stay at the left edge";
  EXPECT_GE(where[1].get<int>(), 3) << "ticks are drawn for the part in view";
  EXPECT_THAT(browser_->Problems(), IsEmpty());
}

// A run too large to draw span by span is binned: the page stays small and still says where the
// lost races were, re-binned as it zooms.
TEST_F(TimelineBrowserTest, ABigRaceIsDrawnBinnedAndZoomsIntoFinerBins) {
  const std::string trace = dir_ + "/big.jsonl";
  ASSERT_EQ(Shell(std::string(COMMITLAB_BINARY) + " race --writers 8 --commits 500 --sched random --seed 2 " +
                  "--policy paimon:retries=unlimited --trace '" + trace + "' > /dev/null"),
            0);
  Open(trace, "big.html");
  EXPECT_EQ(browser_->Evaluate("document.querySelector('svg.timeline').dataset.aggregated"), "1");
  EXPECT_LT(fs::file_size(dir_ + "/big.html"), 8u << 20);
  const int coarse = browser_->Evaluate("document.querySelectorAll('.bins-live .bin').length").get<int>();
  EXPECT_GT(coarse, 100);
  EXPECT_GT(browser_->Evaluate("document.querySelectorAll('.bins-live rect[fill=\"#e15759\"]').length").get<int>(), 0)
      << "lost publishes are marked";
  browser_->Evaluate(
      "(() => { const z = document.getElementById('zoom'); z.value = 40; z.dispatchEvent(new Event('input')); })()");
  const Json bin = browser_->Evaluate(
      "(() => { const b = [...document.querySelectorAll('.bins-live .bin')].find(b => b.dataset.tip);"
      " return b.dataset.tip; })()");
  EXPECT_THAT(bin.get<std::string>(), ::testing::MatchesRegex("job-[A-H] [0-9.]+–[0-9.]+: [0-9]+ operations, .*"));
  EXPECT_THAT(browser_->Problems(), IsEmpty());
}

TEST_F(TimelineBrowserTest, TheSvgRendersInTheBrowserAndInLibrsvg) {
  const std::string history = std::string(COMMITLAB_SOURCE_DIR) + "/results/golden/paimon_conflict.jsonl";
  const std::string svg = dir_ + "/conflict.svg";
  ASSERT_EQ(Shell(std::string(COMMITLAB_BINARY) + " timeline '" + history + "' -o '" + svg + "' > /dev/null"), 0);
  browser_->Navigate("file://" + svg);
  EXPECT_EQ(browser_->Evaluate("document.documentElement.tagName"), "svg");
  EXPECT_EQ(browser_->Evaluate("document.querySelectorAll('.lane').length"), 3);
  EXPECT_THAT(browser_->Problems(), IsEmpty());

  const std::string png = dir_ + "/conflict.png";
  ASSERT_EQ(Shell("rsvg-convert -o '" + png + "' '" + svg + "' 2> '" + dir_ + "/rsvg.log'"), 0)
      << "rsvg-convert (Debian's librsvg2-bin; ./run.sh test installs it) failed: " << ReadBytes(dir_ + "/rsvg.log");
  const Json size = browser_->Evaluate(
      "[document.documentElement.width.baseVal.value, "
      "document.documentElement.height.baseVal.value]");
  const auto [w, hgt] = PngSize(ReadBytes(png));
  EXPECT_EQ(w, size[0].get<uint32_t>());
  EXPECT_EQ(hgt, size[1].get<uint32_t>());
}

}  // namespace
}  // namespace commitlab::test
