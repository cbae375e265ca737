#!/usr/bin/env bash
# Whole-process measurements behind docs/PERFORMANCE.md. Every figure is printed with the load
# average at the time it was taken; repeat a run when the machine is busy and compare medians.
#
#   scripts/perf.sh [all|machine|cold|floor|metrics|assess|fleet|start|start5|observer|watch|relay|teardown|host|argv]...   (default: all)
#
# WATCH_SECONDS sets the watch step's measuring window (300), WATCH_WARMUP its warm-up before it (1000:
# a thousand looks, after which the JIT compilers have done their work, as the warm call's 1,000 calls).
# RELAY_CALLS, RELAY_PIPELINED and RELAY_LARGE_MIB size the relay step (2,000 sequential calls a side,
# 2,000 pipelined calls a round, a 5 MiB message; RUNS rounds a side of the 5 MiB message, three times RUNS of the pipelined rounds).
# RELAY_REPEATS runs the relay step that many times back to back (1), then each budget figure's median: issue
# 52's budgets are read as the median of three runs (RELAY_REPEATS=3) on a quiet host.
#
# TEARDOWN_RUNS sets the teardown step's runs per child and trigger (5).
#
# HOST_PROCESSES sets how many sleep processes the host step adds to the host (2000).
#
# HUGE_PROCESSES sets how many processes of a 1.8 MB argv the argv step adds to the host (30).
#
# FLEET_LAUNCHER picks another ./fleet (for a before/after comparison); RUNS the repetitions (10).
set -euo pipefail

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
launcher="${FLEET_LAUNCHER:-$root/fleet}"
bench_jar="$root/fleet-benchmarks/target/benchmarks.jar"
runs="${RUNS:-10}"
work="$(mktemp -d "${TMPDIR:-/tmp}/fleet-perf.XXXXXX")"
host_sleepers=()
trap 'if ((${#host_sleepers[@]})); then kill "${host_sleepers[@]}" 2>/dev/null; fi; rm -rf "$work"' EXIT

if [[ ! -f "$bench_jar" || ! -f "$(dirname "$launcher")/fleet-cli-adapter/target/fleet.jar" ]]; then
  echo "building the jars (output on stderr)..." >&2
  (cd "$root" && ./mvnw -B -q -DskipTests -pl fleet-cli-adapter,fleet-benchmarks -am package >&2)
  [[ -f "$(dirname "$launcher")/fleet-cli-adapter/target/fleet.jar" ]] || "$launcher" --version >/dev/null
fi

load() { cut -d' ' -f1-3 /proc/loadavg; }
now_ns() { date +%s%N; }
# The median of the numbers on stdin: as read (or to one decimal, between two), or in printf format $1.
median() {
  sort -n | awk -v f="${1:-}" '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2
    if (f != "") printf f "\n", m; else if (NR % 2) print m; else printf "%.1f\n", m}'
}
# "WALL_MS CPU_MS PEAK_RSS_KB" of one run of "$@", output discarded. The CPU time (user + system,
# from /usr/bin/time) says what the run costs whatever the neighbours do; the wall time is the
# figure, and on a shared machine it also measures the neighbours.
time_run() {
  local start wall
  start=$(now_ns)
  /usr/bin/time -o "$work/time" -f '%U %S %M' "$@" >/dev/null 2>&1 || true
  wall=$(( ($(now_ns) - start) / 1000000 ))
  tail -1 "$work/time" | awk -v wall="$wall" '{printf "%d %d %d\n", wall, ($1 + $2) * 1000, $3}'
}
column() { awk -v n="$1" '{print $n}'; }
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
  echo "== cold start: ./fleet assess --format json (embedded roster, empty registry) vs java -version, $runs runs each, interleaved"
  scratch_registry "$work/cold"
  : > "$work/reference.times" && : > "$work/assess.times"
  local i
  for ((i = 0; i < runs; i++)); do
    time_run java -version >> "$work/reference.times"
    time_run "$launcher" assess --format json --registry "$work/cold/control_plane.sqlite3" >> "$work/assess.times"
  done
  local ref_wall ref_cpu fleet_wall fleet_cpu
  ref_wall=$(column 1 < "$work/reference.times" | median); ref_cpu=$(column 2 < "$work/reference.times" | median)
  fleet_wall=$(column 1 < "$work/assess.times" | median); fleet_cpu=$(column 2 < "$work/assess.times" | median)
  echo "java -version:               median ${ref_wall} ms wall, ${ref_cpu} ms CPU ($(column 1 < "$work/reference.times" | xargs))"
  echo "./fleet assess --format json: median ${fleet_wall} ms wall, ${fleet_cpu} ms CPU ($(column 1 < "$work/assess.times" | xargs))"
  awk -v f="$fleet_wall" -v r="$ref_wall" -v fc="$fleet_cpu" -v rc="$ref_cpu" \
    'BEGIN {printf "ratio: %.2f x java -version (wall), %.2f x (CPU)\n", f / r, fc / rc}'
  echo "load average: $(load)"
}

