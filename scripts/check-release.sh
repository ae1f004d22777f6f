#!/usr/bin/env bash
# The README's production steps on a clean folder, after `npm run build`: the release file unpacked,
# `npm ci --omit=dev`, then the server answers /api/health, and the admin command, migrate and backup run.
# It runs on the Node.js of PRODUCTION_NODE_BIN (a folder holding `node`), by default the one of the
# `node` devDependency; the production install itself has no `node` package.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export PATH="${PRODUCTION_NODE_BIN:-$ROOT/node_modules/node/bin}:$PATH"
export ASTRO_TELEMETRY_DISABLED=1
echo "Checking the production install on Node.js $(node -v)"

release=$ROOT/$(node scripts/release.mjs)
work=$(mktemp -d)
server=
cleanup() {
  if [ -n "$server" ]; then kill -- "-$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
tar -xzf "$release" -C "$work"
cd "$work"/freight-portal-*

# As .ci/run: where this machine's registry lacks some platform's optional binaries npm ci refuses the lock.
npm ci --omit=dev --no-audit --no-fund >/dev/null 2>&1 || npm install --omit=dev --no-audit --no-fund >/dev/null
size=$(du -sm node_modules | cut -f1)
echo "production node_modules: ${size} MB"
[ "$size" -le 250 ] || { echo "production node_modules is ${size} MB, more than 250 MB"; exit 1; }
[ ! -e node_modules/node ] || { echo "the node devDependency was installed"; exit 1; }

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
export HOST=127.0.0.1 PORT=$port PUBLIC_URL=http://127.0.0.1:$port DATABASE_URL=sqlite:$work/data/portal.sqlite
export UPLOADS_DIR=$work/uploads ADMIN_PASSWORD=release-check-pass DEMO_USERS=false
# In a process group of its own (job control), stopped as systemd stops it: every process of the group
# (npm, its shell and the server) gets SIGTERM.
set -m
npm run --silent serve >"$work/serve.log" 2>&1 &
server=$!
set +m
for _ in $(seq 1 60); do
  if node -e "fetch('http://127.0.0.1:$port/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; then break; fi
  sleep 0.5
done
node -e "fetch('http://127.0.0.1:$port/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" || {
  cat "$work/serve.log"
  exit 1
}
npm run --silent admin -- list-admins | grep -q '^admin  *admin  *yes'
npm run --silent migrate -- status | tail -1
npm run --silent backup -- "$work/backups" >/dev/null
ls "$work"/backups/portal-backup-*.tar.gz >/dev/null
kill -- "-$server"
wait "$server" || true
server=
# npm, the group's leader, ends at once; the server finishes its requests and the sync step first.
for _ in $(seq 1 40); do
  if grep -q 'Portal shut down cleanly.' "$work/serve.log"; then break; fi
  sleep 0.5
done
grep -q 'Portal shut down cleanly.' "$work/serve.log" || {
  cat "$work/serve.log"
  exit 1
}
echo "The production install serves, and its admin, migrate and backup commands run."
