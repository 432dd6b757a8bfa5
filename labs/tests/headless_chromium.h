// Debian's `chromium`, headless, driven over the DevTools protocol on a pipe (--remote-debugging-pipe:
// the browser reads NUL-terminated JSON commands on fd 3 and writes replies and events on fd 4), so a
// test can load a page, move the real mouse over it and read what a person would see. One page
// (target) per browser; every call waits at most `timeout` for its reply and then fails, naming the
// command, instead of hanging the test.
#ifndef COMMITLAB_LABS_TESTS_HEADLESS_CHROMIUM_H_
#define COMMITLAB_LABS_TESTS_HEADLESS_CHROMIUM_H_

#include <sys/types.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace commitlab::test {

class HeadlessChromium {
 public:
  using Json = nlohmann::json;

  // Starts `chromium` (found on PATH) with a fresh profile under `scratch_dir` and opens one blank
  // page. On failure returns null and sets `*why` to a sentence a CI log reader can act on.
  static std::unique_ptr<HeadlessChromium> Start(const std::string& scratch_dir, std::string* why,
                                                 std::chrono::seconds timeout = std::chrono::seconds(60));
  ~HeadlessChromium();
  HeadlessChromium(const HeadlessChromium&) = delete;
  HeadlessChromium& operator=(const HeadlessChromium&) = delete;

  // Sends `method` to the page and returns its `result`; an error reply or a timeout throws
  // std::runtime_error naming the method.
  Json Call(const std::string& method, const Json& params = Json::object());
  // Loads `url` and returns once its load event fired.
  void Navigate(const std::string& url);
  // The value of a JavaScript expression in the page (by value: JSON-able results only).
  Json Evaluate(const std::string& expression);
  // Moves the mouse to (x, y) in CSS pixels of the viewport, as a person's pointer would.
  void MoveMouse(double x, double y);
  void Click(double x, double y);
  // Presses and releases a key as the keyboard would ("ArrowRight", "ArrowRight", 39).
  void PressKey(const std::string& key, const std::string& code, int key_code);

  // Console errors and warnings, uncaught exceptions and browser log errors seen so far.
  const std::vector<std::string>& Problems() const { return problems_; }

 private:
  enum class Read { kMessage, kTimeout, kClosed };

  HeadlessChromium() = default;
  // Sends one command (to the page when `to_page`, else to the browser) and waits for its reply.
  Json Send(const std::string& method, const Json& params, bool to_page);
  // Reads one message, blocking up to the deadline.
  Read ReadMessage(Json* out, std::chrono::steady_clock::time_point deadline);
  // Notes console problems and the page's load event.
  void Observe(const Json& event);
  void Kill();

  pid_t pid_ = -1;
  int to_browser_ = -1;
  int from_browser_ = -1;
  std::string buffered_;
  std::string session_;
  std::chrono::seconds timeout_{60};
  int next_id_ = 1;
  bool loaded_ = false;  // the current page's load event arrived
  std::vector<std::string> problems_;
};

}  // namespace commitlab::test

#endif  // COMMITLAB_LABS_TESTS_HEADLESS_CHROMIUM_H_
