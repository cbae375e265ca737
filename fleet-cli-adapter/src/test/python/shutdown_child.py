#!/usr/bin/env python3
"""A minimal MCP server over stdio (standard library only), for the tests of how a wrapping member
ends its tree when a real MCP client ends the member (RealClientsShutdownIT, ShutdownChild) and for
scripts/perf.sh teardown. It knows nothing of fleet.

    shutdown_child.py MODE PIDS_DIR

MODE says how hard it is to end:
  exits-on-eof         exits once its stdin ends, as a well-behaved server does;
  ignores-eof-and-term ignores its stdin's end and SIGTERM: only SIGKILL ends it;
  leaves-daemons       as ignores-eof-and-term, and first starts a grandchild in a process group of
                       its own and a daemon (fork, setsid, fork: reparented away from this process at
                       once), both ignoring SIGTERM too (an ignored signal stays ignored across exec).

Before it reads its first line it writes PIDS_DIR/tree-<its pid> (atomically: a temporary file renamed),
one "ROLE PID" line per process of its tree (child, grandchild, daemon), so that a test can check each
of them in /proc once the client is done. It answers initialize, ping, tools/list (one tool, hello)
and tools/call of hello; any other request gets -32601 (so a 2026-07-28 client's server/discover falls
back to initialize); notifications are ignored.
"""
import json
import os
import signal
import subprocess
import sys
import time

MODES = ("exits-on-eof", "ignores-eof-and-term", "leaves-daemons")
PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")


def start_daemon():
    """fork, setsid, fork: the daemon's pid, read from a pipe once it runs."""
    read_end, write_end = os.pipe()
    intermediate = os.fork()
    if intermediate == 0:
        os.close(read_end)
        os.setsid()
        if os.fork() != 0:
            os._exit(0)
        # The daemon: a session of its own, stdio on /dev/null as a daemon has it, parent gone.
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.write(write_end, str(os.getpid()).encode())
        os.close(write_end)
        os.execvp("sleep", ["sleep", "3600"])
    os.close(write_end)
    os.waitpid(intermediate, 0)
    pid = b""
    while True:
        chunk = os.read(read_end, 64)
        if not chunk:
            break
        pid += chunk
    os.close(read_end)
    return int(pid)


def write_tree(pids_dir, tree):
    path = os.path.join(pids_dir, "tree-%d" % os.getpid())
    with open(path + ".tmp", "w") as out:
        for role, pid in tree:
            out.write("%s %d\n" % (role, pid))
    os.rename(path + ".tmp", path)


def answer(message):
    method = message.get("method")
    params = message.get("params") or {}
    if method == "initialize":
        requested = params.get("protocolVersion")
        return {"result": {
            "protocolVersion": requested if requested in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[-2],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "shutdown-child", "version": "1.0.0"}}}
    if method == "ping":
        return {"result": {}}
    if method == "tools/list":
        return {"result": {"tools": [{"name": "hello", "description": "says hello",
                                      "inputSchema": {"type": "object"}}]}}
    if method == "tools/call" and params.get("name") == "hello":
        return {"result": {"content": [{"type": "text", "text": "hello"}]}}
    return {"error": {"code": -32601, "message": "Method not found: %s" % method}}


def serve():
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or "method" not in message or "id" not in message:
            continue
        reply = {"jsonrpc": "2.0", "id": message["id"]}
        reply.update(answer(message))
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in MODES:
        sys.stderr.write("usage: shutdown_child.py %s PIDS_DIR\n" % "|".join(MODES))
        return 2
    mode, pids_dir = sys.argv[1], sys.argv[2]
    tree = [("child", os.getpid())]
    if mode != "exits-on-eof":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if mode == "leaves-daemons":
        # A process group of its own: a signal to the child's group misses it.
        grandchild = subprocess.Popen(["sleep", "3600"], preexec_fn=os.setpgrp, stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL)
        tree.append(("grandchild", grandchild.pid))
        tree.append(("daemon", start_daemon()))
    write_tree(pids_dir, tree)
    serve()
    if mode == "exits-on-eof":
        return 0
    while True:
        time.sleep(60)


if __name__ == "__main__":
    sys.exit(main())
