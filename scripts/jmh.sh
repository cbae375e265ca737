#!/usr/bin/env bash
# The JMH benchmarks of fleet-benchmarks (docs/PERFORMANCE.md): builds the benchmark jar (a reactor
# build, nothing installed) and runs JMH with the given arguments, by default the verdict benchmark
# at 10,000 and 100,000 with the allocation profiler.
#
#   scripts/jmh.sh                                   # VerdictBenchmark -prof gc
#   scripts/jmh.sh VerdictBenchmark -p size=10000    # any JMH arguments
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
(cd "$root" && ./mvnw -B -q -DskipTests -pl fleet-benchmarks -am package >&2)
[[ $# -gt 0 ]] || set -- VerdictBenchmark -prof gc
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
java -jar "$root/fleet-benchmarks/target/benchmarks.jar" "$@"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
