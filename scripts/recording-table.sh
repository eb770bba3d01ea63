#!/usr/bin/env bash
# The recording-size table of docs/recordings.md (issue 25): for the bundled demo recording and
# every corpus file (demo/assets/corpus/NAME.ghost with its NAME.v2.ghost), the sizes of format
# version 1, format version 2, and of the version 1 bytes compressed by `xz -9` and `zstd -19`
# (the CLIs; their versions are printed under the table). Fails if version 2 is not the smallest
# of the four for every file, or if a version 2 file is above 0.5 bytes a frame.
#
#   scripts/recording-table.sh           print the table
#   scripts/recording-table.sh --write   rewrite it in docs/recordings.md between the
#                                        `<!-- recording-table begin -->` / `end` markers
#   scripts/recording-table.sh --check   exit 1 if docs/recordings.md differs from a fresh table
#
# The files themselves come from `cargo run -p hopkit-demo --example record_corpus -- demo/assets`.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"
command -v xz >/dev/null || { echo "recording-table: needs the xz CLI" >&2; exit 1; }
command -v zstd >/dev/null || { echo "recording-table: needs the zstd CLI" >&2; exit 1; }

frames() { od -An -t u4 -j 8 -N 4 "$1" | tr -d ' '; }
size() { wc -c <"$1" | tr -d ' '; }

table="$(mktemp)"
trap 'rm -f "$table"' EXIT
{
    echo "| recording | frames | v1 bytes | v2 bytes | v2 bytes/frame | \`xz -9\` of v1 | \`zstd -19\` of v1 |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    rows=("demo demo/assets/demo.ghost demo/assets/demo.v2.ghost")
    for v1 in demo/assets/corpus/*.ghost; do
        case "$v1" in *.v2.ghost) continue ;; esac
        name="$(basename "$v1" .ghost)"
        rows+=("$name $v1 demo/assets/corpus/$name.v2.ghost")
    done
    for row in "${rows[@]}"; do
        set -- $row
        name="$1" v1="$2" v2="$3"
        [ -f "$v2" ] || { echo "recording-table: $v2 is missing" >&2; exit 1; }
        n="$(frames "$v1")"
        [ "$n" = "$(frames "$v2")" ] || { echo "recording-table: $v1 and $v2 differ in frames" >&2; exit 1; }
        b1="$(size "$v1")" b2="$(size "$v2")"
        bx="$(xz -9 -c "$v1" | wc -c | tr -d ' ')"
        bz="$(zstd -19 -q -c "$v1" | wc -c | tr -d ' ')"
        if [ "$b2" -ge "$bx" ] || [ "$b2" -ge "$bz" ] || [ "$b2" -ge "$b1" ]; then
            echo "recording-table: $name: v2 ($b2 bytes) is not the smallest (v1 $b1, xz $bx, zstd $bz)" >&2
            exit 1
        fi
        if [ $((b2 * 2)) -gt "$n" ]; then
            echo "recording-table: $name: v2 is $b2 bytes for $n frames, above 0.5 bytes a frame" >&2
            exit 1
        fi
        bpf="$(awk -v b="$b2" -v n="$n" 'BEGIN { printf "%.2f", b / n }')"
        echo "| \`$name\` | $n | $b1 | **$b2** | $bpf | $bx | $bz |"
    done
    echo
    echo "Compressors: $(xz --version | head -1), zstd $(zstd -V | sed -n 's/.* v\([0-9.]*\),.*/\1/p') (CLIs)."
} >"$table"

case "$mode" in
"") cat "$table" ;;
--write | --check)
    doc=docs/recordings.md
    python3 - "$doc" "$table" "$mode" <<'PY'
import sys
doc, table, mode = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(doc).read()
begin, end = "<!-- recording-table begin -->\n", "<!-- recording-table end -->"
a, b = text.index(begin) + len(begin), text.index(end)
new = text[:a] + open(table).read() + text[b:]
if mode == "--write":
    if new != text:
        open(doc, "w").write(new)
        print(f"recording-table: rewrote {doc}")
elif new != text:
    print(f"recording-table: {doc} is stale: run scripts/recording-table.sh --write", file=sys.stderr)
    sys.exit(1)
PY
    ;;
*) echo "usage: $0 [--write|--check]" >&2; exit 2 ;;
esac
