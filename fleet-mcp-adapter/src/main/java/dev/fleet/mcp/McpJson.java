package dev.fleet.mcp;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * The SDK's JSON mapper and schema validator on Jackson 2, built directly rather than found through
 * {@code ServiceLoader}: a shaded jar that lost a service file would otherwise fail only at run time.
 *
 * <p>One deliberate difference from the SDK's defaults: a {@code tools/call} whose
 * {@code arguments} is not an object (an array, a string, a number, a boolean) is read with those
 * arguments wrapped as {@code {"non_object_arguments": <value>}}. The SDK would otherwise fail to
 * read the request and answer -32603 with a Jackson message; wrapped, the call reaches the tool,
 * which refuses every argument with its own reason (the contract: "accepts no evidence"). JSON
 * {@code null} stays null, as absent arguments. The server and both transports share this mapper,
 * so stdio and HTTP read calls alike.
 *
 * <p>And one on the way out: the SDK answers a call to an unknown tool with the message
 * {@code "Unknown tool: invalid_tool_name"} and the name only in {@code data}. A client shows a
 * model the message, so the error is written with the name in the message: {@code Unknown tool: NAME}.
 */
final class McpJson {

    /** The key a non-object {@code arguments} value is wrapped under. */
    static final String NON_OBJECT_ARGUMENTS = "non_object_arguments";

    private McpJson() {
    }

    /** The mapper of a client, or of a server that serves no subscribable resource. */
    static McpJsonMapper mapper() {
        return mapper(subscribe -> {
        });
    }

    /**
     * The server's mapper, which also shows it every {@code resources/subscribe}: SDK 2.2.0 tells a
     * server nothing when a client subscribes (its handler only records the session), but that
     * handler reads the request's parameters through this mapper first. {@code onSubscribe} runs
     * there, before the SDK records anything, and may refuse the subscription by throwing an
     * {@code McpError}, which the SDK sends back as the error.
     */
    static McpJsonMapper mapper(Consumer<McpSchema.SubscribeRequest> onSubscribe) {
        ObjectMapper objectMapper = new ObjectMapper();
        objectMapper.registerModule(new SimpleModule("fleet-unknown-tool")
                .addSerializer(McpSchema.JSONRPCResponse.JSONRPCError.class, new NamedUnknownTool()));
        objectMapper.registerModule(new SimpleModule("fleet-tool-arguments").setDeserializerModifier(
                new BeanDeserializerModifier() {
                    @Override
                    public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config,
                            BeanDescription description, JsonDeserializer<?> deserializer) {
                        Class<?> read = description.getBeanClass();
                        if (read == McpSchema.CallToolRequest.class) {
                            return new WrapNonObjectArguments(deserializer);
                        }
                        return read == McpSchema.SubscribeRequest.class
                                ? new SeenSubscription(deserializer, onSubscribe) : deserializer;
                    }
                }));
        return new JacksonMcpJsonMapper(objectMapper);
    }

    static JsonSchemaValidator validator() {
        return new LazySchemaValidator();
    }

    /** Reads a {@code CallToolRequest}, first wrapping non-object arguments (see the class comment). */
    private static final class WrapNonObjectArguments extends DelegatingDeserializer {

        private static final long serialVersionUID = 1L;

        WrapNonObjectArguments(JsonDeserializer<?> delegate) {
            super(delegate);
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
            return new WrapNonObjectArguments(delegate);
        }

        @Override
        public Object deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            JsonNode tree = context.readTree(parser);
            if (tree instanceof ObjectNode request) {
                JsonNode arguments = request.get("arguments");
                if (arguments != null && !arguments.isObject() && !arguments.isNull()) {
                    request.set("arguments", request.objectNode().set(NON_OBJECT_ARGUMENTS, arguments));
                }
            }
            try (JsonParser replay = tree.traverse(parser.getCodec())) {
                replay.nextToken();
                return _delegatee.deserialize(replay, context);
            }
        }
    }

    /** Reads a {@code SubscribeRequest} as the SDK does, then shows it to the server (see {@link #mapper(Consumer)}). */
    private static final class SeenSubscription extends DelegatingDeserializer {

        private static final long serialVersionUID = 1L;
        private final transient Consumer<McpSchema.SubscribeRequest> onSubscribe;

        SeenSubscription(JsonDeserializer<?> delegate, Consumer<McpSchema.SubscribeRequest> onSubscribe) {
            super(delegate);
            this.onSubscribe = onSubscribe;
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
            return new SeenSubscription(delegate, onSubscribe);
        }

        @Override
        public Object deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            Object request = _delegatee.deserialize(parser, context);
            onSubscribe.accept((McpSchema.SubscribeRequest) request);
            return request;
        }
    }

    /** Writes a JSON-RPC error as the SDK does, with an unknown tool's name in the message (see the class comment). */
    private static final class NamedUnknownTool extends StdSerializer<McpSchema.JSONRPCResponse.JSONRPCError> {

        private static final long serialVersionUID = 1L;
        /** What the SDK (2.2.0) says, and where it puts the name. */
        static final String SDK_MESSAGE = "Unknown tool: invalid_tool_name";
        static final String SDK_DATA_PREFIX = "Tool not found: ";

        NamedUnknownTool() {
            super(McpSchema.JSONRPCResponse.JSONRPCError.class);
        }

        @Override
        public void serialize(McpSchema.JSONRPCResponse.JSONRPCError error, JsonGenerator json,
                SerializerProvider provider) throws IOException {
            String message = error.message();
            if (SDK_MESSAGE.equals(message) && error.data() instanceof String data && data.startsWith(SDK_DATA_PREFIX)) {
                message = "Unknown tool: " + data.substring(SDK_DATA_PREFIX.length());
            }
            json.writeStartObject();
            if (error.code() != null) {
                json.writeNumberField("code", error.code());
            }
            if (message != null) {
                json.writeStringField("message", message);
            }
            if (error.data() != null) {
                json.writeFieldName("data");
                provider.defaultSerializeValue(error.data(), json);
            }
            json.writeEndObject();
        }
    }
}
