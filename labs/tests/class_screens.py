#!/usr/bin/env python3
"""class_screens.py LINES COLUMNS < `commitlab lab L --class`: fails (exit 1), naming the screen,
when a screen is longer than LINES or wider than COLUMNS (East Asian wide characters count two),
when a line repeats within a screen, when an engine's message is said twice in one, or when a
wrapped line starts with a closing Chinese mark or ends with an opening one, or when a section's
screen asks no question to predict (class_questions.cc has none for its scenario). A screen
begins at a section's heading ("== N. key ...") or the verdicts ("== Verdicts ==" / "== 结论 ==")."""
import re
import sys
import unicodedata

lines_max, columns_max = int(sys.argv[1]), int(sys.argv[2])
MESSAGE = re.compile(r"[A-Z]\w*Exception[:：][^，。;；]*|[A-Z][a-z]+ [a-z]+ conflicts detected![^，。]*"
                     r"|Commit failed after [^，。]*|Atomic commit failed for [^，。]*")


def columns(line):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


screens, current = [], ["(before the first section)", []]
for line in sys.stdin.read().split("\n"):
    if line.startswith("== "):
        screens.append(current)
        current = [line, []]
    current[1].append(line)
screens.append(current)

problems = []
for title, body in screens:
    text = [l for l in body if l.strip()]
    if len(body) > lines_max:
        problems.append(f"{title}: {len(body)} lines (at most {lines_max})")
    for l in body:
        if columns(l) > columns_max:
            problems.append(f"{title}: a line of {columns(l)} columns: {l}")
    for l in body:
        if re.match(r"^\s+[，。、；：）」』》？！]", l) or re.search(r"[（「『《]$", l):
            problems.append(f"{title}: broken against Chinese line-breaking rules: {l}")
    if re.match(r"== \d+\. ", title) and not any(re.match(r"(predict:  |请预测：)\S", l) for l in body):
        problems.append(f"{title}: no question to predict (labs/lab/class_questions.cc)")
    seen = set()
    for l in text:
        if l in seen:
            problems.append(f"{title}: said twice: {l}")
        seen.add(l)
    messages = [m.group(0).strip() for l in text for m in MESSAGE.finditer(l)]
    for m in set(messages):
        if messages.count(m) > 1:
            problems.append(f"{title}: the message said {messages.count(m)} times: {m}")
if len(screens) < 3:
    problems.append(f"only {len(screens)} screen(s): is this --class output?")
for p in problems[:20]:
    print(p)
sys.exit(1 if problems else 0)
