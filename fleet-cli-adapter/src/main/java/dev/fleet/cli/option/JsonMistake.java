package dev.fleet.cli.option;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.ContentReference;
import com.fasterxml.jackson.core.io.JsonEOFException;
import dev.fleet.domain.Failures;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What is wrong with a JSON file Jackson could not parse, in its reader's words and with where it is
 * (line and column). Jackson's own message is written for a programmer: it quotes its locations as
 * {@code [Source: REDACTED (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1]}
 * and names its classes and features. The usual mistakes get a sentence of their own; any other keeps
 * Jackson's words without those parts.
 */
final class JsonMistake {

    private static final Pattern DUPLICATE = Pattern.compile("^Duplicate field '(.*)'$", Pattern.DOTALL);

    private JsonMistake() {
    }

    /** One line: what is wrong, then {@code at line L, column C} when Jackson knows where. */
    static String of(JsonProcessingException e) {
        return what(e) + at(e.getLocation());
    }

    private static String what(JsonProcessingException e) {
        String original = String.valueOf(e.getOriginalMessage());
        if (e instanceof JsonEOFException eof) {
            return endOfFile(eof);
        }
        if (original.startsWith("Trailing token")) {
            return "more JSON follows the first value (a roster file is one JSON object)";
        }
        Matcher duplicate = DUPLICATE.matcher(original);
        if (duplicate.matches()) {
            return "the key '" + duplicate.group(1) + "' appears twice in one object";
        }
        return Failures.withoutCodeNames(original);
    }

    /** The file ends inside a string, or inside the object or list opened where it says. */
    private static String endOfFile(JsonEOFException eof) {
        JsonToken token = eof.getTokenBeingDecoded();
        if (token == JsonToken.VALUE_STRING || token == JsonToken.FIELD_NAME) {
            return "the file ends inside a string (a closing \" is missing)";
        }
        JsonParser parser = eof.getProcessor();
        JsonStreamContext open = parser == null ? null : parser.getParsingContext();
        if (open != null && (open.inObject() || open.inArray())) {
            JsonLocation start = open.startLocation(ContentReference.unknown());
            String opened = open.inObject() ? "the object opened" : "the list opened";
            return "the file ends inside " + opened + at(start) + " (a closing " + (open.inObject() ? "}" : "]")
                    + " is missing)";
        }
        return "the file ends before its JSON does";
    }

    private static String at(JsonLocation location) {
        if (location == null || location.getLineNr() <= 0) {
            return "";
        }
        return " at line " + location.getLineNr() + (location.getColumnNr() > 0 ? ", column " + location.getColumnNr()
                : "");
    }
}
