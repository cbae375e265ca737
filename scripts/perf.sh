#!/usr/bin/env bash
# Whole-process measurements behind docs/PERFORMANCE.md. Every figure is printed with the load
# average at the time it was taken; repeat a run when the machine is busy and compare medians.
#
#   scripts/perf.sh [all|machine|cold|assess|fleet|start|observer]...   (default: all)
#
# FLEET_LAUNCHER picks another ./fleet (for a before/after comparison); RUNS the repetitions (10).
set -euo pipefail

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
launcher="${FLEET_LAUNCHER:-$root/fleet}"
bench_jar="$root/fleet-benchmarks/target/benchmarks.jar"
runs="${RUNS:-10}"
work="$(mktemp -d "${TMPDIR:-/tmp}/fleet-perf.XXXXXX")"
trap 'rm -rf "$work"' EXIT

if [[ ! -f "$bench_jar" || ! -f "$(dirname "$launcher")/fleet-cli-adapter/target/fleet.jar" ]]; then
  echo "building the jars (output on stderr)..." >&2
  (cd "$root" && ./mvnw -B -q -DskipTests -pl fleet-cli-adapter,fleet-benchmarks -am package >&2)
  [[ -f "$(dirname "$launcher")/fleet-cli-adapter/target/fleet.jar" ]] || "$launcher" --version >/dev/null
fi

load() { cut -d' ' -f1-3 /proc/loadavg; }
now_ns() { date +%s%N; }
median() { sort -n | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else printf "%.1f\n", (v[NR/2]+v[NR/2+1])/2}'; }
# Milliseconds one run of "$@" takes, output discarded.
time_ms() { local start; start=$(now_ns); "$@" >/dev/null 2>&1 || true; echo $(( ($(now_ns) - start) / 1000000 )); }
harness() { java -cp "$bench_jar" dev.fleet.bench.FleetProcesses "$@"; }

# An empty migrated registry and a roster whose pattern matches only servers serving it, so other
# fleets on the host neither count nor cost.
scratch_registry() {
  local dir="$1"
  mkdir -p "$dir"
  "$launcher" registry migrate --registry "$dir/control_plane.sqlite3" >/dev/null
  local quoted="${dir//\//\\/}"
  printf '{"binding": {"remote": "prgs", "org": "Scaled-Tech-Consulting", "repo": "Gitea-Tools"}, "members": [%s], "server_process_patterns": ["fleet\\\\.jar serve .*--registry %s/control_plane\\\\.sqlite3"]}\n' \
    '{"namespace": "gitea-author", "profile": "prgs-author", "role": "author"}, {"namespace": "gitea-reviewer", "profile": "prgs-reviewer", "role": "reviewer"}, {"namespace": "gitea-controller", "profile": "prgs-controller", "role": "controller"}, {"namespace": "gitea-merger", "profile": "prgs-merger", "role": "merger"}, {"namespace": "gitea-reconciler", "profile": "prgs-reconciler", "role": "reconciler"}' \
    "$quoted" > "$dir/roster.json"
}

machine() {
  echo "== machine"
  echo "cpu: $(nproc) x $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
  echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo); kernel $(uname -r)"
  echo "java: $(java -version 2>&1 | head -1)"
  echo "launcher: $launcher"
  echo "load average: $(load)"
}

cold() {
  echo "== cold start: ./fleet assess --format json (empty registry) vs java -version, $runs runs each, interleaved"
  scratch_registry "$work/cold"
  local reference=() fleet=() i
  for ((i = 0; i < runs; i++)); do
    reference+=("$(time_ms java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -version)")
    fleet+=("$(time_ms "$launcher" assess --format json --registry "$work/cold/control_plane.sqlite3" --roster "$work/cold/roster.json")")
  done
  local ref_median fleet_median
  ref_median=$(printf '%s\n' "${reference[@]}" | median)
  fleet_median=$(printf '%s\n' "${fleet[@]}" | median)
  echo "java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -version: median ${ref_median} ms (${reference[*]})"
  echo "./fleet assess --format json:                         median ${fleet_median} ms (${fleet[*]})"
  awk -v f="$fleet_median" -v r="$ref_median" 'BEGIN {printf "ratio: %.2f x java -version\n", f / r}'
  echo "load average: $(load)"
}

assess() {
  echo "== fleet assess --format json: 10,000 rows vs an empty registry, $runs runs each, interleaved"
  scratch_registry "$work/empty"
  scratch_registry "$work/big"
  harness populate "$work/big/control_plane.sqlite3" 10000 >/dev/null
  local empty=() big=() i
  for ((i = 0; i < runs; i++)); do
    empty+=("$(time_ms "$launcher" assess --format json --registry "$work/empty/control_plane.sqlite3" --roster "$work/empty/roster.json")")
    big+=("$(time_ms "$launcher" assess --format json --registry "$work/big/control_plane.sqlite3" --roster "$work/big/roster.json")")
  done
  local empty_median big_median peak bytes
  empty_median=$(printf '%s\n' "${empty[@]}" | median)
  big_median=$(printf '%s\n' "${big[@]}" | median)
  bytes=$("$launcher" assess --format json --registry "$work/big/control_plane.sqlite3" --roster "$work/big/roster.json" | wc -c || true)
  peak=$( { /usr/bin/time -f '%M' "$launcher" assess --format json --registry "$work/big/control_plane.sqlite3" \
      --roster "$work/big/roster.json" >/dev/null 2>/dev/null; } 2>&1 | tail -1 || true)
  echo "empty registry:  median ${empty_median} ms (${empty[*]})"
  echo "10,000 rows:     median ${big_median} ms (${big[*]}); verdict ${bytes} bytes"
  awk -v b="$big_median" -v e="$empty_median" 'BEGIN {printf "ratio: %.2f\n", b / e}'
  [[ -n "$peak" ]] && echo "peak RSS with 10,000 rows: $((peak / 1024)) MB (/usr/bin/time)"
  echo "load average: $(load)"
}

fleet() {
  echo "== five idle members (fresh registry, one migrates it), then warm tool calls through the SDK client"
  harness fleet "$launcher" "$work/fleet" 200
  echo "load average: $(load)"
}

start() {
  echo "== server start to its registered row (registry already migrated), $runs runs"
  harness start "$launcher" "$work/start" "$runs"
  echo "load average: $(load)"
}

observer() {
  echo "== process observation of 1,000+ processes vs ps -e -o pid=,lstart=,args="
  java -cp "$bench_jar" dev.fleet.bench.ObserverVsPs 1000 5 21
  echo "load average: $(load)"
}

steps=("$@")
[[ ${#steps[@]} -eq 0 || "${steps[0]}" == all ]] && steps=(machine cold assess fleet start observer)
for step in "${steps[@]}"; do
  case "$step" in
    machine | cold | assess | fleet | start | observer) "$step" ;;
    *) echo "unknown step: $step" >&2; exit 2 ;;
  esac
done