# What a cold assess cannot go below on this stack: the JVM started as ./fleet starts assess (its options,
# jar and archive) doing nothing, and doing only what every SQLite assessment must do first, loading
# the driver (dev.fleet.bench.ColdFloor, run through the launcher by FLEET_JAVA_OPTS). Interleaved
# with java -version and the assessment itself. (Run from a class path, not the jar, the driver's
# native library draws JDK 22+'s restricted-method warning on stderr, which the timing discards.)
floor() {
  echo "== the floor under a cold assess (empty registry, embedded roster), $runs runs each, interleaved"
  local fleet_jar
  fleet_jar="$(dirname "$launcher")/fleet-cli-adapter/target/fleet.jar"
  if [[ "$fleet_jar$bench_jar" =~ [[:space:]] ]]; then
    echo "floor: the jars' paths hold a space, which FLEET_JAVA_OPTS cannot carry; skipped" >&2
    return
  fi
  scratch_registry "$work/floor"
  local kinds=(reference jvm driver assess) kind i
  # The launcher's java command for assess, with ColdFloor's floor $1 as its main class.
  floor_opts() { echo "-Dfleet.floor=$1 -cp $fleet_jar:$bench_jar dev.fleet.bench.ColdFloor"; }
  # One untimed run of each floor first: a benchmarks.jar older than ColdFloor would time a failure.
  for kind in jvm driver; do
    if ! FLEET_JAVA_OPTS="$(floor_opts "$kind")" \
      "$launcher" assess --registry "$work/floor/control_plane.sqlite3" >/dev/null 2>"$work/floor.err"; then
      echo "floor: ColdFloor did not run ($(tail -n 1 "$work/floor.err")); rebuild $bench_jar" >&2
      return
    fi
  done
  for kind in "${kinds[@]}"; do : > "$work/floor-$kind.times"; done
  for ((i = 0; i < runs; i++)); do
    time_run java -version >> "$work/floor-reference.times"
    for kind in jvm driver; do
      FLEET_JAVA_OPTS="$(floor_opts "$kind")" time_run "$launcher" assess --registry "$work/floor/control_plane.sqlite3" >> "$work/floor-$kind.times"
    done
    time_run "$launcher" assess --format json --registry "$work/floor/control_plane.sqlite3" >> "$work/floor-assess.times"
  done
  local reference wall cpu label
  reference=$(column 1 < "$work/floor-reference.times" | median)
  for kind in "${kinds[@]}"; do
    case "$kind" in
      reference) label="java -version" ;;
      jvm) label="./fleet's JVM, nothing run" ;;
      driver) label="./fleet's JVM, SQLite driver" ;;
      assess) label="./fleet assess --format json" ;;
    esac
    wall=$(column 1 < "$work/floor-$kind.times" | median); cpu=$(column 2 < "$work/floor-$kind.times" | median)
    awk -v l="$label" -v w="$wall" -v c="$cpu" -v r="$reference" -v all="$(column 1 < "$work/floor-$kind.times" | xargs)" \
      'BEGIN {printf "%-30s median %6s ms wall (%.2f x java -version), %s ms CPU (%s)\n", l ":", w, w / r, c, all}'
  done
  echo "load average: $(load)"
}

