#!/usr/bin/env bash
# Measured figures in README.md and docs/*.md that come from firmware/budgets.txt are written as
#
#     <!--b NAME-->332,966<!--/b-->
#
# (invisible in rendered Markdown: it shows 332,966), where NAME is a budgets.txt row; the figure is
# that row's baseline, with thousands separators. budgets.txt is the one source:
#
#   scripts/docs-numbers.sh           check: every marked figure equals its row (exit 1 otherwise)
#   scripts/docs-numbers.sh --write   rewrite every marked figure from budgets.txt
#                                     (scripts/budgets.sh --update calls this)
#
# The same check runs in `cargo test` (tests/tests/integration/docs_numbers.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - "${1:-}" README.md docs/*.md <<'EOF'
import re, sys
write = sys.argv[1] == "--write"
base = {}
for line in open("firmware/budgets.txt"):
    f = line.split("#", 1)[0].split()
    if len(f) == 3:
        base[f[0]] = f[2]
mark = re.compile(r"<!--b ([a-z0-9.\-]+)-->([^<]*)<!--/b-->")
bad = []
for path in sys.argv[2:]:
    text = open(path).read()
    def fix(m):
        name, shown = m.group(1), m.group(2)
        if name not in base:
            bad.append(f"{path}: {name}: no such row in firmware/budgets.txt")
            return m.group(0)
        want = f"{int(base[name]):,}"
        if shown != want:
            bad.append(f"{path}: {name}: shows {shown}, firmware/budgets.txt has {want}")
        return f"<!--b {name}-->{want}<!--/b-->"
    new = mark.sub(fix, text)
    if write and new != text:
        open(path, "w").write(new)
        print(f"docs-numbers: rewrote {path}")
if bad and not write:
    print("docs-numbers: stale figures (run scripts/docs-numbers.sh --write):\n  " + "\n  ".join(bad), file=sys.stderr)
    sys.exit(1)
if bad and write and any("no such row" in b for b in bad):
    print("\n".join(b for b in bad if "no such row" in b), file=sys.stderr)
    sys.exit(1)
EOF
