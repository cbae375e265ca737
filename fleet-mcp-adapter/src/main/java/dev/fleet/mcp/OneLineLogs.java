package dev.fleet.mcp;

import dev.fleet.domain.Printable;
import dev.fleet.domain.verdict.OutsideText;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;

/**
 * A server's {@code System.err} on which every line a logger prints stays one line: slf4j-simple prints each
 * record with one {@code println}, and the MCP SDK puts a client's text in its records (an unknown response's
 * id, a method it does not know). A newline there forged a second log line in the file an MCP client keeps, and
 * an escape sequence recoloured or rewrote the terminal that shows it: each prints {@link Printable}, as {@code
 * \x0a} or {@code \x1b} (a tab stays a tab); and a line longer than 4,096 characters, so made, is cut there, as a
 * verdict cuts outside text (a client's id of a megabyte made a megabyte of log file). What is written as bytes
 * passes as it is.
 */
final class OneLineLogs extends PrintStream {

    OneLineLogs(OutputStream out, Charset charset) {
        super(out, true, charset);
    }

    @Override
    public void println(String line) {
        super.println(shown(line));
    }

    @Override
    public void println(Object value) {
        super.println(shown(String.valueOf(value)));
    }

    /**
     * The line made printable but for its tabs (a stack trace's frames begin with one), then capped as every outside
     * text is: a client's megabyte id, or 4,096 escapes, costs a log file some 4 KB. Only what can be shown is
     * escaped: a line of millions of controls costs no more than one of 4,096.
     */
    private static String shown(String line) {
        int max = OutsideText.MAX_CHARS;
        int head = line.length() <= max ? line.length() : Character.isHighSurrogate(line.charAt(max - 1)) ? max - 1 : max;
        String[] fields = line.substring(0, head).split("\t", -1);
        for (int i = 0; i < fields.length; i++) {
            fields[i] = Printable.of(fields[i]);
        }
        String printable = String.join("\t", fields);
        if (head == line.length() && printable.length() <= max) {
            return printable;
        }
        int kept = Math.min(max, printable.length());
        kept -= kept > 0 && Character.isHighSurrogate(printable.charAt(kept - 1)) ? 1 : 0;
        return printable.substring(0, kept) + "…[truncated, " + line.codePointCount(0, line.length()) + " chars]";
    }
}
