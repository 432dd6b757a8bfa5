// The question each lab run asks a class before it runs (lab --class, class_mode.h): what to
// predict, in the words of the lecture the run comes from. Keyed by scenario file.
#include <array>
#include <string>
#include <string_view>

#include "lab/class_mode.h"

namespace commitlab::cli {
namespace {

struct Question {
  std::string_view file;
  const char* en;
  const char* zh;
};

constexpr std::array<Question, 33> kQuestions = {{
    // S2 第 5 讲 (docs/lectures.md#s2-5).
    {"paimon_race.scn",
     "Two jobs each commit 30 times to one table at the same time. How many of the 60 commits land, and how many "
     "races for a snapshot id are lost?",
     "两个作业同时向一张表各提交 30 次。60 次提交有几次成功？抢号失败多少次？"},
    {"paimon_race_excerpt.scn",
     "job-B's first commit loses snapshots #1, #2 and #4. Which snapshot does it land as, and how long does it wait "
     "before each try?",
     "job-B 的第一次提交抢 #1、#2、#4 都失败了。它最后成为哪个快照？每次重试前等多久？"},
    {"paimon_conflict.scn",
     "Both compaction jobs planned from snapshot 3 and delete the same three L0 files; compact-job-1 commits first. "
     "What happens to compact-job-2, and whom does its error name as the base commit user?",
     "两个合并作业都基于快照 3，删除同样的 3 个 L0 文件；compact-job-1 先提交。compact-job-2 会怎样？它的异常里 "
     "base commit user 是谁？"},
    {"paimon_conflict_failover.scn",
     "The refused compactor fails over and plans again. Which files does its new plan merge, and does it commit?",
     "被拒绝的合并作业 failover 之后重新规划。新的规划合并哪些文件？能提交吗？"},
    {"paimon_dedicated_compaction.scn",
     "Two write-only jobs append while one dedicated job compacts. How many conflicts?",
     "两个只写作业不停追加，一个独立作业负责合并。会有几次冲突？"},
    {"paimon_lsm.scn",
     "The two compactions merge different L0 files, but their L5 outputs overlap in key range. Does the second "
     "commit?",
     "两次合并的是不同的 L0 文件，但 L5 输出的 key 范围重叠。第二次能提交吗？"},
    {"paimon_lsm_disjoint.scn", "The same two compactions, now with disjoint key ranges. Does the second commit?",
     "同样的两次合并，这次 key 范围不重叠。第二次能提交吗？"},
    {"paimon_idempotent.scn",
     "job-X commits identifier 5, restarts and commits identifier 5 again; then job-Y commits identifier 5. How many "
     "snapshots does the table have?",
     "job-X 提交 identifier 5，重启后又提交一次 identifier 5；然后 job-Y 也提交 identifier 5。表里有几个快照？"},
    {"paimon_unknown.scn",
     "The publish lands, but the writer is told it failed. Does its retry commit the same data a second time?",
     "发布已经生效，写入方却被告知失败。它的重试会把同样的数据再提交一次吗？"},
    {"paimon_unknown_no_check.scn",
     "The same, with the idempotency check turned off. How many copies of the commit end up in the table?",
     "同样的情况，但关掉幂等检查。表里最后有几份这次提交？"},
    {"paimon_retries_exhausted.scn",
     "Eight writers, one retry each. Who gives up, and what does its error say about how long it tried?",
     "八个写入方，每个只重试一次。谁会放弃？它的异常里说尝试了多久？"},
    {"paimon_crash_orphans.scn",
     "The job crashes just before the rename, then restarts. Which snapshot does the restart commit, and what is "
     "left behind?",
     "作业在 rename 之前崩溃，然后重启。重启后提交成哪个快照？留下了什么？"},
    {"object_store_check_then_put.scn",
     "On an object store whose rename checks and then puts, two writers publish snapshot 1 at the same moment. How "
     "many of their two acknowledged commits are in the table?",
     "在先检查再写入的对象存储上，两个写入方同时发布快照 1。两次已确认的提交，表里有几次？"},
    {"object_store_locked.scn", "The same race with a lock held from the check to the put. How many commits land?",
     "同样的竞争，从检查到写入一直持有锁。表里有几次提交？"},
    {"object_store_conditional_put.scn", "The same race with a conditional put. How many commits land?",
     "同样的竞争，改用条件写入。表里有几次提交？"},
    // 无锁并发写入 and 04 事务与并发控制 (docs/lectures.md#lock-free, #iceberg-04).
    {"iceberg_append_race.scn",
     "Two writers append from the same metadata. Who loses the conditional swap, and does its append still land?",
     "两个写入方基于同一份元数据追加。谁在条件式替换中落败？它的追加最后还能生效吗？"},
    {"iceberg_no_retry_orphans.scn",
     "Retries set to 0, the same race. Which exception does the loser get, and which of its files are left?",
     "重试设为 0，同样的竞争。输的一方得到什么异常？留下了哪些文件？"},
    {"iceberg_counter.scn",
     "Two workers read hits = 10, add 5 and overwrite. The loser gives up on the ValidationException. What is the "
     "counter?",
     "两个工作者都读到 hits = 10，各加 5 后覆盖写入。输的一方遇到 ValidationException 就放弃。计数器是多少？"},
    {"iceberg_counter_stale.scn",
     "This time the loser catches the exception and commits its old 15 again. What is the counter, and who notices?",
     "这次输的一方捕获异常，原样重写以前算出的 15。计数器是多少？谁能发现？"},
    {"iceberg_counter_reread.scn", "This time the loser re-reads and recomputes. What is the counter?",
     "这次输的一方重新读取、重新计算。计数器是多少？"},
    {"iceberg_overwrite_partitions.scn",
     "Two overwrites race, first of different days, then of the same day. Which of them commit?",
     "两个覆盖写入竞争：先是不同日期的分区，再是同一个分区。哪些能提交？"},
    {"iceberg_overwrite_unvalidated.scn",
     "Two writers overwrite the same day and nothing validates. writer-2 loses the swap and tries again: is it "
     "refused, and whose rows does the day hold at the end?",
     "两个写入方覆盖写入同一天，没有任何验证。writer-2 在条件式替换中落败后重试：它会被拒绝吗？最后这一天留下的是谁的行？"},
    {"iceberg_delete_isolation.scn",
     "A DELETE of a day races an INSERT into that day. Does the DELETE commit under serializable? Under snapshot?",
     "DELETE 某一天的数据，同时有人向这一天 INSERT。serializable 下 DELETE 能提交吗？snapshot 下呢？"},
    {"iceberg_orphans_in_flight.scn",
     "Orphan cleanup runs while a commit is in flight. What happens to that commit's files, without and with "
     "older-than?",
     "提交还在进行时运行孤儿文件清理。不加和加上 older-than，这次提交的文件分别会怎样？"},
    {"iceberg_long_reader.scn",
     "A long query pins snapshot 2 while snapshots expire. With retain-last=10, and with retain-last=1, does it "
     "finish?",
     "长查询固定在快照 2，同时旧快照在过期。retain-last=10 和 retain-last=1 时，查询分别能完成吗？"},
    {"iceberg_commit_state_unknown.scn",
     "The catalog's answer is lost: CommitStateUnknownException. Does Iceberg retry, and did the commit land?",
     "Catalog 的应答丢了：CommitStateUnknownException。Iceberg 会重试吗？提交生效了吗？"},
    {"iceberg_conflict_matrix.scn",
     "APPEND, OVERWRITE, DELETE, REWRITE and SCHEMA, two at a time, at both isolation levels. Which pairs can "
     "conflict?",
     "APPEND、OVERWRITE、DELETE、REWRITE、SCHEMA 两两并发，两种隔离级别。哪些组合会冲突？"},
    {"delta_conflicts.scn",
     "Two blind appends race for one log version; then two transactions delete f1. Which race is a conflict?",
     "两个盲追加争夺同一个日志版本；然后两个事务都删除 f1。哪一次是冲突？"},
    {"delta_read_vs_append.scn",
     "A transaction read x=1 while another appended into x=1. Does it commit under Serializable? Under "
     "WriteSerializable?",
     "一个事务读取了 x=1，同时另一个向 x=1 追加。Serializable 下它能提交吗？WriteSerializable 下呢？"},
    {"delta_compaction.scn",
     "A compaction races an append, then a delete of its input files. Which of the two stops it?",
     "合并先与一次追加竞争，再与一次删除其输入文件的操作竞争。哪一次会拦下它？"},
    {"delta_app_ids.scn",
     "Two writers commit the same streaming batch (the same app id and version). What does the second one get?",
     "两个写入方提交同一个流式批次（同样的应用 id 和版本）。第二个会得到什么？"},
    {"delta_metadata_protocol.scn",
     "An ALTER TABLE commits while an INSERT into another partition is in flight; then two transactions both upgrade "
     "the protocol. No data file is shared: does anyone fail, and with which exception?",
     "一个 ALTER TABLE 在另一个分区的 INSERT 进行中提交；然后两个事务都升级协议。没有共享任何数据文件：有人会失败吗？"
     "是哪个异常？"},
    {"delta_conflict_matrix.scn",
     "INSERT, UPDATE, DELETE, MERGE and OPTIMIZE, two at a time, at both levels. Which pairs can conflict?",
     "INSERT、UPDATE、DELETE、MERGE、OPTIMIZE 两两并发，两种隔离级别。哪些组合会冲突？"},
}};

}  // namespace

std::string ClassQuestion(const std::string& file, sim::Language language) {
  for (const Question& q : kQuestions)
    if (q.file == file) return language == sim::Language::kChinese ? q.zh : q.en;
  return "";
}

}  // namespace commitlab::cli
