#!/usr/bin/env bash
# Count hopkit's public surface (issue 36 §3): the public modules, free functions, methods, types
# and constants a user of the crate can name, from rustdoc's JSON (nightly; a count for the
# CHANGELOG and reviews, not a CI gate).
#
#   scripts/api-count.sh            the totals
#   scripts/api-count.sh --list     also every public module and free function, one path a line
#
# rustdoc's JSON holds only what the crate exports: items of private modules that nothing
# re-exports are stripped, so `pub fn` inside a `pub(crate)` module is not counted. A function is
# counted once however many paths re-export it.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${CARGO_TARGET_DIR:-/tmp/hopkit-api-json}"
(cd "$REPO" && CARGO_TARGET_DIR="$OUT" cargo +nightly rustdoc -q -p hopkit --lib -- \
    -Z unstable-options --output-format json)
python3 - "$OUT/doc/hopkit.json" "${1:-}" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
idx = d["index"]
def kind(it):
    inner = it["inner"]
    return next(iter(inner)) if isinstance(inner, dict) else inner
ours = {k: it for k, it in idx.items() if it["crate_id"] == 0}
free = set()
mods = []
for k, it in ours.items():
    if kind(it) == "module" and it["visibility"] == "public":
        mods.append(k)
        for child in it["inner"]["module"]["items"]:
            c = idx.get(str(child))
            if c is not None and c["crate_id"] == 0 and kind(c) == "function":
                free.add(str(child))
        # `pub use` of a function defined elsewhere in the crate
        for child in it["inner"]["module"]["items"]:
            c = idx.get(str(child))
            if c is not None and kind(c) == "use" and c["inner"]["use"].get("id") is not None:
                t = idx.get(str(c["inner"]["use"]["id"]))
                if t is not None and t["crate_id"] == 0 and kind(t) == "function":
                    free.add(str(c["inner"]["use"]["id"]))
fns = [k for k, it in ours.items() if kind(it) == "function" and it["visibility"] == "public"]
methods = [k for k in fns if k not in free]
types = [k for k, it in ours.items() if kind(it) in ("struct", "enum", "type_alias") and it["visibility"] == "public"]
traits = [k for k, it in ours.items() if kind(it) == "trait" and it["visibility"] == "public"]
consts = [k for k, it in ours.items() if kind(it) == "constant" and it["visibility"] == "public"]
print(f"public modules:          {len(mods)} (the crate root included)")
print(f"public functions:        {len(fns)} ({len(free)} free, {len(methods)} methods)")
print(f"public types:            {len(types)}")
print(f"public traits:           {len(traits)}")
print(f"public constants:        {len(consts)}")
if sys.argv[2] == "--list":
    paths = d["paths"]
    def path(k):
        p = paths.get(k)
        return "::".join(p["path"]) if p else idx[k].get("name") or k
    for k in sorted(mods, key=path):
        print("mod", path(k))
    for k in sorted(free, key=path):
        print("fn ", path(k))
PY
