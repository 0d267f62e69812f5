#!/usr/bin/env bash
# Two commits side by side on bench scenarios 8 and 10 (issue 23: a reshaping keeps their speed):
# `remit export` of ROWS payments as csv, xlsx and json, and `remit import` of that xlsx into an
# empty database, each commit's own CLI on a database its own code seeded, taking turns (old, new,
# new, old …) so a machine's load falls on both alike. Prints the minimum and median of each and
# new/old. Usage: bench/ab/compare.sh OLD NEW [ROWS=100000] [ROUNDS=6]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd); repo=$(cd "$here/../.." && pwd)
old=$1; new=$2; rows=${3:-100000}; rounds=${4:-6}
work=$(mktemp -d /tmp/remit-ab-XXXXXX)
trap 'git -C "$repo" worktree remove --force "$work/old" >/dev/null 2>&1 || true; git -C "$repo" worktree remove --force "$work/new" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
for t in old new; do
  git -C "$repo" worktree add --detach "$work/$t" "${!t}" >/dev/null 2>&1
  ln -s "$repo/node_modules" "$work/$t/node_modules"
  (cd "$work/$t" && npx tsc -p tsconfig.build.json)
  node "$here/prep.mjs" "$work/$t" "$work/$t.sqlite" "$rows"
done
node "$work/old/dist/cli/main.js" --db "$work/old.sqlite" export -o "$work/source.xlsx" >/dev/null
ms() { local s; s=$(date +%s%N); "$@" >/dev/null 2>&1; echo $(( ($(date +%s%N) - s) / 1000000 )); }
for r in $(seq 1 "$rounds"); do
  if (( r % 2 )); then order="old new"; else order="new old"; fi
  for t in $order; do
    for f in csv xlsx json; do echo "$t export-$f $(ms node "$work/$t/dist/cli/main.js" --db "$work/$t.sqlite" export -o "$work/out-$t.$f")"; done
    rm -f "$work/imp-$t.sqlite"*; node "$here/prep.mjs" "$work/$t" "$work/imp-$t.sqlite" 0 empty
    echo "$t import $(ms node "$work/$t/dist/cli/main.js" --db "$work/imp-$t.sqlite" import "$work/source.xlsx" --json)"
  done
done | tee "$work/times.txt" >/dev/null
python3 - "$work/times.txt" <<'PY'
import collections, statistics, sys
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    t, k, v = line.split(); d[(k, t)].append(int(v))
print('| task | old min / median ms | new min / median ms | new/old (min, median) |\n|---|---|---|---|')
for k in sorted({k for k, _ in d}):
    o, n = d[(k, 'old')], d[(k, 'new')]
    print(f'| {k} | {min(o)} / {statistics.median(o):.0f} | {min(n)} / {statistics.median(n):.0f} | {min(n)/min(o):.3f}, {statistics.median(n)/statistics.median(o):.3f} |')
PY
