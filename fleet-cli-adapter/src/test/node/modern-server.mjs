// An operator's own MCP server on the TypeScript SDK 2.x (@modelcontextprotocol/server), for fleet's
// relay tests of both eras (RelayBothErasIT): serveStdio serves MCP 2026-07-28 (and 2025 to a client
// that opens with initialize). It knows nothing of fleet: one tool of its own, hello_modern, and no
// resources, so it answers resources/list with -32601 and the relay lists fleet://verdict itself.
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

serveStdio(() => {
  const server = new McpServer({ name: "modern-child", version: "1.0.0" });
  server.registerTool("hello_modern", { description: "the modern child's own tool: says hello" },
    async () => ({ content: [{ type: "text", text: "hello from the modern child" }] }));
  return server;
});
