package dev.fleet.clientconfig;

import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactoryBuilder;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.CharArrayReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;

/** Jackson's YAML factory, its parsers {@link AliasFollowingParser}s: YAML as Goose reads it. */
final class AliasFollowingYaml extends YAMLFactory {

    AliasFollowingYaml(YAMLFactoryBuilder builder) {
        super(builder);
    }

    @Override
    protected YAMLParser _createParser(byte[] data, int offset, int length, IOContext context) throws IOException {
        return parser(_createReader(data, offset, length, null, context), context);
    }

    @Override
    protected YAMLParser _createParser(InputStream input, IOContext context) throws IOException {
        return parser(_createReader(input, null, context), context);
    }

    @Override
    protected YAMLParser _createParser(Reader reader, IOContext context) {
        return parser(reader, context);
    }

    @Override
    protected YAMLParser _createParser(char[] data, int offset, int length, IOContext context, boolean recyclable) {
        return parser(new CharArrayReader(data, offset, length), context);
    }

    private YAMLParser parser(Reader reader, IOContext context) {
        return new AliasFollowingParser(context, _parserFeatures, _yamlParserFeatures, _loaderOptions, _objectCodec,
                reader);
    }
}
