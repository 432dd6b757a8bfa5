#!/usr/bin/env python3
"""The protocol seam test: outside each protocol's own folders and the tests, only the files below
name a protocol value (Protocol::kPaimon, ...). Everything else asks the scenario registry
(scenarios/src/protocols/registry.h) or core's ProtocolName / kEngineProtocols, so that adding a
protocol is its folders and one registry line (docs/architecture.md, "Where to add... a protocol").
Usage: check_protocol_seam.py REPO_ROOT"""
import os
import re
import subprocess
import sys

ALLOWED = {
    'core/include/commitlab/core/protocol.h',  # the enum itself
    'scenarios/src/protocols/registry.cc',  # one line per protocol
    'sim/src/sweep_run.cc',  # a sweep runs each engine directly
}
# A protocol's folders: core/{src,include/commitlab/core}/<p>/ and scenarios/src/protocols/<p>/.
OWN = re.compile(r'^(core/src/[a-z]+/|core/include/commitlab/core/[a-z]+/|scenarios/src/protocols/[a-z]+/)')
VALUE = re.compile(r'\bProtocol::k[A-Z]\w*')

os.chdir(sys.argv[1])
tracked = subprocess.check_output(['git', 'ls-files', '*.h', '*.cc'], text=True).split()
bad = []
for f in tracked:
    if f in ALLOWED or OWN.match(f) or '/tests/' in f or f.startswith('core/catalogs/'):
        continue
    with open(f, encoding='utf-8') as text:
        for n, line in enumerate(text, 1):
            if VALUE.search(line):
                bad.append(f'{f}:{n}: names {VALUE.search(line).group(0)}; ask the registry or ProtocolName instead')
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
