package dev.fleet.mcp.relay;

import dev.fleet.mcp.stdio.InheritedStdin;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
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

    /** Stdin's channel; null when stdin was closed before this process started, and reads as empty. */
    private final FileChannel channel;

    private ClosableStdin(InputStream in, FileChannel channel) {
        super(in);
        this.channel = channel;
    }

    static ClosableStdin open() {
        if (InheritedStdin.closedAtStart("member")) {
            // Descriptor 0 is a file the JVM opened for itself: no client's lines, and not this stream's to close.
            return new ClosableStdin(InputStream.nullInputStream(), null);
        }
        FileChannel channel = new FileInputStream(FileDescriptor.in).getChannel();
        return new ClosableStdin(Channels.newInputStream(channel), channel);
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
        if (channel != null) {
            channel.close();
        }
    }
}
