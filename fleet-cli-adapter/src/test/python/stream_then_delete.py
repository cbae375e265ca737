"""Opens and ends 2025-era sessions over streamable HTTP as a plain HTTP client may, N times:
initialize, notifications/initialized, a GET stream read to its headers, DELETE of the session
while the stream is still held, then the stream dropped (a round later). Usage: stream_then_delete.py PORT N"""
import http.client
import json
import sys

HOST = "127.0.0.1"
PORT = int(sys.argv[1])
VERSION = "2025-11-25"


def post(body, headers=None):
    connection = http.client.HTTPConnection(HOST, PORT, timeout=30)
    sent = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    sent.update(headers or {})
    connection.request("POST", "/mcp", json.dumps(body), sent)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


opened = None
for _ in range(int(sys.argv[2])):
    session = post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "stream-then-delete", "version": "1"}}}
    ).getheader("Mcp-Session-Id")
    post({"jsonrpc": "2.0", "method": "notifications/initialized"},
         {"Mcp-Session-Id": session, "MCP-Protocol-Version": VERSION})
    stream = http.client.HTTPConnection(HOST, PORT, timeout=30)
    # As many clients send them: the session's id alone, no protocol version (the server takes its default).
    stream.request("GET", "/mcp", headers={"Mcp-Session-Id": session, "Accept": "text/event-stream"})
    # The response keeps the socket open after the connection's close, until the next round drops it: the
    # stream is still held when the DELETE below arrives, and hung up a round later.
    opened = stream.getresponse()
    assert opened.status == 200, opened.status
    stream.close()
    ended = http.client.HTTPConnection(HOST, PORT, timeout=30)
    ended.request("DELETE", "/mcp", headers={"Mcp-Session-Id": session})
    ended.getresponse().read()
    ended.close()
