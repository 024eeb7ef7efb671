#!/usr/bin/env bash
# The Dockerfile's build stage, run on a machine without Docker: copies the project (as
# .dockerignore filters it) into a temporary folder and runs the same RUN steps there, then checks
# what the runtime stage would get: production dependencies only, the built web app and server,
# and a configuration check of the result. Prints the step times; exits non-zero on any failure.
#   deploy/build-steps.sh            (2–4 minutes; leaves nothing behind)
#   KEEP=1 deploy/build-steps.sh     (keeps the folder and prints it)
# test/deploy/manifests.test.ts checks that the STEPS below are the Dockerfile's RUN lines.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/quire-image-XXXXXX")"
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$work"' EXIT
export CI=true

STEPS=(
  "npm install --no-audit --no-fund"
  "npm run build"
  "npm prune --omit=dev --no-audit --no-fund"
)

# COPY . . with .dockerignore: the files git knows, minus the ignored paths (git ls-files never
# lists node_modules, dist or .env).
cd "$root"
git ls-files -z --cached --others --exclude-standard | grep -zv '^deploy/k8s/' |
  xargs -0 cp --parents -t "$work"
cd "$work"
for step in "${STEPS[@]}"; do
  start=$(date +%s)
  echo "== RUN $step"
  bash -c "$step" < /dev/null
  echo "   done in $(( $(date +%s) - start )) s"
done

echo "== checks of the runtime stage's /app"
[ -f dist/index.html ] || { echo "no dist/index.html"; exit 1; }
[ -f dist-server/serve.js ] || { echo "no dist-server/serve.js"; exit 1; }
# (typescript stays: i18next depends on it at runtime.)
for dev in jest eslint supertest @swc/jest; do
  [ ! -e "node_modules/$dev" ] || { echo "dev dependency $dev left in node_modules"; exit 1; }
done
for runtime in tsx playwright-core mongoose; do
  [ -e "node_modules/$runtime" ] || { echo "runtime dependency $runtime missing"; exit 1; }
done
# What the image's CMD runs, from the pruned tree: it must start without rebuilding anything and
# answer /healthz. (A temporary data folder: ALLOW_EPHEMERAL_DATA in case this runs in a container.)
log="$work/start.log"
DATA_DIR="$work/data" PORT=0 HOST=127.0.0.1 WORKERS=1 ALLOW_EPHEMERAL_DATA=true \
  node --max-semi-space-size=1 server/start.mjs > "$log" 2>&1 &
pid=$!
url=""
for _ in $(seq 1 120); do
  url=$(grep -o 'Quire is ready at http://[^ ]*/' "$log" | head -1 | sed 's/Quire is ready at //') || true
  [ -n "$url" ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 1
done
if [ -z "$url" ]; then cat "$log"; kill "$pid" 2>/dev/null; echo "server/start.mjs did not become ready"; exit 1; fi
health=$(node -e "fetch('${url}healthz').then(r=>console.log(r.status),()=>console.log('down'))")
kill -TERM "$pid"; wait "$pid" || true
if grep -q 'Building' "$log"; then cat "$log"; echo "the start rebuilt what the build step built"; exit 1; fi
[ "$health" = 200 ] || { cat "$log"; echo "/healthz answered $health"; exit 1; }
echo "started from the pruned tree: ${url}healthz answered 200"
echo "node_modules: $(du -sh node_modules | cut -f1), dist: $(du -sh dist | cut -f1)"
[ "${KEEP:-}" = 1 ] && echo "kept in $work"
echo "image build steps: OK"
