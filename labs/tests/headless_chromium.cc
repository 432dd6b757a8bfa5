#include "headless_chromium.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace commitlab::test {
namespace {

using Clock = std::chrono::steady_clock;

// A descriptor above the fds the child is given (0-2 and the protocol's 3 and 4), so the dup2
// into 3 or 4 never meets itself and leaves close-on-exec set; -1 when there is none.
int HighFd(int fd) {
  const int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
  ::close(fd);
  return high;
}

void CloseAll(std::initializer_list<int> fds) {
  for (int fd : fds)
    if (fd >= 0) ::close(fd);
}

std::string LogTail(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  if (text.size() > 1500) text = "…" + text.substr(text.size() - 1500);
  return text.empty() ? "(chromium printed nothing)" : text;
}

std::string ArgsText(const nlohmann::json& args) {
  std::string out;
  if (!args.is_array()) return out;
  for (const auto& a : args) {
    if (!out.empty()) out += ' ';
    if (a.contains("value")) {
      out += a["value"].is_string() ? a["value"].get<std::string>() : a["value"].dump();
    } else {
      out += a.value("description", a.value("type", std::string("?")));
    }
  }
  return out;
}

}  // namespace

std::unique_ptr<HeadlessChromium> HeadlessChromium::Start(const std::string& scratch_dir, std::string* why,
                                                          std::chrono::seconds timeout) {
  // A browser that died leaves its pipe closed: report it, do not die of SIGPIPE.
  ::signal(SIGPIPE, SIG_IGN);
  int to[2] = {-1, -1};
  int from[2] = {-1, -1};
  if (::pipe(to) != 0 || ::pipe(from) != 0) {
    *why = std::string("pipe: ") + std::strerror(errno);
    CloseAll({to[0], to[1], from[0], from[1]});
    return nullptr;
  }
  for (int* fd : {&to[0], &to[1], &from[0], &from[1]}) *fd = HighFd(*fd);
  if (to[0] < 0 || to[1] < 0 || from[0] < 0 || from[1] < 0) {
    *why = std::string("fcntl(F_DUPFD_CLOEXEC): ") + std::strerror(errno);
    CloseAll({to[0], to[1], from[0], from[1]});
    return nullptr;
  }
  const std::string log = scratch_dir + "/chromium.log";
  std::vector<std::string> args = {"chromium", "--headless=new",
                                   // Root (CI runs as root) cannot use chromium's sandbox.
                                   "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                                   "--disable-extensions", "--remote-debugging-pipe",
                                   "--user-data-dir=" + scratch_dir + "/profile", "--window-size=1400,900",
                                   "about:blank"};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to[0], 3);
  posix_spawn_file_actions_adddup2(&actions, from[1], 4);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  std::unique_ptr<HeadlessChromium> browser(new HeadlessChromium());
  const int rc = ::posix_spawnp(&browser->pid_, "chromium", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(to[0]);
  ::close(from[1]);
  browser->to_browser_ = to[1];
  browser->from_browser_ = from[0];
  browser->timeout_ = timeout;
  if (rc != 0) {
    browser->pid_ = -1;
    *why = std::string("cannot start `chromium` (") + std::strerror(rc) +
           "): install Debian's chromium package (./run.sh test installs it)";
    return nullptr;
  }
  try {
    const Json target = browser->Send("Target.createTarget", {{"url", "about:blank"}}, false);
    const Json attached =
        browser->Send("Target.attachToTarget", {{"targetId", target.at("targetId")}, {"flatten", true}}, false);
    browser->session_ = attached.at("sessionId").get<std::string>();
    for (const char* domain : {"Page.enable", "Runtime.enable", "Log.enable"}) browser->Call(domain);
  } catch (const std::exception& e) {
    *why = std::string("chromium started but did not answer over --remote-debugging-pipe: ") + e.what() +
           "\nits log (" + log + "):\n" + LogTail(log);
    browser->Kill();  // it did not answer: do not wait for it to close
    return nullptr;
  }
  return browser;
}

void HeadlessChromium::Kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

