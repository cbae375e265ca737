#!/usr/bin/env python3
"""An MCP client as fleet host sees one, for its scenarios (HostScenariosIT, HostClient): installed under
the name of the client it plays (claude or codex), it reads that client's configuration in $HOME
(~/.claude.json's mcpServers, ~/.codex/config.toml's [mcp_servers.NAME]) and starts every stdio server
of it over pipes (stdin and stdout), as Codex does (Node clients, Claude Code among them, hand theirs a
socketpair instead: the TypeScript SDK's client plays those), then speaks initialize to each.

    claude|codex [--twice]

--twice starts every server twice at once (a client's configuration probe beside its session). After
each generation it prints one JSON line: {"generation": N, "servers": [{"name": ..., "pid": ...}]}.
Commands, one a line on stdin:
  reload   starts every server again, at least 1.5 s after the last start, never ending the old ones
           (a reconnect that abandons the old generation);
  exit     closes every server's stdin (EOF) and exits.
Its stdin's end is exit too. Nothing here ever signals a server.
"""
import json
import os
import select
import subprocess
import sys
import time

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "host-test", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
ANSWER_SECONDS = 120


def configured(kind):
    home = os.environ["HOME"]
    if kind == "claude":
        with open(os.path.join(home, ".claude.json")) as file:
            entries = json.load(file).get("mcpServers", {})
    elif kind == "codex":
        import tomllib  # Python 3.11+; imported here so that the claude client runs on 3.9
        with open(os.path.join(home, ".codex", "config.toml"), "rb") as file:
            entries = tomllib.load(file).get("mcp_servers", {})
    else:
        sys.exit(f"host_client.py: run me as claude or codex, not {kind}")
    return [(name, [entry["command"], *entry.get("args", [])]) for name, entry in entries.items()]


def start(name, argv):
    # Pipes on both ends, stderr shared, as a client does; close_fds: no server holds another's pipe.
    return name, subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, close_fds=True)


def initialize(server):
    name, process = server
    process.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
    process.stdin.flush()
    ready, _, _ = select.select([process.stdout], [], [], ANSWER_SECONDS)
    if not ready or not process.stdout.readline():
        print(f"host_client.py: {name} did not answer initialize", file=sys.stderr)
        return
    process.stdin.write((json.dumps(INITIALIZED) + "\n").encode())
    process.stdin.flush()


def generation(entries, number, copies):
    started = [start(name, argv) for name, argv in entries for _ in range(copies)]
    for server in started:
        initialize(server)
    print(json.dumps({"generation": number, "servers": [{"name": name, "pid": p.pid} for name, p in started]}),
          flush=True)
    return started


def main():
    kind = os.path.basename(sys.argv[0])
    entries = configured(kind)
    servers = generation(entries, 1, 2 if "--twice" in sys.argv[1:] else 1)
    last_start, generations = time.monotonic(), 1
    for line in sys.stdin:
        command = line.strip()
        if command == "reload":
            time.sleep(max(0.0, last_start + 1.5 - time.monotonic()))
            generations += 1
            servers += generation(entries, generations, 1)
            last_start = time.monotonic()
        elif command == "exit":
            break
    for _, process in servers:
        process.stdin.close()


if __name__ == "__main__":
    main()
