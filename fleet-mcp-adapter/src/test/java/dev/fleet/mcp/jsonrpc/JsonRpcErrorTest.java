package dev.fleet.mcp.jsonrpc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The one error envelope names its request as the request wrote the id, and the one id type says what the SDK takes. */
class JsonRpcErrorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theEnvelopeHoldsTheIdAsWrittenOrNull() throws IOException {
        JsonRpcError error = new JsonRpcError(JsonRpcError.INVALID_REQUEST, "Invalid Request: \"x\"");
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1.50,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: \\\"x\\\"\"}}",
                new String(error.bytes(read("1.50")), UTF_8));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":\"a\\u0062\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request: \\\"x\\\"\"}}",
                new String(error.bytes(read("\"a\\u0062\"")), UTF_8));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: \\\"x\\\"\"}}",
                new String(error.bytes(read("{\"a\":1}")), UTF_8));
    }

    @Test
    void anIdFromATreeAndFromTheStreamAreOneId() throws IOException {
        assertEquals(read("\"ab\"").key(), JsonRpcId.of(JSON.readTree("\"a\\u0062\"")).key());
        assertEquals(read("10e-1").key(), JsonRpcId.of(JSON.readTree("1")).key());
        assertEquals(JsonRpcId.NONE, JsonRpcId.of(JSON.readTree("true")));
        assertEquals(JsonRpcId.NONE, JsonRpcId.of(null));
    }

    @Test
    void theSdkTakesStringsAndIntegersThatFitALong() throws IOException {
        for (String fits : new String[] {"\"x\"", "\"\"", "0", "-0", "42", "9223372036854775807", "-9223372036854775808"}) {
            assertTrue(read(fits).fitsTheSdk(), fits);
        }
        for (String refused : new String[] {"1.5", "1.0", "1e2", "9223372036854775808", "null", "true", "[1]"}) {
            assertFalse(read(refused).fitsTheSdk(), refused);
        }
    }

    private static JsonRpcId read(String idJson) throws IOException {
        byte[] bytes = idJson.getBytes(UTF_8);
        try (JsonParser parser = JSON.getFactory().createParser(bytes)) {
            parser.nextToken();
            return JsonRpcId.read(parser, bytes);
        }
    }
}
