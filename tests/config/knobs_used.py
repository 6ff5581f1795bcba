#!/usr/bin/env python3
"""Every knob the code reads is in the knob table, with a description.

Scans the C sources for reads of a literal knob name through config.h
(ks_config_get/raw/int/double/bool) and checks each name against
common/config/knobs.c.  Prints what is missing and exits 1 if anything is.
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
table = {}
entry = re.compile(r'^\s*\{"([^"]+)",\s*KS_KNOB_\w+,\s*(?:"(?:[^"\\]|\\.)*"\s*)+,\s*(NULL|")', re.M)
for m in entry.finditer((root / "common/config/knobs.c").read_text()):
    table[m.group(1).lower()] = m.group(2) != "NULL"

read = re.compile(r'(?:ks_config_(?:get|raw|int|double|bool)|ks_daemon_int)\s*\([^,()]+,\s*"([A-Za-z0-9_.]+)"')
missing, undescribed, seen = [], [], set()
for path in sorted(root.glob("**/*.c")):
    rel = path.relative_to(root)
    if rel.parts[0] in ("tests", "bench") or rel.parts[0].startswith("build"):
        continue
    for m in read.finditer(path.read_text()):
        name = m.group(1)
        seen.add(name)
        where = "%s: %s" % (rel, name)
        if name.lower() not in table:
            missing.append(where)
        elif not table[name.lower()]:
            undescribed.append(where)

for w in missing:
    print("not in the knob table:", w)
for w in undescribed:
    print("no description in the knob table:", w)
print("%d knobs read by the code, %d in the table" % (len(seen), len(table)))
if len(table) < 100:
    print("the knob table looks unreadable by this script")
    sys.exit(1)
sys.exit(1 if missing or undescribed else 0)
