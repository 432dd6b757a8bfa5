#!/usr/bin/env python3
"""The documentation's links, checked: every relative link and image of README.md and docs/**/*.md
names a file or folder of the repository, and a link with an anchor (`page.md#section`, `#section`)
names a heading of that page as GitHub slugs it, or an `<a id="...">` / `<a name="...">` there.

GitHub's slug of a heading: its text as rendered (code spans and links reduced to their text),
lower case, every character that is not a letter, digit, underscore, hyphen or space removed, each
space a hyphen; a slug seen before on the page gets -1, -2, ... Links inside fenced code blocks and
code spans are not links. Web addresses (http:, https:, mailto:) are not checked here.

Usage: doc_links.py REPO_ROOT [FILE...]   (default: README.md and docs/**/*.md)
Prints each broken link as FILE:LINE: TARGET: why; exit 1 if there is one, 0 otherwise."""
import glob
import os
import re
import sys

LINK = re.compile(r'!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
ANCHOR_TAG = re.compile(r'<a\s+(?:id|name)="([^"]+)"')
FENCE = re.compile(r'^\s*(```+|~~~+)')


def prose_lines(path):
    """(line number, text) of the lines outside fenced code blocks, code spans blanked."""
    fence = None
    for n, line in enumerate(open(path, encoding='utf-8'), 1):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            continue
        if fence is not None:
            if m and m.group(1).startswith(fence):
                fence = None
            continue
        yield n, re.sub(r'(`+)(?:(?!\1).)+\1', lambda c: ' ' * len(c.group(0)), line.rstrip('\n'))


def slug(heading):
    """GitHub's anchor for a heading's text (before the -N of a repeated one)."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', heading)  # a link shows its text
    text = text.replace('`', '').strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def anchors(path, cache={}):
    """The anchors a page has: its headings' slugs and its <a id|name> tags."""
    if path not in cache:
        found, seen = set(), {}
        fence = None
        for line in open(path, encoding='utf-8'):
            m = FENCE.match(line)
            if fence is None and m:
                fence = m.group(1)
            elif fence is not None:
                if m and m.group(1).startswith(fence):
                    fence = None
                continue
            found.update(ANCHOR_TAG.findall(line))
            h = re.match(r'^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$', line)
            if h and fence is None:
                base = slug(h.group(1))
                n = seen.get(base, 0)
                found.add(base if n == 0 else f'{base}-{n}')
                seen[base] = n + 1
        cache[path] = found
    return cache[path]


def check(path):
    """The broken links of one page, as messages."""
    out = []
    for n, line in prose_lines(path):
        for target in LINK.findall(line):
            if re.match(r'^[a-z][a-z0-9+.-]*:', target, re.I):
                continue  # a web address or mailto:
            file_part, _, anchor = target.partition('#')
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            if not os.path.exists(resolved):
                out.append(f'{path}:{n}: {target}: no such file ({resolved})')
            elif anchor and resolved.endswith('.md') and anchor not in anchors(resolved):
                out.append(f'{path}:{n}: {target}: {resolved} has no heading or anchor "{anchor}"')
            elif anchor and not resolved.endswith('.md'):
                out.append(f'{path}:{n}: {target}: an anchor into a file that is not a page')
    return out


def main():
    os.chdir(sys.argv[1])
    files = sys.argv[2:] or ['README.md'] + sorted(glob.glob('docs/**/*.md', recursive=True))
    broken, links = [], 0
    for path in files:
        links += sum(len(LINK.findall(line)) for _, line in prose_lines(path))
        broken += check(path)
    for b in broken:
        print(b)
    print(f'{links} link(s) in {len(files)} page(s), {len(broken)} broken')
    return 1 if broken or links == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
