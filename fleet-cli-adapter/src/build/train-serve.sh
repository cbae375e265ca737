#!/usr/bin/env bash
# Training run for fleet's class-data archive (target/fleet-VERSION.jsa), run by the package step: a
# server on a fresh registry (so the migration is recorded too) answers one initialize and both tools
# through its stdin, as an MCP client drives it, then sees EOF and exits, listing the classes it
# loaded; those are then dumped into a static archive, the JDK's own classes included (see the pom).
# Everything the server prints goes to the log.
#
#   train-serve.sh JAR ARCHIVE WORKDIR JAVA    (JAVA: the java that writes the archive and will read it)
set -euo pipefail
jar="$1" archive="$2" work="$3" java="${4:-java}"
rm -rf "$work"
mkdir -p "$work"
rm -f "$archive"
classes="$work/serve.classlist"

coproc SERVER {
  exec "$java" -Xshare:off -XX:DumpLoadedClassList="$classes" -XX:+UseSerialGC \
    -Xlog:disable -Xlog:all=error:stderr -jar "$jar" serve --profile prgs-author \
    --registry "$work/training.sqlite3" --repository-root "$work" 2>"$work/serve.log"
}
printf '%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"cds-training","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"gitea_assess_fleet_inventory","arguments":{}}}' \
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"gitea_get_runtime_context","arguments":{}}}' \
  >&"${SERVER[1]}"
# Keep stdin open until the last answer is in: a server that sees EOF first may exit unanswered.
answered=0
while IFS= read -r -t 120 line <&"${SERVER[0]}"; do
  [[ "$line" == *'"id":3'* ]] && { answered=1; break; }
done
pid="$SERVER_PID"
exec {SERVER[1]}>&-
wait "$pid" || true
if [[ "$answered" == 1 && -s "$classes" ]]; then
  "$java" -Xshare:dump -XX:SharedClassListFile="$classes" -XX:SharedArchiveFile="$archive" \
    -Xlog:disable -Xlog:all=error:stderr -cp "$jar" >"$work/dump.log" 2>&1 || true
fi
if [[ "$answered" != 1 || ! -f "$archive" ]]; then
  echo "train-serve: no archive (answered=$answered); see $work/serve.log" >&2
  # Not fatal: ./fleet runs without an archive that is missing.
fi
exit 0
