package dev.fleet.cli.option;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fleet.cli.exit.ConfigurationException;
import dev.fleet.clientconfig.DeadlineReads;
import dev.fleet.domain.Printable;
import dev.fleet.domain.Binding;
import dev.fleet.domain.Failures;
import dev.fleet.domain.Roster;
import dev.fleet.domain.RosterMember;
import dev.fleet.observer.InvalidServerPatternException;
import dev.fleet.observer.ServerPatterns;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Reads a roster file (docs/CONTRACT.md), and gives it new {@code server_process_patterns} for
 * {@code mcp-config --update-roster}. Jackson parses; this class only checks the shape, so each
 * mistake gets one message naming the file and the field. The domain validates the rest (blank
 * strings, duplicates), and the observer's engine judges the patterns: one that RE2J cannot compile
 * (a back-reference, a look-around) would otherwise fail only when an assessment meets it.
 */
public final class RosterFile {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    /** A roster names a handful of members and patterns; anything this large is not one. */
    private static final long MAX_BYTES = 1024 * 1024;
    private static final Set<String> ROSTER_KEYS = Set.of("binding", "members", "server_process_patterns");
    private static final Set<String> BINDING_KEYS = Set.of("remote", "org", "repo");
    private static final Set<String> MEMBER_KEYS = Set.of("namespace", "profile", "role");

    private RosterFile() {
    }

    /** @param where the file as an error names it, such as {@code roster /x (from $FLEET_ROSTER)} */
    static Roster load(Path file, String where) {
        JsonNode root;
        try {
            // Never opened unless a regular file of sane size: reading a FIFO would block forever.
            if (Files.exists(file) && !Files.isRegularFile(file)) {
                throw new ConfigurationException(where + ": not a regular file (a FIFO, socket, device or directory)");
            }
            if (Files.isRegularFile(file) && Files.size(file) > MAX_BYTES) {
                throw new ConfigurationException(where + ": larger than " + MAX_BYTES / 1024 + " KiB; a roster is a "
                        + "few lines of JSON");
            }
            root = JSON.readTree(text(file));
        } catch (NoSuchFileException e) {
            throw new ConfigurationException(where + ": no such file");
        } catch (AccessDeniedException e) {
            // The JDK's message is the path alone, which the line names already.
            throw new ConfigurationException(where + ": cannot read: permission denied");
        } catch (CharacterCodingException e) {
            // The decoder's own words are "Input length = 1": a file saved as UTF-16 or Latin-1.
            throw new ConfigurationException(where + ": not UTF-8 text (a roster is JSON in UTF-8)");
        } catch (JsonProcessingException e) {
            throw new ConfigurationException(where + ": invalid JSON: " + JsonMistake.of(e));
        } catch (DeadlineReads.Slow e) {
            throw new ConfigurationException(where + ": cannot read: " + e.getMessage());
        } catch (IOException e) {
            throw new ConfigurationException(where + ": cannot read: " + Failures.oneLine(e));
        }
        try {
            return parse(root);
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(where + ": " + e.getMessage().replaceFirst("^roster: ", ""));
        }
    }

