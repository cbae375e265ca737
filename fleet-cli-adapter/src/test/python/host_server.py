#!/usr/bin/env python3
"""A tiny MCP server over stdio (standard library only), for fleet host's scenarios (HostScenariosIT).

    host_server.py NAME [--ignore-eof] [--ignore-term]

It answers initialize (and ping) with one JSON line each, ignores notifications and answers any other
request with -32601. Once its stdin ends it exits, as a well-behaved server does; with --ignore-eof it
stays until signalled, as the servers of the clients' bug reports do; with --ignore-term SIGTERM does not
end it either (only SIGKILL does). NAME only tells copies apart in
argv; it is never read.
"""
import json
import signal
import sys
import time


def answer(request):
    if request.get("method") == "initialize":
        version = request.get("params", {}).get("protocolVersion", "2025-06-18")
        return {"protocolVersion": version, "capabilities": {}, "serverInfo": {"name": sys.argv[1], "version": "1"}}
    if request.get("method") == "ping":
        return {}
    return None


def main():
    if "--ignore-term" in sys.argv[2:]:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for line in sys.stdin:
        try:
            request = json.loads(line)
        except ValueError:
            continue
        if "id" not in request:
            continue
        result = answer(request)
        reply = {"jsonrpc": "2.0", "id": request["id"]}
        if result is None:
            reply["error"] = {"code": -32601, "message": "method not found"}
        else:
            reply["result"] = result
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    if "--ignore-eof" in sys.argv[2:]:
        while True:
            time.sleep(3600)


if __name__ == "__main__":
    main()
