#!/usr/bin/env bash
# Where one `fleet serve` spends its start, up to the moment its row is written: the classes it
# loaded by library (from the class-data archive or from the jar), when each library was first and
# last needed, and the CPU time of each of its threads, read from /proc when the row appears. The
# table behind docs/PERFORMANCE.md's start profile. Nothing here times a test; run it on a quiet host.
#
#   scripts/start-profile.sh [RUNS]    (default 3; FLEET_LAUNCHER picks another ./fleet, and
#                                       FLEET_JAVA_OPTS adds JVM options to try)
set -euo pipefail

root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
launcher="${FLEET_LAUNCHER:-$root/fleet}"
runs="${1:-3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/fleet-start-profile.XXXXXX")"
trap 'rm -rf "$work"' EXIT
tick="$(getconf CLK_TCK)"

"$launcher" registry migrate --registry "$work/control_plane.sqlite3" >/dev/null

# One start: the class-load log as it stood when the row appeared, and each thread's CPU then.
profile_once() {
  local n="$1" classes="$work/classes.$1" log="$work/serve.$1.log" fifo="$work/stdin.$1" pid i
  mkfifo "$fifo"
  FLEET_JAVA_OPTS="${FLEET_JAVA_OPTS:-} -Xlog:class+load:file=$classes:uptime" "$launcher" serve --profile prgs-author \
    --registry "$work/control_plane.sqlite3" --repository-root "$work" <"$fifo" >/dev/null 2>"$log" &
  pid=$!
  exec 8>"$fifo"
  for ((i = 0; i < 6000; i++)); do
    grep -q "registered as runtime" "$log" 2>/dev/null && break
    sleep 0.01
  done
  cp "$classes" "$classes.at-row"
  awk -v hz="$tick" '{print ($14 + $15) * 1000 / hz}' "/proc/$pid/stat" > "$work/cpu.$n"
  local task
  for task in /proc/"$pid"/task/*; do
    awk -v hz="$tick" -v name="$(tr ' ' '_' < "$task/comm")" '{print name, ($14 + $15) * 1000 / hz}' "$task/stat"
  done > "$work/threads.$n"
  exec 8>&-
  wait "$pid" || true
}

for ((run = 0; run < runs; run++)); do profile_once "$run"; done

# The run whose process CPU is the median stands for all of them.
median_run="$(for ((run = 0; run < runs; run++)); do echo "$(cat "$work/cpu.$run") $run"; done | sort -n \
  | awk '{r[NR] = $2} END {print r[int((NR + 1) / 2)]}')"

echo "== one fleet serve, start to registered row, $runs runs (load average $(cut -d' ' -f1-3 /proc/loadavg))"
echo "process CPU at the row (ms): $(cat "$work"/cpu.* | sort -n | xargs); the median run's figures follow"
echo
echo "threads' CPU at the row (ms), compiler threads summed; exited threads (such as the registry's"
echo "preparing thread) count only in the process total:"
awk '{k = $1; sub(/[0-9]+$/, "", k); sub(/_*$/, "", k); cpu[k] += $2} END {for (k in cpu) printf "  %-22s %6.0f\n", k, cpu[k]}' \
  "$work/threads.$median_run" | sort -k2 -rn
echo
echo "classes loaded before the row, by library: how many, how many from the class-data archive, and"
echo "when the first and the last was loaded (JVM uptime, s):"
printf '  %6s %6s %8s %8s  %s\n' first last classes archive library
awk '{
    t = substr($1, 2) + 0; name = $2
    if (name ~ /^picocli\./) lib = "picocli"
    else if (name ~ /^com\.fasterxml\.jackson\./) lib = "Jackson"
    else if (name ~ /^org\.jooq\./) lib = "jOOQ"
    else if (name ~ /^liquibase\./) lib = "Liquibase"
    else if (name ~ /^org\.sqlite\./) lib = "sqlite-jdbc"
    else if (name ~ /^io\.modelcontextprotocol\./) lib = "MCP SDK"
    else if (name ~ /^(reactor\.|org\.reactivestreams\.)/) lib = "Reactor"
    else if (name ~ /^com\.networknt\./) lib = "schema validator"
    else if (name ~ /^org\.slf4j\./) lib = "SLF4J"
    else if (name ~ /^dev\.fleet\./) lib = "fleet"
    else if (name ~ /^(java|javax|jdk|sun|com\.sun)\./) lib = "JDK"
    else lib = "other"
    if (name ~ /\$\$Lambda|LambdaForm\$|\/0x|__dynamic_proxy__|\$Proxy/) lib = lib " (generated)"
    n[lib]++; if ($0 ~ /source: shared objects file/) s[lib]++
    if (!(lib in first)) first[lib] = t
    last[lib] = t
  } END { for (l in n) printf "  %6.3f %6.3f %8d %8d  %s\n", first[l], last[l], n[l], s[l], l }' \
  "$work/classes.$median_run.at-row" | sort -n
