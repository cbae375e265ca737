#!/usr/bin/env bash
# Training run for the AOT cache of `fleet assess` (target/fleet-assess.aot), run by the package step:
# on a JDK 25 or later, a cold `assess` maps its classes loaded, linked and with their first method
# profiles from an AOT cache (JEP 483, 514, 515), about a sixth faster than JDK 17 with its class-data
# archive (docs/PERFORMANCE.md, eighth round). The cache belongs to the very JDK build that wrote it, so
# that java's real path and its JAVA_RUNTIME_VERSION are written beside it (CACHE.java, two lines), and
# ./fleet runs `assess` on it when JAVA_HOME is unset and that JDK is still the one that wrote it.
#
# The JDK: FLEET_AOT_JAVA_HOME when set ("none": no cache), else the newest JDK 25 or later under
# /usr/lib/jvm, where Debian's and Temurin's packages install JDKs (early-access builds left out).
# Without one, or when the training fails or takes over five minutes, there is no cache, ./fleet runs
# `assess` on its own java as before, and the build goes on.
#
#   train-aot.sh JAR CACHE REGISTRY ROSTER    (REGISTRY: a migrated, empty training registry)
set -euo pipefail
jar="$1" cache="$2" registry="$3" roster="$4"
rm -f "$cache" "$cache.java"

# Prints field $2 of the JDK release file $1 (JAVA_VERSION="25.0.3").
release_field() {
  sed -n "s/^$2=\"\(.*\)\"\$/\1/p" "$1"
}

# Prints the real path of the java of the newest JDK 25 or later among the JDK homes given, if any.
newest_java_25() {
  local home version major best="" best_version=""
  for home in "$@"; do
    home="$(readlink -f "$home")" || continue
    [[ -x "$home/bin/java" && -f "$home/release" ]] || continue
    version="$(release_field "$home/release" JAVA_VERSION)"
    [[ "$version" != *-ea* ]] || continue
    major="${version%%[.+-]*}"
    [[ "$major" =~ ^[0-9]+$ ]] && ((major >= 25)) || continue
    if [[ -z "$best" || "$(printf '%s\n%s\n' "$best_version" "$version" | sort -V | tail -n 1)" == "$version" ]]; then
      best="$home/bin/java" best_version="$version"
    fi
  done
  [[ -n "$best" ]] && echo "$best"
  return 0
}

if [[ "${FLEET_AOT_JAVA_HOME:-}" == none ]]; then
  echo "FLEET_AOT_JAVA_HOME=none: no AOT cache"
  exit 0
elif [[ -n "${FLEET_AOT_JAVA_HOME:-}" ]]; then
  java="$(newest_java_25 "$FLEET_AOT_JAVA_HOME")"
else
  shopt -s nullglob
  java="$(newest_java_25 /usr/lib/jvm/*/)"
fi
if [[ -z "$java" ]]; then
  echo "no JDK 25 or later (FLEET_AOT_JAVA_HOME, /usr/lib/jvm): no AOT cache; ./fleet runs assess on its own java"
  exit 0
fi

# The options ./fleet runs `assess` with: a cache is refused by a JVM whose collector differs.
status=0
timeout 300 "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xlog:disable -Xlog:all=error:stderr \
  -XX:AOTCacheOutput="$cache" -jar "$jar" assess --format json --registry "$registry" --roster "$roster" \
  >/dev/null || status=$?
# An empty fleet is not satisfied: exit 1 is the expected verdict here.
if [[ "$status" -ne 1 || ! -s "$cache" ]]; then
  rm -f "$cache"
  echo "the AOT training run on $java exited $status: no AOT cache"
  exit 0
fi
runtime="$(release_field "${java%/bin/java}/release" JAVA_RUNTIME_VERSION)"
if [[ -z "$runtime" ]]; then
  rm -f "$cache"
  echo "$java's release file names no JAVA_RUNTIME_VERSION, by which ./fleet would know it again: no AOT cache"
  exit 0
fi
printf '%s\n%s\n' "$java" "$runtime" > "$cache.java"
echo "AOT cache $cache written by $java ($runtime)"
