package dev.fleet.bench;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * The floor under any stdio relay, for {@link RelayLatency}: starts COMMAND and copies bytes both ways
 * between its own stdio and the child's, as they come, without reading a line or a message. Whatever
 * {@code fleet serve -- COMMAND} costs beyond this is the relay's own work, not the second process and
 * its pipes. The child's stderr is this process's. It exits with the child, once the child's stdout has
 * ended (its stdin's end is passed on as the child's).
 *
 * <pre>
 * java -cp benchmarks.jar dev.fleet.bench.RawRelay -- COMMAND [ARGUMENT...]
 * </pre>
 */
public final class RawRelay {

    /** As large as a pipe's default buffer: one read takes whatever the other side has written. */
    private static final int CHUNK = 64 * 1024;

    private RawRelay() {
    }

    public static void main(String[] args) throws Exception {
        int dash = Arrays.asList(args).indexOf("--");
        if (dash < 0 || dash == args.length - 1) {
            System.err.println("usage: RawRelay -- COMMAND [ARGUMENT...]");
            System.exit(2);
        }
        Process child = new ProcessBuilder(Arrays.copyOfRange(args, dash + 1, args.length))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        // The client's side may never end (a client that keeps stdin open): a daemon thread, left behind at exit.
        Thread up = copy("client to child", new FileInputStream(FileDescriptor.in), child.getOutputStream());
        up.setDaemon(true);
        up.start();
        Thread down = copy("child to client", child.getInputStream(), new FileOutputStream(FileDescriptor.out));
        down.start();
        down.join();
        System.exit(child.waitFor());
    }

    /** A thread copying {@code in} to {@code out}, each read written and flushed at once, closing {@code out} at the end. */
    private static Thread copy(String name, InputStream in, OutputStream out) {
        return new Thread(() -> {
            byte[] chunk = new byte[CHUNK];
            try (out) {
                int count;
                while ((count = in.read(chunk)) >= 0) {
                    out.write(chunk, 0, count);
                    out.flush();
                }
            } catch (IOException e) {
                // The other side has gone: nothing left to copy.
            }
        }, name);
    }
}
