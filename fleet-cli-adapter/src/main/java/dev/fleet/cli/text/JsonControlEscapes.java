package dev.fleet.cli.text;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;

/**
 * Jackson's JSON escapes plus DEL and the C1 controls (U+007F-U+009F), which Jackson writes raw and
 * a terminal obeys (CSI U+009B as ESC [): the same set the verdict's canonical JSON escapes.
 */
public final class JsonControlEscapes extends CharacterEscapes {

    private static final long serialVersionUID = 1L;

    private final int[] ascii = standardAsciiEscapesForJSON();

    public JsonControlEscapes() {
        ascii[0x7f] = ESCAPE_STANDARD;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
        return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
        return ch >= 0x80 && ch <= 0x9f ? new SerializedString(String.format("\\u%04x", ch)) : null;
    }
}
