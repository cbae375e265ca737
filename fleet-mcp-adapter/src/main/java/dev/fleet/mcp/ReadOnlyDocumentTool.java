package dev.fleet.mcp;

import dev.fleet.domain.Failures;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shape of both fleet tools: read-only, no arguments (any argument is refused, since the tool
 * gathers its own evidence), and one JSON document as the answer. The call never throws: a failure
 * becomes an error result, never a protocol error.
 *
 * <p>"Any argument" includes {@code arguments} that is not an object at all: the server's JSON
 * mapper hands such a value to the tool wrapped in an object (see {@link McpJson}), so it is
 * refused here like any other argument rather than failing as an unreadable request.
 */
final class ReadOnlyDocumentTool {

    private static final Logger LOG = LoggerFactory.getLogger(ReadOnlyDocumentTool.class);

    private final McpSchema.Tool tool;
    private final String refusal;
    private final String failure;
    private final Supplier<CallToolResult> answer;
    private final Runnable beforeAnswer;

    /**
     * @param refusal the error text for a call with arguments
     * @param failure what the error text says before the cause when {@code answer} fails
     * @param answer computes the document afresh on every call, as {@link ToolResults#document}
     * @param beforeAnswer runs before each answer is computed (the server waits there for its own
     *     registration attempt, so it never reports itself as a stray); bounded, never throws
     */
    ReadOnlyDocumentTool(McpSchema.Tool tool, String refusal, String failure, Supplier<CallToolResult> answer,
            Runnable beforeAnswer) {
        this.tool = Objects.requireNonNull(tool, "tool");
        this.refusal = Objects.requireNonNull(refusal, "refusal");
        this.failure = Objects.requireNonNull(failure, "failure");
        this.answer = Objects.requireNonNull(answer, "answer");
        this.beforeAnswer = Objects.requireNonNull(beforeAnswer, "beforeAnswer");
    }

    /** A tool definition with the empty, closed input schema and the read-only annotations of the contract. */
    static McpSchema.Tool define(String name, String title, String description, Map<String, Object> outputSchema) {
        return McpSchema.Tool.builder(name, JsonSchemas.noArguments())
                .title(title)
                .description(description)
                .outputSchema(outputSchema)
                .annotations(ToolResults.readOnly())
                .build();
    }

    SyncToolSpecification specification() {
        return SyncToolSpecification.builder()
                .tool(tool)
                .callHandler((exchange, request) -> call(request))
                .build();
    }

    CallToolResult call(CallToolRequest request) {
        if (ToolResults.hasArguments(request)) {
            return ToolResults.error(refusal);
        }
        try {
            beforeAnswer.run();
            return answer.get();
        } catch (VirtualMachineError fatal) {
            throw fatal;
        } catch (Throwable cause) {
            LOG.error("{} failed", tool.name(), cause);
            return ToolResults.error(failure + ": " + Failures.withKind(cause));
        }
    }
}
