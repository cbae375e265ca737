package dev.fleet.clientconfig;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * The three formats the clients write, each parsed by a maintained library (Jackson and its TOML and
 * YAML formats), never by hand. JSON is read as leniently as the most lenient client writes it: VS
 * Code's and Zed's files are JSON with comments and trailing commas.
 */
enum ConfigFormat {
    // Anything after the document is refused, as the clients' own readers refuse it (JSON.parse, Python's json).
    JSON(JsonMapper.builder().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS, JsonReadFeature.ALLOW_TRAILING_COMMA)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build()),
    TOML(new TomlMapper()),
    // Goose's own reading (serde_yaml): aliases followed, a merge key a key like any other.
    YAML(new YAMLMapper(new AliasFollowingYaml(YAMLFactory.builder().loaderOptions(yamlLimits()))));

    private final ObjectMapper mapper;

    ConfigFormat(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** The format's name as a warning says it: its own name. */
    String label() {
        return name();
    }

    /**
     * The document's top-level object; empty for an empty document (nothing configured). A document
     * that does not parse, or whose top level is no object, is an {@link UnreadableConfig} whose reason
     * names the format and the line, never the parser's message: that quotes the text it failed on,
     * which may be a secret.
     */
    Optional<JsonNode> parse(byte[] content) throws UnreadableConfig {
        JsonNode root;
        try {
            root = mapper.readTree(content);
        } catch (JsonProcessingException e) {
            throw new UnreadableConfig("not valid " + name() + at(e.getLocation()));
        } catch (IOException | RuntimeException e) {
            // A parser's own failure on odd input (SnakeYAML throws its own runtime exceptions): the
            // file is unreadable, not the command.
            throw new UnreadableConfig("not valid " + name());
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            return Optional.empty();
        }
        if (!root.isObject()) {
            throw new UnreadableConfig("not a " + name() + " object at its top level");
        }
        return Optional.of(root);
    }

    private static String at(JsonLocation location) {
        return location != null && location.getLineNr() > 0 ? " (line " + location.getLineNr() + ")" : "";
    }

    private static LoaderOptions yamlLimits() {
        LoaderOptions options = new LoaderOptions();
        // SnakeYAML's own default (3 MB) would refuse a file the read bound admits.
        options.setCodePointLimit(ReadBounds.FILE_BYTES);
        return options;
    }
}