HeadlessChromium::~HeadlessChromium() {
  if (pid_ > 0) {
    try {
      Send("Browser.close", Json::object(), false);
    } catch (const std::exception&) {
      Kill();  // it does not answer: nothing more to lose
    }
  }
  if (pid_ > 0) {
    // Wait for the browser's exit itself (a pidfd becomes readable then), up to 10 s; then kill it.
    const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
    if (pidfd >= 0) {
      pollfd p{pidfd, POLLIN, 0};
      while (::poll(&p, 1, 10'000) < 0 && errno == EINTR) {
      }
      ::close(pidfd);
    }
    if (::waitpid(pid_, nullptr, WNOHANG) == 0) Kill();
  }
  CloseAll({to_browser_, from_browser_});
}

HeadlessChromium::Json HeadlessChromium::Call(const std::string& method, const Json& params) {
  return Send(method, params, true);
}

HeadlessChromium::Json HeadlessChromium::Send(const std::string& method, const Json& params, bool to_page) {
  const int id = next_id_++;
  Json command = {{"id", id}, {"method", method}, {"params", params}};
  if (to_page) command["sessionId"] = session_;
  std::string bytes = command.dump();
  bytes.push_back('\0');
  for (size_t at = 0; at < bytes.size();) {
    const ssize_t n = ::write(to_browser_, bytes.data() + at, bytes.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(method + ": the browser's pipe is closed (" + std::strerror(errno) + ")");
    at += static_cast<size_t>(n);
  }
  const auto deadline = Clock::now() + timeout_;
  Json message;
  Read r;
  while ((r = ReadMessage(&message, deadline)) == Read::kMessage) {
    if (!message.contains("id")) {
      Observe(message);
      continue;
    }
    if (message["id"] != id) continue;
    if (message.contains("error")) throw std::runtime_error(method + ": " + message["error"].dump());
    return message.value("result", Json::object());
  }
  throw std::runtime_error(method + (r == Read::kClosed
                                         ? ": the browser closed its pipe (it exited or crashed)"
                                         : ": no reply within " + std::to_string(timeout_.count()) + " s"));
}

HeadlessChromium::Read HeadlessChromium::ReadMessage(Json* out, Clock::time_point deadline) {
  for (;;) {
    if (const size_t end = buffered_.find('\0'); end != std::string::npos) {
      *out = Json::parse(buffered_.substr(0, end));
      buffered_.erase(0, end + 1);
      return Read::kMessage;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return Read::kTimeout;
    pollfd p{from_browser_, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return Read::kTimeout;
    char chunk[65536];
    const ssize_t n = ::read(from_browser_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Read::kClosed;
    buffered_.append(chunk, static_cast<size_t>(n));
  }
}

void HeadlessChromium::Observe(const Json& event) {
  const std::string method = event.value("method", "");
  const Json& params = event.contains("params") ? event["params"] : Json::object();
  if (method == "Runtime.consoleAPICalled") {
    const std::string type = params.value("type", "");
    if (type == "error" || type == "warning" || type == "assert")
      problems_.push_back("console." + type + ": " + ArgsText(params.value("args", Json::array())));
  } else if (method == "Runtime.exceptionThrown") {
    const Json& d = params.value("exceptionDetails", Json::object());
    const Json& ex = d.value("exception", Json::object());
    problems_.push_back("uncaught: " + ex.value("description", d.value("text", std::string("?"))));
  } else if (method == "Log.entryAdded") {
    const Json& entry = params.value("entry", Json::object());
    if (entry.value("level", "") == "error")
      problems_.push_back("log: " + entry.value("text", std::string("?")) + " " + entry.value("url", std::string()));
  } else if (method == "Page.loadEventFired") {
    loaded_ = true;
  }
}

void HeadlessChromium::Navigate(const std::string& url) {
  loaded_ = false;
  const Json r = Call("Page.navigate", {{"url", url}});
  if (r.contains("errorText")) throw std::runtime_error("Page.navigate " + url + ": " + r["errorText"].dump());
  const auto deadline = Clock::now() + timeout_;
  Json message;
  while (!loaded_) {
    const Read got = ReadMessage(&message, deadline);
    if (got == Read::kClosed) throw std::runtime_error("Page.navigate " + url + ": the browser closed its pipe");
    if (got == Read::kTimeout)
      throw std::runtime_error("Page.navigate " + url + ": no load event within " + std::to_string(timeout_.count()) +
                               " s");
    if (!message.contains("id")) Observe(message);
  }
}

HeadlessChromium::Json HeadlessChromium::Evaluate(const std::string& expression) {
  const Json r = Call("Runtime.evaluate", {{"expression", expression}, {"returnByValue", true}});
  if (r.contains("exceptionDetails"))
    throw std::runtime_error("evaluating `" + expression + "`: " + r["exceptionDetails"].dump());
  return r.at("result").value("value", Json());
}

void HeadlessChromium::MoveMouse(double x, double y) {
  Call("Input.dispatchMouseEvent", {{"type", "mouseMoved"}, {"x", x}, {"y", y}});
}

void HeadlessChromium::Click(double x, double y) {
  MoveMouse(x, y);
  for (const char* type : {"mousePressed", "mouseReleased"})
    Call("Input.dispatchMouseEvent", {{"type", type}, {"x", x}, {"y", y}, {"button", "left"}, {"clickCount", 1}});
}

void HeadlessChromium::PressKey(const std::string& key, const std::string& code, int key_code) {
  for (const char* type : {"rawKeyDown", "keyUp"})
    Call("Input.dispatchKeyEvent", {{"type", type},
                                    {"key", key},
                                    {"code", code},
                                    {"windowsVirtualKeyCode", key_code},
                                    {"nativeVirtualKeyCode", key_code}});
}

}  // namespace commitlab::test