metrics() {
  echo "== cold start: ./fleet assess --format prometheus and --format openmetrics vs --format json (empty registry), $runs runs each, interleaved"
  scratch_registry "$work/metrics"
  local format i
  for format in json prometheus openmetrics; do : > "$work/$format.times"; done
  for ((i = 0; i < runs; i++)); do
    for format in json prometheus openmetrics; do
      time_run "$launcher" assess --format "$format" --registry "$work/metrics/control_plane.sqlite3" \
        --roster "$work/metrics/roster.json" >> "$work/$format.times"
    done
  done
  local json_wall json_cpu wall cpu
  json_wall=$(column 1 < "$work/json.times" | median); json_cpu=$(column 2 < "$work/json.times" | median)
  for format in json prometheus openmetrics; do
    wall=$(column 1 < "$work/$format.times" | median); cpu=$(column 2 < "$work/$format.times" | median)
    printf '%-12s median %s ms wall, %s ms CPU (%s)\n' "$format:" "$wall" "$cpu" "$(column 1 < "$work/$format.times" | xargs)"
    awk -v w="$wall" -v jw="$json_wall" -v c="$cpu" -v jc="$json_cpu" -v f="$format" \
      'BEGIN {printf "  %s / json: %.2f (wall), %.2f (CPU)\n", f, w / jw, c / jc}'
  done
  echo "load average: $(load)"
}

assess() {
  echo "== fleet assess --format json: 10,000 rows vs an empty registry, $runs runs each, interleaved"
  scratch_registry "$work/empty"
  scratch_registry "$work/big"
  harness populate "$work/big/control_plane.sqlite3" 10000 >/dev/null
  : > "$work/empty.times" && : > "$work/big.times"
  local i
  for ((i = 0; i < runs; i++)); do
    time_run "$launcher" assess --format json --registry "$work/empty/control_plane.sqlite3" \
      --roster "$work/empty/roster.json" >> "$work/empty.times"
    time_run "$launcher" assess --format json --registry "$work/big/control_plane.sqlite3" \
      --roster "$work/big/roster.json" >> "$work/big.times"
  done
  local empty_wall empty_cpu big_wall big_cpu bytes
  empty_wall=$(column 1 < "$work/empty.times" | median); empty_cpu=$(column 2 < "$work/empty.times" | median)
  big_wall=$(column 1 < "$work/big.times" | median); big_cpu=$(column 2 < "$work/big.times" | median)
  bytes=$("$launcher" assess --format json --registry "$work/big/control_plane.sqlite3" --roster "$work/big/roster.json" | wc -c || true)
  echo "empty registry:  median ${empty_wall} ms wall, ${empty_cpu} ms CPU, peak RSS $(( $(column 3 < "$work/empty.times" | median | cut -d. -f1) / 1024 )) MB ($(column 1 < "$work/empty.times" | xargs))"
  echo "10,000 rows:     median ${big_wall} ms wall, ${big_cpu} ms CPU, peak RSS $(( $(column 3 < "$work/big.times" | median | cut -d. -f1) / 1024 )) MB ($(column 1 < "$work/big.times" | xargs)); verdict ${bytes} bytes"
  awk -v b="$big_wall" -v e="$empty_wall" -v bc="$big_cpu" -v ec="$empty_cpu" \
    'BEGIN {printf "ratio: %.2f (wall), %.2f (CPU)\n", b / e, bc / ec}'
  # This host's speed drifts over a series; each 10,000-row run against the empty run just before it does not.
  echo "median of the $runs paired ratios: $(paired_ratio 1 "$work/empty.times" "$work/big.times") (wall), $(paired_ratio 2 "$work/empty.times" "$work/big.times") (CPU)"
  # The rows' own cost, which a faster empty run leaves as it is (a ratio rises when the empty run falls).
  echo "median of the $runs paired differences: $(paired_difference 1 "$work/empty.times" "$work/big.times") ms (wall), $(paired_difference 2 "$work/empty.times" "$work/big.times") ms (CPU)"
  echo "load average: $(load)"
}

# Column $1 of file $2 and of file $3, run by run, side by side.
paired() { paste -d' ' <(column "$1" < "$2") <(column "$1" < "$3"); }
# The median over runs of column $1 of file $3 divided by the same run's column $1 of file $2.
paired_ratio() { paired "$@" | awk '{printf "%.4f\n", $2 / $1}' | median "%.2f"; }
# The median over runs of column $1 of file $3 less the same run's column $1 of file $2.
paired_difference() { paired "$@" | awk '{print $2 - $1}' | median; }