    /**
     * The text of roster {@code file} with {@code patterns} as its {@code server_process_patterns}: the
     * key's value replaced where it stands, or the key added last; every other key and value kept, in
     * its order (the layout is Jackson's, two spaces a level). The file must be a roster that
     * {@link #load} accepts, which the caller has just loaded.
     */
    public static byte[] withServerProcessPatterns(Path file, List<String> patterns) throws IOException {
        if (!Files.isRegularFile(file) || Files.size(file) > MAX_BYTES) {
            throw new IOException(file + " is no longer a roster file of sane size");
        }
        JsonNode root = JSON.readTree(text(file));
        if (!(root instanceof ObjectNode roster)) {
            throw new IOException(file + " is no longer a roster file (its top level is not an object)");
        }
        ArrayNode list = roster.arrayNode();
        patterns.forEach(list::add);
        roster.set("server_process_patterns", list);
        DefaultPrettyPrinter layout = new DefaultPrettyPrinter()
                .withSeparators(Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
                .withArrayIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n"))
                .withObjectIndenter(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n"));
        return (JSON.writer(layout).writeValueAsString(roster) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The file's text, without the byte order mark some editors begin a UTF-8 file with (JSON's RFC lets a
     * reader ignore it): a roster saved by Notepad is still a roster.
     */
    private static String text(Path file) throws IOException {
        // A regular file may still block its reader (/proc/kmsg, a stalled network mount): read within a deadline.
        byte[] bytes = DeadlineReads.head(file, (int) MAX_BYTES + 1);
        if (bytes.length > MAX_BYTES) {
            throw new IOException("larger than " + MAX_BYTES / 1024 + " KiB; a roster is a few lines of JSON");
        }
        String text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    private static Roster parse(JsonNode root) {
        object(root, "the top level", ROSTER_KEYS);
        requireBinding(root);
        JsonNode binding = root.get("binding");
        object(binding, "binding", BINDING_KEYS);
        JsonNode members = required(root, "members");
        if (!members.isArray()) {
            throw new IllegalArgumentException("members must be a list");
        }
        List<RosterMember> parsed = new ArrayList<>();
        for (int i = 0; i < members.size(); i++) {
            JsonNode member = members.get(i);
            String where = "members[" + i + "]";
            object(member, where, MEMBER_KEYS);
            parsed.add(new RosterMember(text(member, "namespace", where), text(member, "profile", where),
                    text(member, "role", where)));
        }
        List<String> patterns = null;
        JsonNode patternNode = root.get("server_process_patterns");
        if (patternNode != null && !patternNode.isNull()) {
            if (!patternNode.isArray()) {
                throw new IllegalArgumentException("server_process_patterns must be a list of strings");
            }
            patterns = new ArrayList<>();
            for (int i = 0; i < patternNode.size(); i++) {
                if (!patternNode.get(i).isTextual()) {
                    throw new IllegalArgumentException("server_process_patterns[" + i + "] must be a string");
                }
                patterns.add(patternNode.get(i).asText());
            }
        }
        Roster roster = new Roster(new Binding(text(binding, "remote", "binding"), text(binding, "org", "binding"),
                text(binding, "repo", "binding")), parsed, patterns);
        try {
            ServerPatterns.compile(roster.serverProcessPatterns());
        } catch (InvalidServerPatternException e) {
            // Printable: a pattern may hold a line break, and the message is one line.
            throw new IllegalArgumentException("server_process_patterns[" + e.index() + "] does not compile as a "
                    + "linear-time (RE2) pattern: " + Printable.of(e.problem()) + " in '" + Printable.of(e.excerpt())
                    + "'");
        }
        return roster;
    }

    private static void object(JsonNode node, String where, Set<String> allowed) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException(where + " must be an object");
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw new IllegalArgumentException("unknown key '" + name + "' in " + where);
            }
        }
    }

    /**
     * A file without a binding says, in the same line, what is wrong with its members too: {@code
     * {"members": []}} lacks both, and fixing the one named should not reveal the other only then.
     */
    private static void requireBinding(JsonNode root) {
        if (absent(root.get("binding"))) {
            JsonNode members = root.get("members");
            String alsoMembers = absent(members) ? "; members is required"
                    : members.isArray() && members.isEmpty() ? "; members must list at least one member" : "";
            throw new IllegalArgumentException("binding is required" + alsoMembers);
        }
    }

    private static JsonNode required(JsonNode node, String key) {
        JsonNode value = node.get(key);
        if (absent(value)) {
            throw new IllegalArgumentException(key + " is required");
        }
        return value;
    }

    private static boolean absent(JsonNode value) {
        return value == null || value.isNull();
    }

    /** A string field; blank strings are left to the domain, which rejects them by name. */
    private static String text(JsonNode node, String key, String where) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException(where + "." + key + " is required");
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException(where + "." + key + " must be a string");
        }
        return value.asText();
    }
}
