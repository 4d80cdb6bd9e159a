#!/usr/bin/env bash
# `bash bench/with-jaeger.sh --only W1,W4`: the bench with tracing on at 100 % sampling, exported
# to a real collector (Jaeger v2, e2e/jaeger/config.yaml: OTLP/HTTP on 127.0.0.1:14318, traces in
# memory). The bench's apps inherit its environment. Jaeger is the build `npm test` makes (JAEGER in
# tools/test/go-tools.ts; built here first if this machine has none); its CPU is not one of the bench's columns (it is in "other"), so its
# total is printed at the end. Run it where nothing else holds those ports (/work/bin/isolated).
set -euo pipefail
cd "$(dirname "$0")/.."
jaeger=$(node tools/run.js tools/test/print-built-tool.ts jaeger)
mkdir -p .data/bench-jaeger
"$jaeger" --config "file:$PWD/e2e/jaeger/config.yaml" > .data/bench-jaeger/jaeger.log 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 150); do
  curl -fsS -o /dev/null http://127.0.0.1:16687/api/services && break
  sleep 0.2
done
# utime + stime, in ticks of 1/100 s (fields 14 and 15 of /proc/<pid>/stat).
ticks() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
before=$(ticks)
OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:14318 OTEL_TRACES_SAMPLER=always_on npm run bench -- "$@"
echo "Jaeger: $(awk -v a="$before" -v b="$(ticks)" 'BEGIN { printf "%.1f", (b - a) / 100 }') s of CPU during the run; services traced: $(curl -fsS http://127.0.0.1:16687/api/services)"
