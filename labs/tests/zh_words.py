#!/usr/bin/env python3
"""zh_words.py SCENARIO_DIR [--html] < output: fails (exit 1), naming the lines, when Chinese output
(`--lang zh`) still has English words of its own. Allowed: the engines' log lines and any text they
quote ("File deletion conflicts detected! ..."), a scenario's source passage (出处：, quoted as written), identifiers (names with digits, dashes, dots,
'=', capitals: job-A, FileStoreCommitImpl.tryCommit, APPEND, seed=1), the names the scenario files
give (writers, tables, counters, labels), and the few terms the lectures keep in English in their
Chinese text (bucket, manifest, checkpoint, rename, metadata, base, serializable, ...). With --html,
the text a reader of a timeline page sees: its SVG text and tips, and the stepper's words."""
import html
import json
import os
import re
import sys
import unicodedata

# Terms the three lectures write in English inside Chinese sentences (docs/lectures.md).
LECTURE_TERMS = {
    "bucket", "manifest", "checkpoint", "rename", "metadata", "base", "failover", "serializable", "snapshot",
    "append", "overwrite", "delete", "replace", "rewrite", "schema", "spec", "identifier", "exists", "commit",
    "order", "key", "txn", "user", "seed",
    # scenario directives, in a failed expectation's quoted line
    "expect", "writer",
    # units
    "ms", "s", "us", "min",
}
# The labs' section keys (--experiment), identifiers of the command line (labs/commands/lab_command.cc).
LAB_KEYS = {"race", "excerpt", "conflict", "failover", "dedicated", "lsm", "idempotent", "unknown", "retries",
            "crash", "objectstore", "retries0", "counter", "isolation", "orphans", "expiry", "matrix", "conflicts"}
# What S2 第 5 讲 itself quotes from Paimon's log in its Chinese results ("Atomic commit failed 共 25 次"),
# and the openings of Iceberg's ValidationException messages that the conflict matrix's legend
# quotes (the matrix runs quietly: no log line to find them in).
LECTURE_QUOTES = ["Atomic commit failed", "Found conflicting deleted files", "Found conflicting files",
                  "Missing required files to delete"]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
SHORT_UUID = re.compile(r"[0-9a-f]{8}…")
LONG_ID = re.compile(r"\d{12,}")  # Iceberg's snapshot ids
LOG_LINE = re.compile(r"^\s*[\d.]+ (INFO|WARN|ERROR) +\[[^\]]*\] (.*)$")
QUOTED = re.compile(r"^\s*\| (.*)$")


def same_ids(text):
    """`text` with every UUID, whole or as the outputs abbreviate it (AbbreviateUuids: 1390758a…),
    and Iceberg's snapshot ids made one: a quote from another seed's run differs in its ids only."""
    return LONG_ID.sub("<n>", SHORT_UUID.sub("<id>", UUID.sub("<id>", text)))


def scenario_names(folder):
    names = set()
    for f in os.listdir(folder):
        if not f.endswith(".scn"):
            continue
        with open(os.path.join(folder, f), encoding="utf-8") as text:
            for line in text:
                for m in re.finditer(r"\b(?:name|key|user|partition|filter|file|files|protocol)=([\w.,/-]+)", line):
                    names.update(re.split(r"[-=.,/]", m.group(1)))
                # A step line's label and keyword (`job-1.c: compact ...`): the stepper and the
                # page name a step by its line, as the file writes it.
                m = re.match(r"^([\w-]+)\.(\w+):\s*([\w-]+)", line)
                if m:
                    names.add(m.group(2))
                    names.update(m.group(3).split("-"))
                m = re.match(r"^([\w-]+):\s*counter\s+\w+\s+key=(\w+)", line)
                if m:
                    names.add(m.group(2))
    return {n.lower() for n in names if n}


def wide(c):
    return unicodedata.east_asian_width(c) in "WF"


def english_words(line, engine_text, allowed):
    """The words of `line` that are neither identifiers nor allowed, outside quoted engine text."""
    # Runs of text between Chinese characters: an engine's message is quoted whole.
    runs = re.split(r"[^\x00-\x7f…–—·×→←]+", line)
    bad = []
    for run in runs:
        text = run.strip(" ,;:()（）")
        if len(text) >= 12 and any(same_ids(text) in e for e in engine_text):
            continue
        if text.startswith("commitlab "):  # a command to type, every word of it an identifier
            continue
        for quote in LECTURE_QUOTES:
            run = run.replace(quote, "")
        for word in re.findall(r"(?<![\w.-])[A-Za-z][A-Za-z'!?]*(?:[-_./=#:()\[\]0-9+*<>\"…][^\s,;]*)?", run):
            core = word.rstrip("!?.'\"")
            if re.search(r"[-_./=#:()\[\]0-9+*<>\"…]", core) or re.search(r"[A-Z]", core):
                continue
            if (core.lower() in allowed or core.lower() in LECTURE_TERMS or core in LAB_KEYS
                    or len(core) == 1):  # a key to press: q, n, u

                continue
            bad.append(core)
    return bad


def html_text(page):
    """The words a reader of a timeline page sees."""
    out = []
    svg = re.search(r"<svg.*?</svg>", page, re.S)
    if svg:
        for m in re.finditer(r"<(text|title)[^>]*>([^<]*)</\1>", svg.group(0)):
            out.append(html.unescape(m.group(2)))
    data = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    if data:
        d = json.loads(data.group(1).replace("<\\/", "</"))
        out.extend(d["words"].values())
        out.extend(d["tableNames"])
        for step in d["steps"]:
            out.extend(step[2])
            out.extend(t for _, t in step[3])
            out.extend(t for _, t in step[4])
    body = re.sub(r"<(script|style|svg)[^>]*>.*?</\1>", "", page, flags=re.S)
    out.extend(html.unescape(t) for t in re.findall(r">([^<]+)<", body))
    out.extend(html.unescape(t) for t in re.findall(r'title="([^"]*)"', body))
    return "\n".join(out).split("\n")


def main():
    allowed = scenario_names(sys.argv[1])
    text = sys.stdin.read()
    lines = html_text(text) if "--html" in sys.argv else text.split("\n")
    engine_text = []
    quoted = lines
    if "--quotes" in sys.argv:  # a fuller output of the same runs, whose log lines are quoted here
        with open(sys.argv[sys.argv.index("--quotes") + 1], encoding="utf-8") as f:
            quoted = lines + f.read().split("\n")
    for line in quoted:
        m = LOG_LINE.match(line) or QUOTED.match(line)
        if m:
            engine_text.append(same_ids(m.group(m.lastindex)))
    problems = []
    for n, line in enumerate(lines, 1):
        # A log line, a refusal's text, or a scenario's source passage: quoted in their own words.
        if LOG_LINE.match(line) or QUOTED.match(line) or line.startswith("出处：") or not line.strip():
            continue
        bad = english_words(line, engine_text, allowed)
        if bad:
            problems.append((n, bad, line))
    for n, bad, line in problems[:15]:
        print(f"line {n}: English words {bad}: {line}")
    if problems:
        print(f"{len(problems)} line(s) with English words of their own")
    sys.exit(1 if problems else 0)


main()
