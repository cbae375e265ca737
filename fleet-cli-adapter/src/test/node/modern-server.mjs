// An operator's own MCP server on the TypeScript SDK 2.x (@modelcontextprotocol/server), for fleet's
// relay tests of both eras: serveStdio serves MCP 2026-07-28 (and 2025 to a client that opens with
// initialize). It knows nothing of fleet: two tools of its own and no resources, so it answers
// resources/list with -32601 and the relay lists fleet://verdict itself (RelayBothErasIT). hello_modern
// says hello; confirm_modern first answers input_required (an elicitation asking for {confirm: true}),
// and answers "confirmed by the client" to the client's retry that carries it.
//
//   node modern-server.mjs [--subscribable]
//
// With --subscribable (RelayListenIT) it also has a resource of its own, note://modern-child, declares
// resources.subscribe (so a listen is honoured for every URI asked for, fleet://verdict among them) and
// a tool, touch_note, that announces a change of its note before it answers.
import { McpServer, acceptedContent, inputRequired } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

const subscribable = process.argv.includes("--subscribable");
const NOTE = "note://modern-child";

serveStdio(() => {
  const server = new McpServer({ name: "modern-child", version: "1.0.0" },
    subscribable ? { capabilities: { resources: { subscribe: true } } } : undefined);
  server.registerTool("hello_modern", { description: "the modern child's own tool: says hello" },
    async () => ({ content: [{ type: "text", text: "hello from the modern child" }] }));
  server.registerTool("confirm_modern", { description: "the modern child's own tool: asks its client first" },
    async (ctx) => {
      if (acceptedContent(ctx.mcpReq.inputResponses, "confirm")?.confirm !== true) {
        return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: "Confirm?",
          requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] } }) } });
      }
      return { content: [{ type: "text", text: "confirmed by the client" }] };
    });
  if (subscribable) {
    let touched = 0;
    server.registerResource("note", NOTE, { title: "The modern child's note", mimeType: "text/plain" },
      async (uri) => ({ contents: [{ uri: uri.href, text: `touched ${touched} times` }] }));
    server.registerTool("touch_note", { description: "changes the note and announces it" }, async () => {
      touched++;
      await server.server.sendResourceUpdated({ uri: NOTE });
      return { content: [{ type: "text", text: `touched ${touched} times` }] };
    });
  }
  return server;
});
