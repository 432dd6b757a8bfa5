// `commitlab step` driven through a pseudo-terminal, as a person at a keyboard drives it: single
// keys act without Enter, undo and save work, and the terminal is left as it was found. And
// `commitlab lab --class` on a terminal: the lab's heading is on its first screen, not wiped.
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

class StepSession {
 public:
  explicit StepSession(std::vector<const char*> args = {"commitlab", "step", "scenarios/paimon_conflict.scn"}) {
    args.push_back(nullptr);
    pid_ = ::forkpty(&master_, nullptr, nullptr, nullptr);
    if (pid_ == 0) {
      if (::chdir(COMMITLAB_SOURCE_DIR) != 0) ::_exit(127);
      ::execv(COMMITLAB_BINARY, const_cast<char* const*>(args.data()));
      ::_exit(127);
    }
  }
  ~StepSession() {
    if (pid_ > 0 && !exited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) ::close(master_);
  }
  bool started() const { return pid_ > 0 && master_ >= 0; }

  // Reads until `text` has appeared since the last call (true), or 30 s pass or the program ends.
  bool ReadUntil(const std::string& text) {
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    for (;;) {
      if (const size_t at = pending_.find(text); at != std::string::npos) {
        seen_ = pending_.substr(0, at + text.size());
        pending_.erase(0, at + text.size());
        return true;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return false;
      pollfd p{master_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left)) <= 0) return false;
      char buf[4096];
      const ssize_t n = ::read(master_, buf, sizeof buf);
      if (n <= 0) return false;  // EIO once the program has ended
      pending_.append(buf, static_cast<size_t>(n));
    }
  }
  void Type(char key) { ASSERT_EQ(::write(master_, &key, 1), 1); }
  // Reads what is left and reaps the program; its exit code, or -1.
  int Finish() {
    ReadUntil("\x01never printed\x01");
    int status = 0;
    ::waitpid(pid_, &status, 0);
    exited_ = true;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  bool Canonical() const {
    termios t{};
    return ::tcgetattr(master_, &t) == 0 && (t.c_lflag & ICANON) != 0;
  }
  const std::string& seen() const { return seen_; }

 private:
  pid_t pid_ = -1;
  int master_ = -1;
  bool exited_ = false;
  std::string pending_;
  std::string seen_;
};

TEST(StepPtyTest, KeysActAtOnceUndoAndSaveWorkAndTheTerminalIsRestored) {
  StepSession s;
  ASSERT_TRUE(s.started());
  ASSERT_TRUE(s.ReadUntil("-- step 0 ·"));
  ASSERT_TRUE(s.ReadUntil("next: a b c  ·  n the seed's pick (c)"));
  EXPECT_FALSE(s.Canonical()) << "a key should act without Enter";

  s.Type('n');  // the seed's pick: compact-job-2 reaches its order line
  ASSERT_TRUE(s.ReadUntil("-- step 1 ·"));
  ASSERT_TRUE(s.ReadUntil("next:"));
  EXPECT_NE(s.seen().find("compact-job-2 held at order line 33 (writer.loaded -> compact-job-2.plan)"),
            std::string::npos)
      << s.seen();
  EXPECT_NE(s.seen().find("held at order line 33"), std::string::npos) << s.seen();

  s.Type('u');
  ASSERT_TRUE(s.ReadUntil("-- step 0 ·"));
  s.Type('a');  // the writer instead
  ASSERT_TRUE(s.ReadUntil("-- step 1 ·"));
  ASSERT_TRUE(s.ReadUntil("next:"));
  EXPECT_NE(s.seen().find("writer starts line 19: write"), std::string::npos) << s.seen();

  s.Type('s');
  ASSERT_TRUE(s.ReadUntil(
      "replay it: commitlab run scenarios/paimon_conflict.scn --seed 1 --sched random --schedule 'sched1:3w:"));
  EXPECT_NE(s.seen().find("picks so far: a"), std::string::npos) << s.seen();

  s.Type('x');
  ASSERT_TRUE(s.ReadUntil("there is no writer x"));
  s.Type('7');
  ASSERT_TRUE(s.ReadUntil("'7' is not a key here"));
  s.Type('q');
  EXPECT_EQ(s.Finish(), 0);
  EXPECT_TRUE(s.Canonical()) << "the terminal should be restored on quitting";
}

TEST(StepPtyTest, CtrlCStillInterruptsAndRestoresTheTerminal) {
  StepSession s;
  ASSERT_TRUE(s.started());
  ASSERT_TRUE(s.ReadUntil("next:"));
  EXPECT_FALSE(s.Canonical());
  s.Type('\x03');             // the terminal turns it into SIGINT
  EXPECT_EQ(s.Finish(), -1);  // ended by the signal, as an interrupted program should
  EXPECT_TRUE(s.Canonical());
}

TEST(ClassPtyTest, TheLabsHeadingIsOnTheFirstScreenAfterTheTerminalIsCleared) {
  StepSession s({"commitlab", "lab", "paimon", "--experiment", "conflict", "--class", "--lang", "zh"});
  ASSERT_TRUE(s.started());
  ASSERT_TRUE(s.ReadUntil("\x1b[2J"));  // the first screen clears the terminal
  ASSERT_TRUE(s.ReadUntil("[按 Enter 运行，q 退出]"));
  EXPECT_NE(s.seen().find("Paimon 实验（S2 第 5 讲：并发提交——乐观锁、冲突检测、重试）"), std::string::npos)
      << s.seen();
  EXPECT_NE(s.seen().find("== 3. conflict："), std::string::npos) << s.seen();
  s.Type('q');
  s.Type('\n');
  EXPECT_EQ(s.Finish(), 0);
}

}  // namespace
