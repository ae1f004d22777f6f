#!/usr/bin/env bash
# `npm test` with one busy loop per core beside it (the machine at twice the load a quiet run sees),
# so that a developer sees the suite hold on a busy machine before stopping. Prints the run's wall time.
# Extra arguments go to the command run instead of `npm test` (e.g. `npm run test:fast`).
set -uo pipefail
cd "$(dirname "$0")/.."

cores=$(node -p 'require("node:os").availableParallelism()')
loops=()
for _ in $(seq "$cores"); do
  sh -c 'while :; do :; done' &
  loops+=($!)
done
stop_loops() { kill "${loops[@]}" 2>/dev/null; wait "${loops[@]}" 2>/dev/null; }
trap stop_loops EXIT INT TERM

echo "ci-under-load: ${#loops[@]} busy loops beside: ${*:-npm test}"
started=$(date +%s)
if [ $# -gt 0 ]; then "$@"; else npm test; fi
status=$?
echo "ci-under-load: exit ${status} after $(($(date +%s) - started)) s with ${#loops[@]} busy loops"
exit "$status"
