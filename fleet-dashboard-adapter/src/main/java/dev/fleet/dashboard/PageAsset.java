package dev.fleet.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/**
 * A file of the page, shipped in this jar (no CDN, no framework): read once, answered from memory.
 *
 * @param path where the page asks for it
 */
record PageAsset(String path, String contentType, byte[] body) {

    private static final Map<String, PageAsset> ASSETS = Map.of(
            "/", load("/", "index.html", "text/html; charset=utf-8"),
            "/dashboard.js", load("/dashboard.js", "dashboard.js", "text/javascript; charset=utf-8"),
            "/dashboard.css", load("/dashboard.css", "dashboard.css", "text/css; charset=utf-8"));

    /** The asset at {@code path}, if the page has one there. */
    static Optional<PageAsset> at(String path) {
        return Optional.ofNullable(ASSETS.get(path));
    }

    private static PageAsset load(String path, String resource, String contentType) {
        try (InputStream in = PageAsset.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks the dashboard's " + resource);
            }
            return new PageAsset(path, contentType, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
