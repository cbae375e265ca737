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
     * What a client is told about one tool: its listing (name, title, description, output schema)
     * and the texts of its two error results. Each tool is one of these and an answer, so how a
     * tool is defined and built is said here once.
     *
     * @param outputSchema builds the schema each time it is asked (the callers may change their copy)
     * @param refusal the error text for a call with arguments
     * @param failure what the error text says before the cause when the answer fails
     */
    record Definition(String name, String title, String description, Supplier<Map<String, Object>> outputSchema,
            String refusal, String failure) {

        Definition {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(outputSchema, "outputSchema");
            Objects.requireNonNull(refusal, "refusal");
            Objects.requireNonNull(failure, "failure");
        }

        /** The tool as listed: the empty, closed input schema and the read-only annotations of the contract. */
        McpSchema.Tool tool() {
            return McpSchema.Tool.builder(name, JsonSchemas.noArguments())
                    .title(title)
                    .description(description)
                    .outputSchema(outputSchema.get())
                    .annotations(ToolResults.readOnly())
                    .build();
        }
    }

    /**
     * @param answer computes the document afresh on every call, as {@link ToolResults#document}
     * @param beforeAnswer runs before each answer is computed (the server waits there for its own
     *     registration attempt, so it never reports itself as a stray); bounded, never throws
     */
    ReadOnlyDocumentTool(Definition definition, Supplier<CallToolResult> answer, Runnable beforeAnswer) {
        this.tool = definition.tool();
        this.refusal = definition.refusal();
        this.failure = definition.failure();
        this.answer = Objects.requireNonNull(answer, "answer");
        this.beforeAnswer = Objects.requireNonNull(beforeAnswer, "beforeAnswer");
    }

    /** The tool as listed. */
    McpSchema.Tool tool() {
        return tool;
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
