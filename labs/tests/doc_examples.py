#!/usr/bin/env python3
"""The documentation's examples, run: every ```console block of README.md and docs/**/*.md is a
session of `$ COMMAND` lines, each followed by the output it prints, and this test runs the commands
in order (from the repository's root, each in a bash of its own, so a table an example makes is
there for the next only as files) and compares what they print with what the page says.

How a page writes an example:
  $ build/commitlab race --sched random --seed 7     the command, as a reader types it
  atomic commit failures: 18 (job-A 9, job-B 9)        a line it prints, exactly
  latest snapshot id: …                                '…' stands for any text within a line
  ...                                                  a line of three dots: any number of lines
Lines the page leaves out at the end are not checked; `| tail -3` and `| head` keep an example
short and still checked. A command line ending in ` \` goes on in the next line, as in bash. A block
fenced ```text (or any other word) is not run. A block stands alone: what it needs it makes first,
under results/tmp/ (git ignores it), removing what an earlier run left there with `rm -rf`, so that
blocks do not depend on each other's order and a rerun starts clean.

A command ending in ` &` (a server) runs in the background, in a process group of its own: the
lines the page shows under it are its first lines, read before the next command starts (so a
server that says it is listening is listening), and when the block ends the group gets SIGINT, as
Ctrl-C would send, then SIGKILL if it has not ended within 10 s. A later command finds the server's
port in the file its `--port-file` names.

Usage: doc_examples.py REPO_ROOT COMMITLAB_BINARY [FILE...]   (default: README.md and docs/**/*.md)
`build/commitlab` in a command means COMMITLAB_BINARY. Scratch output goes under results/tmp/."""
import functools
import glob
import os
import queue
import re
import signal
import subprocess
import sys
import threading

TIMEOUT_S = 300
BACKGROUND_FIRST_LINES_S = 60  # how long a background command may take to print the lines shown
BACKGROUND_STOP_S = 10  # how long it may take to end after SIGINT


def blocks(path):
    """(line number, [command or output lines]) of each ```console block."""
    out, current, start = [], None, 0
    for n, line in enumerate(open(path, encoding='utf-8'), 1):
        line = line.rstrip('\n')
        if current is None:
            if line.strip() == '```console':
                current, start = [], n
        elif line.strip() == '```':
            out.append((start, current))
            current = None
        else:
            current.append(line)
    return out


def sessions(lines):
    """[(command, expected lines)] of one block."""
    out, continued = [], False
    for line in lines:
        if continued:
            out[-1] = (out[-1][0] + '\n' + line, out[-1][1])
        elif line.startswith('$ '):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line)
        continued = bool(out) and not out[-1][1] and out[-1][0].endswith('\\')
    return out


def pattern(expected):
    """A regex for one expected line: '…' is any text, the rest literal."""
    return re.compile('^' + '.*?'.join(re.escape(part) for part in expected.rstrip().split('…')) + '$')


def matches(expected, actual):
    """Whether `actual` lines show `expected` (with '...' lines skipping any number): None if so,
    else what went wrong."""
    want = [e for e in expected]
    while want and not want[-1].strip():
        want.pop()
    got = [a.rstrip() for a in actual]

    @functools.lru_cache(maxsize=None)
    def match(i, j):
        if i == len(want):
            return True
        if want[i].strip() == '...':
            return any(match(i + 1, k) for k in range(j, len(got) + 1))
        return j < len(got) and pattern(want[i]).match(got[j]) is not None and match(i + 1, j + 1)

    if match(0, 0):
        return None
    # The first expected line that no longer follows: enough for a reader to find the drift.
    j = 0
    for i, w in enumerate(want):
        if w.strip() == '...':
            continue
        p = pattern(w)
        while j < len(got) and not p.match(got[j]):
            j += 1
        if j == len(got):
            return f'expected line {i + 1} not found in order: {w!r}'
        j += 1
    return 'the lines are there but not in this order, or with lines between them the page does not skip'


class Background:
    """A `$ COMMAND &` of a page: its process group and the lines it prints, read by a thread (so a
    server that logs never blocks on a full pipe) into a queue that ends with None."""

    def __init__(self, shell):
        self.process = subprocess.Popen(['bash', '-c', shell], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, start_new_session=True)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip('\n'))
        self.lines.put(None)

    def first_lines(self, n):
        """Up to n lines, fewer if it ends first or is silent for BACKGROUND_FIRST_LINES_S."""
        out = []
        while len(out) < n:
            try:
                line = self.lines.get(timeout=BACKGROUND_FIRST_LINES_S)
            except queue.Empty:
                break
            if line is None:
                break
            out.append(line)
        return out

    def stop(self):
        """SIGINT to its process group, as Ctrl-C; SIGKILL if it is still there after BACKGROUND_STOP_S."""
        for sig in (signal.SIGINT, signal.SIGKILL):
            try:
                os.killpg(self.process.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.process.wait(timeout=BACKGROUND_STOP_S)
                break
            except subprocess.TimeoutExpired:
                continue
        self.process.wait()


def shown_lines(expected):
    """How many lines the page shows under a command (trailing blank lines do not count)."""
    while expected and not expected[-1].strip():
        expected = expected[:-1]
    return len(expected)


def run_block(path, start, lines, binary):
    """Runs one block's commands in order; returns (commands run, failures)."""
    failures, ran, background = [], 0, []
    try:
        for command, expected in sessions(lines):
            shell = command.replace('build/commitlab', binary)
            if shell.rstrip().endswith('&') and not shell.rstrip().endswith('&&'):
                job = Background(shell.rstrip()[:-1])
                background.append(job)
                output = job.first_lines(shown_lines(expected))
            else:
                try:
                    r = subprocess.run(['bash', '-c', shell], capture_output=True, text=True, timeout=TIMEOUT_S)
                    output = (r.stdout + r.stderr).split('\n')
                except subprocess.TimeoutExpired:
                    failures.append(f'{path}:{start}: `{command}` did not end within {TIMEOUT_S} s')
                    continue
            ran += 1
            why = matches(expected, output)
            if why:
                shown = '\n    '.join(output[:40])
                failures.append(f'{path}:{start}: `{command}`: {why}\n  it printed:\n    {shown}')
    finally:
        for job in background:
            job.stop()
    return ran, failures


def main():
    # ctest ends a test that overruns its timeout with SIGTERM: exiting through the `finally` of
    # run_block stops the block's servers, which would otherwise outlive us in their own groups.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    root, binary = sys.argv[1], os.path.abspath(sys.argv[2])
    os.chdir(root)
    files = sys.argv[3:] or ['README.md'] + sorted(glob.glob('docs/**/*.md', recursive=True))
    failures, ran = [], 0
    for path in files:
        for start, lines in blocks(path):
            block_ran, block_failures = run_block(path, start, lines, binary)
            ran += block_ran
            failures += block_failures
    for f in failures:
        print('FAIL ' + f)
    print(f'{ran} example command(s) run, {len(failures)} differ from their page')
    return 1 if failures or ran == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