fleet() {
  echo "== five idle members (fresh registry, one migrates it), then warm tool calls through the SDK client"
  harness fleet "$launcher" "$work/fleet-servers" 200
  echo "load average: $(load)"
}

start() {
  echo "== server start to its registered row (registry already migrated), $runs runs"
  harness start "$launcher" "$work/start" "$runs"
  echo "load average: $(load)"
}

# The wall time of five plain JVMs started in the same instant: the floor under start5 on this host.
five_jvms() {
  local start
  start=$(now_ns)
  for _ in 1 2 3 4 5; do java -version >/dev/null 2>&1 & done
  wait
  echo $(( ($(now_ns) - start) / 1000000 ))
}

start5() {
  echo "== the five members started at once (as an MCP client starts them) until all five rows are registered, $runs runs"
  harness start5 "$launcher" "$work/start5" "$runs"
  : > "$work/five.times"
  local i
  for ((i = 0; i < runs; i++)); do five_jvms >> "$work/five.times"; done
  echo "baseline, five java -version at once: median $(median < "$work/five.times") ms ($(xargs < "$work/five.times"))"
  echo "load average: $(load)"
}

observer() {
  echo "== process observation of 1,000+ processes vs ps -e -o pid=,lstart=,args="
  java -cp "$bench_jar" dev.fleet.bench.ObserverVsPs 1000 5 21
  echo "load average: $(load)"
}

watch() {
  echo "== a 1 s fleet watch beside five idle members, and a server whose client subscribed to fleet://verdict"
  echo "   (CPU from /proc/PID/stat utime+stime over ${WATCH_SECONDS:-300} s, after a ${WATCH_WARMUP:-1000} s warm-up)"
  java -cp "$bench_jar" dev.fleet.bench.WatchCpu "$launcher" "$work/watch" "${WATCH_SECONDS:-300}" "${WATCH_WARMUP:-1000}"
  echo "load average: $(load)"
}

# What `fleet serve -- COMMAND` adds to an MCP server on the Java SDK (dev.fleet.bench.RelayChild), against
# the floor under any relay: the same server called directly, behind a raw byte relay (dev.fleet.bench.RawRelay,
# a JVM copying bytes both ways) and behind a wrapping member, raw JSON-RPC on all three, which take turns; a
# plain member beside them for the idle memory. Issue 52's budgets come with `within` or `OVER`. Every call
# figure is a comparison taken in the same minutes, so repeat the step when the load is high and compare runs.
relay_once() {
  echo "== fleet serve -- COMMAND: a Java SDK server directly vs behind a raw byte relay vs behind a wrapping member; idle PSS beside a plain member"
  echo "   (${RELAY_CALLS:-2000} sequential calls a side, $runs rounds of ${RELAY_PIPELINED:-2000} pipelined calls and $runs of one ${RELAY_LARGE_MIB:-5} MiB call a side; load average before: $(load))"
  java -cp "$bench_jar" dev.fleet.bench.RelayLatency "$launcher" "$work/relay" "${RELAY_CALLS:-2000}" \
    "${RELAY_PIPELINED:-2000}" "$runs" "${RELAY_LARGE_MIB:-5}"
  echo "load average: $(load)"
}

# The relay step, RELAY_REPEATS times (1). Single runs of it swing across the budgets with the host from one
# minute to the next (docs/PERFORMANCE.md, the relay), so issue 52's budgets are read as the median of three runs
# or more, back to back on a quiet host: with RELAY_REPEATS > 1 each budget figure's median comes last.
relay() {
  local repeats="${RELAY_REPEATS:-1}" i
  : > "$work/relay.out"
  for ((i = 1; i <= repeats; i++)); do
    ((repeats == 1)) || echo "-- run $i of $repeats"
    relay_once | tee -a "$work/relay.out"
  done
  ((repeats == 1)) || relay_medians "$repeats" "$work/relay.out"
}

