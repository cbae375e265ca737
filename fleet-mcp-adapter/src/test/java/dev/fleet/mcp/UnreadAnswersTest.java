package dev.fleet.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fleet.domain.lifecycle.Cohort;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that writes many calls and does not read stdout: the server stops reading stdin once
 * {@link dev.fleet.mcp.stdio.LineOutput#MAX_UNWRITTEN_ANSWERS} answers wait (the client's writes then block), rather
 * than queueing every answer in memory; once the client reads, every call is answered and the
 * server is healthy. Before the bound, the server read all its stdin and grew by hundreds of MB.
 */
class UnreadAnswersTest {

    /** Far more than the pipes and buffers between client and server hold (about 1,500 such lines). */
    private static final int CALLS = 5_000;
    /** Generous: an idle test server is under 150 MB; unbounded queueing went far past this. */
    private static final long RSS_CAP_KIB = 400 * 1024;
    private static final long STALL_MILLIS = 4_000;
    private static final long DEADLINE_MILLIS = 180_000;

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    @Test
    void aClientThatDoesNotReadStopsTheServerReadingStdinAndGetsEveryAnswerOnceItReads() throws Exception {
        List<String> command = new ArrayList<>(List.of(Subprocess.java()));
        command.addAll(Subprocess.serverArguments(temp.resolve("calls.txt")));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(temp.resolve("stderr.txt").toFile());
        builder.environment().remove(Cohort.ENV_VARIABLE);
        Process server = builder.start();
        try {
            AtomicInteger written = new AtomicInteger();
            AtomicReference<IOException> writeFailure = new AtomicReference<>();
            Thread writer = new Thread(() -> writeCalls(server.getOutputStream(), written, writeFailure),
                    "unread-answers-writer");
            writer.setDaemon(true);
            writer.start();

            int stalledAt = awaitStall(written::get);
            assertTrue(stalledAt < CALLS, "the server stopped reading stdin after " + stalledAt + " of " + CALLS
                    + " calls");
            long rssKib = rssKib(server.pid());
            assertTrue(rssKib < RSS_CAP_KIB, "server RSS " + rssKib + " KiB while its answers go unread");

            BufferedReader stdout = new BufferedReader(new InputStreamReader(server.getInputStream(),
                    StandardCharsets.UTF_8));
            int answers = 0;
            while (answers < CALLS + 1) { // the calls and initialize
                JsonNode answer = JSON.readTree(nextLine(stdout));
                assertTrue(answer.has("result"), answer::toString);
                answers++;
            }
            writer.join(DEADLINE_MILLIS);
            assertEquals(null, writeFailure.get());
            assertEquals(CALLS, written.get());

            OutputStream stdin = server.getOutputStream();
            stdin.write("{\"jsonrpc\":\"2.0\",\"id\":\"ping\",\"method\":\"ping\"}\n".getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            JsonNode pong = JSON.readTree(nextLine(stdout));
            assertEquals("ping", pong.path("id").asText(), pong::toString);
            assertTrue(pong.has("result"), pong::toString);
            assertTrue(Files.readAllLines(temp.resolve("calls.txt")).stream()
                    .noneMatch(line -> line.startsWith("markStopped")), "the server is still serving");

            stdin.close();
            assertTrue(server.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, server.exitValue());
        } finally {
            server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static void writeCalls(OutputStream stdin, AtomicInteger written, AtomicReference<IOException> failure) {
        try {
            stdin.write(("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
                    + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
                    .getBytes(StandardCharsets.UTF_8));
            for (int i = 1; i <= CALLS; i++) {
                stdin.write(("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"tools/call\",\"params\":{\"name\":"
                        + "\"gitea_get_runtime_context\",\"arguments\":{}}}\n").getBytes(StandardCharsets.UTF_8));
                stdin.flush();
                written.incrementAndGet();
            }
        } catch (IOException e) {
            failure.set(e);
        }
    }

    /** Waits until the count stops growing for {@link #STALL_MILLIS} or reaches {@link #CALLS}. */
    private static int awaitStall(IntSupplier count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DEADLINE_MILLIS);
        int last = -1;
        long unchangedSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            int now = count.getAsInt();
            if (now >= CALLS) {
                return now;
            }
            if (now != last) {
                last = now;
                unchangedSince = System.nanoTime();
            } else if (System.nanoTime() - unchangedSince > TimeUnit.MILLISECONDS.toNanos(STALL_MILLIS) && now > 0) {
                return now;
            }
            Thread.sleep(200);
        }
        return fail("the writer neither finished nor stalled");
    }

    private static String nextLine(BufferedReader stdout) throws IOException {
        String line = stdout.readLine();
        if (line == null) {
            fail("stdout ended");
        }
        return line;
    }

    private static long rssKib(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return fail("no VmRSS for " + pid);
    }
}
