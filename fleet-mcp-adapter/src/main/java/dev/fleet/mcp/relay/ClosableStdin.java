package dev.fleet.mcp.relay;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;

/**
 * This process's stdin, read through a channel so that another thread can end a read blocked in it
 * ({@link #close}): the member closes it just before it exits. A JVM exits only once no thread of its
 * own is inside a native call, or after some 300 ms (HotSpot's {@code VM_Exit}): a reader blocked on a
 * client that keeps stdin open (at SIGTERM, say) held every such exit up by that much. Once closed,
 * stdin reads as ended.
 */
final class ClosableStdin extends FilterInputStream {

    private final FileChannel channel;

    private ClosableStdin(FileChannel channel) {
        super(Channels.newInputStream(channel));
        this.channel = channel;
    }

    static ClosableStdin open() {
        return new ClosableStdin(new FileInputStream(FileDescriptor.in).getChannel());
    }

    @Override
    public int read() throws IOException {
        try {
            return super.read();
        } catch (ClosedChannelException closed) {
            return -1;
        }
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        try {
            return super.read(buffer, offset, length);
        } catch (ClosedChannelException closed) {
            return -1;
        }
    }

    /** Ends a read under way (it returns the end of input) and every read after it. */
    @Override
    public void close() throws IOException {
        channel.close();
    }
}