# Each budget line's median over the runs in $2 (the lines of their "issue 52's budgets" blocks), judged
# against its budget as one run judges its own figure; and the wrapping member's idle PSS over a plain one's.
relay_medians() {
  local repeats="$1" out="$2" key lines values unit budget figure verdict
  awk '/^issue 52.s budgets:/ {inside = 1; next} inside && /^  / {print substr($0, 3); next} {inside = 0}' "$out" > "$work/budgets"
  echo "issue 52's budgets, the median of $repeats runs (each run's figure after it):"
  while IFS= read -r key; do
    lines=$(grep -F "$key: " "$work/budgets")
    values=$(sed -nE 's/^[^:]*: ([0-9.]+)(x| ms) .*/\1/p' <<< "$lines")
    [[ -n "$values" ]] || continue
    unit=$(sed -nE '1s/^[^:]*: [0-9.]+(x| ms) .*/\1/p' <<< "$lines")
    budget=$(sed -nE '1s/.*budget <= ([0-9.]+).*/\1/p' <<< "$lines")
    figure=$(median "$([[ $unit == x ]] && echo %.2f || echo %.3f)" <<< "$values")
    verdict=$(awk -v f="$figure" -v b="$budget" 'BEGIN {print (f + 0 <= b + 0 ? "within" : "OVER")}')
    echo "  $key: $figure$unit ($(paste -sd, - <<< "$values" | sed 's/,/, /g')); budget <= $budget$unit: $verdict"
  done < <(sed -E 's/^([^:]*): .*/\1/' "$work/budgets" | awk '!seen[$0]++')
  values=$(sed -nE 's/^  wrapping member - plain fleet serve: PSS ([-+0-9.]+) MB/\1/p' "$out")
  echo "  wrapping member - plain fleet serve, idle PSS: $(tr -d + <<< "$values" | median "%+.1f") MB ($(paste -sd, - <<< "$values" | sed 's/,/, /g'))"
}

# Whether process $1 runs: alive and not a zombie (read by bash itself, no process started per look).
process_runs() {
  local stat
  { read -r stat < "/proc/$1/stat"; } 2>/dev/null || return 1
  stat=${stat##*) }
  [[ ${stat:0:1} != Z ]]
}

# One wrapping member whose child is shutdown_child.py in mode $1, ended by $2 (eof: its stdin closed;
# sigterm: kill -TERM) once registered: "TREE_MS MEMBER_MS", from the trigger to the last process of the
# child's tree gone (child, grandchild, daemon, as the child wrote them) and to the member's exit, looked
# at every few milliseconds for at most 12 s (past that the figure is 12000, and what is left is killed).
teardown_once() {
  local mode="$1" trigger="$2" dir="$work/teardown/run" member fd start tree_ms="" member_ms="" pids=() pid i
  rm -rf "$dir" && mkdir -p "$dir/pids" && mkfifo "$dir/stdin"
  "$launcher" serve --profile prgs-author --registry "$work/teardown/control_plane.sqlite3" \
    --roster "$work/teardown/roster.json" -- python3 "$teardown_child" "$mode" "$dir/pids" \
    < "$dir/stdin" > /dev/null 2> "$dir/stderr" &
  member=$!
  exec {fd}> "$dir/stdin"
  for ((i = 0; i < 6000; i++)); do
    grep -q 'registered as runtime' "$dir/stderr" 2>/dev/null && compgen -G "$dir/pids/tree-*" >/dev/null && break
    sleep 0.01
  done
  mapfile -t pids < <(awk '{print $2}' "$dir"/pids/tree-* 2>/dev/null)
  start=$(now_ns)
  if [[ $trigger == eof ]]; then exec {fd}>&-; else kill -TERM "$member"; fi
  while (( $(now_ns) - start < 12000000000 )); do
    if [[ -z $tree_ms ]]; then
      tree_ms=$(( ($(now_ns) - start) / 1000000 ))
      for pid in "${pids[@]}"; do
        if process_runs "$pid"; then tree_ms="" && break; fi
      done
    fi
    if [[ -z $member_ms ]] && ! process_runs "$member"; then member_ms=$(( ($(now_ns) - start) / 1000000 )); fi
    [[ -n $tree_ms && -n $member_ms ]] && break
    sleep 0.005
  done
  for pid in "$member" "${pids[@]}"; do
    if process_runs "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
  done
  [[ $trigger == eof ]] || exec {fd}>&-
  wait "$member" 2>/dev/null || true
  echo "${tree_ms:-12000} ${member_ms:-12000}"
}

# How long a wrapping member takes to end its child's whole tree, against the contract's bounds (SPEC
# 12.1: nothing of the tree left within 2 s of EOF, within 1 s of SIGTERM), for the three children of
# the shutdown tests (fleet-cli-adapter/src/test/python/shutdown_child.py, as RealClientsShutdownIT
# wraps them): one that exits on EOF, one that ignores EOF and SIGTERM, one that also leaves a grandchild
# in its own process group and a double-forked setsid daemon.
teardown() {
  local n="${TEARDOWN_RUNS:-5}" mode trigger budget i tree member
  # Read by teardown_once, which this calls.
  local teardown_child="$root/fleet-cli-adapter/src/test/python/shutdown_child.py"
  echo "== teardown: a wrapping member's child tree, from its stdin's end (EOF) or SIGTERM to the last process gone, $n runs each"
  echo "   (12000 ms: something was still running after 12 s, and was killed)"
  scratch_registry "$work/teardown"
  for mode in exits-on-eof ignores-eof-and-term leaves-daemons; do
    for trigger in eof sigterm; do
      [[ $trigger == eof ]] && budget=2000 || budget=1000
      : > "$work/teardown.times"
      for ((i = 0; i < n; i++)); do teardown_once "$mode" "$trigger" >> "$work/teardown.times"; done
      tree=$(column 1 < "$work/teardown.times" | median); member=$(column 2 < "$work/teardown.times" | median)
      printf '%-22s %-8s tree gone: median %5s ms (%s); member exited: median %5s ms; budget %s ms: %s\n' \
        "$mode" "$trigger" "$tree" "$(column 1 < "$work/teardown.times" | xargs)" "$member" "$budget" \
        "$(awk -v t="$tree" -v b="$budget" 'BEGIN {print (t <= b ? "within" : "OVER")}')"
    done
  done
  echo "load average: $(load)"
}

# `fleet host` (SPEC 14) on a crowded host: HOST_PROCESSES (2,000) more processes, `sleep`s with distinct
# argvs, and a HOME of 50 configured stdio servers (25 in ~/.claude.json, 25 in ~/.codex/config.toml),
# each naming one of the sleeps, so that the report holds 50 servers whose client is this shell. A cold
# `fleet host --format json` against a cold `fleet assess --format json` (empty registry, a roster
# matching only its own servers) on the same host, interleaved; the budget (issue 53): at most 2x.
host() {
  local n="${HOST_PROCESSES:-2000}" home="$work/host/home" i servers
  echo "== fleet host --format json, cold, on a host with $n more processes and 50 configured servers vs a cold fleet assess --format json on the same host, $runs runs each, interleaved"
  scratch_registry "$work/host"
  mkdir -p "$home/.config" "$home/.codex" "$work/host/project"
  {
    printf '{"mcpServers": {'
    for ((i = 0; i < 25; i++)); do
      printf '%s"server-%02d": {"command": "sleep", "args": ["%d"], "env": {"API_TOKEN": "not-shown"}}' \
        "$([[ $i -gt 0 ]] && echo ', ')" "$i" $((100000 + i))
    done
    printf '}}\n'
  } > "$home/.claude.json"
  for ((i = 25; i < 50; i++)); do
    printf '[mcp_servers.server-%02d]\ncommand = "sleep"\nargs = ["%d"]\n\n' "$i" $((100000 + i))
  done > "$home/.codex/config.toml"
  for ((i = 0; i < n; i++)); do
    sleep $((100000 + i)) < /dev/null > /dev/null 2>&1 &
    host_sleepers+=($!)
  done
  echo "processes on the host now: $(find /proc -maxdepth 1 -name '[0-9]*' | wc -l)"
  local fleet_host=(env HOME="$home" XDG_CONFIG_HOME="$home/.config" "$launcher" host --format json --project "$work/host/project")
  servers=$("${fleet_host[@]}" 2>"$work/host.err" | jq '.servers | length' || true)
  echo "fleet host reports $servers servers ($(wc -l < "$work/host.err") warning lines)"
  : > "$work/host-assess.times" && : > "$work/host-host.times"
  for ((i = 0; i < runs; i++)); do
    time_run "$launcher" assess --format json --registry "$work/host/control_plane.sqlite3" \
      --roster "$work/host/roster.json" >> "$work/host-assess.times"
    time_run "${fleet_host[@]}" >> "$work/host-host.times"
  done
  kill "${host_sleepers[@]}" 2>/dev/null || true
  host_sleepers=()
  local assess_wall assess_cpu host_wall host_cpu ratio
  assess_wall=$(column 1 < "$work/host-assess.times" | median); assess_cpu=$(column 2 < "$work/host-assess.times" | median)
  host_wall=$(column 1 < "$work/host-host.times" | median); host_cpu=$(column 2 < "$work/host-host.times" | median)
  echo "fleet assess: median ${assess_wall} ms wall, ${assess_cpu} ms CPU ($(column 1 < "$work/host-assess.times" | xargs))"
  echo "fleet host:   median ${host_wall} ms wall, ${host_cpu} ms CPU, peak RSS $(( $(column 3 < "$work/host-host.times" | median | cut -d. -f1) / 1024 )) MB ($(column 1 < "$work/host-host.times" | xargs))"
  ratio=$(awk -v h="$host_wall" -v a="$assess_wall" 'BEGIN {printf "%.2f", h / a}')
  awk -v h="$host_cpu" -v a="$assess_cpu" -v r="$ratio" \
    'BEGIN {printf "ratio: %s (wall), %.2f (CPU); budget 2x: %s\n", r, h / a, (r <= 2 ? "within" : "OVER")}'
  echo "median of the $runs paired ratios: $(paired_ratio 1 "$work/host-assess.times" "$work/host-host.times") (wall), $(paired_ratio 2 "$work/host-assess.times" "$work/host-host.times") (CPU)"
  echo "load average: $(load)"
}

# Any user may start processes with argvs near the kernel's 2 MB bound: a cold look must not take
# seconds for them. The same cold assess and host as above, before and after such processes start.
argv() {
  local n="${HUGE_PROCESSES:-30}" i phase
  echo "== cold fleet assess (embedded roster) and fleet host --format json, $runs runs each, before and with $n more processes of a 1.8 MB argv"
  mkdir -p "$work/argv"
  "$launcher" registry migrate --registry "$work/argv/control_plane.sqlite3" >/dev/null
  mkdir -p "$work/argv/home/.codex" "$work/argv/project"
  for ((i = 0; i < 50; i++)); do
    printf '[mcp_servers.server-%02d]\ncommand = "sleep"\nargs = ["%d"]\n\n' "$i" $((100000 + i))
  done > "$work/argv/home/.codex/config.toml"
  local piece
  piece=$(head -c 120000 /dev/zero | tr '\0' x)
  for phase in before with; do
    if [[ "$phase" == with ]]; then
      for ((i = 0; i < n; i++)); do
        # bash stays (two commands), its argv as given: 15 arguments of 120 KB
        bash -c 'sleep 600; :' "huge-argv-$i" $(for _ in {1..15}; do printf '%s ' "$piece"; done) < /dev/null > /dev/null 2>&1 &
        host_sleepers+=($!)
      done
      sleep 1
    fi
    : > "$work/argv-assess.times" && : > "$work/argv-host.times"
    for ((i = 0; i < runs; i++)); do
      # the embedded roster: its patterns begin with a group, so RE2J's own literal-prefix search never helps
      time_run "$launcher" assess --format json --registry "$work/argv/control_plane.sqlite3" >> "$work/argv-assess.times"
      time_run env HOME="$work/argv/home" "$launcher" host --format json --project "$work/argv/project" >> "$work/argv-host.times"
    done
    echo "$phase: fleet assess median $(column 1 < "$work/argv-assess.times" | median) ms wall, $(column 2 < "$work/argv-assess.times" | median) ms CPU;" \
      "fleet host median $(column 1 < "$work/argv-host.times" | median) ms wall, $(column 2 < "$work/argv-host.times" | median) ms CPU"
  done
  kill "${host_sleepers[@]}" 2>/dev/null || true
  host_sleepers=()
  echo "load average: $(load)"
}

steps=("$@")
[[ ${#steps[@]} -eq 0 || "${steps[0]}" == all ]] && steps=(machine cold floor metrics assess fleet start start5 observer watch relay teardown host argv)
for step in "${steps[@]}"; do
  case "$step" in
    machine | cold | floor | metrics | assess | fleet | start | start5 | observer | watch | relay | teardown | host | argv) "$step" ;;
    *) echo "unknown step: $step" >&2; exit 2 ;;
  esac
done
