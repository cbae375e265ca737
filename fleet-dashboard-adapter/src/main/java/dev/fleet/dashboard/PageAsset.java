package dev.fleet.dashboard;

import dev.fleet.domain.Roster;
import dev.fleet.domain.verdict.encoding.CanonicalJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A file of the page, shipped in this jar (no CDN, no framework): read once, answered from memory.
 *
 * @param path where the page asks for it
 */
record PageAsset(String path, String contentType, byte[] body) {

    /** The page itself, with the slots {@link FirstVerdictPage} fills each time it is served. */
    static final PageAsset PAGE = load("/", "index.html", "text/html; charset=utf-8");

    private static final Map<String, PageAsset> ASSETS = Map.of(
            "/dashboard.js", load("/dashboard.js", "dashboard.js", "text/javascript; charset=utf-8"),
            "/dashboard.css", load("/dashboard.css", "dashboard.css", "text/css; charset=utf-8"));

    /** The asset at {@code path}, if the page has one there. */
    static Optional<PageAsset> at(String path) {
        return Optional.ofNullable(ASSETS.get(path));
    }

    /**
     * {@code /roster}: the roster's members in the roster's order, which the page shows its cards in
     * (the verdict lists them sorted by namespace): {@code {"members":[{namespace, profile, role}]}}.
     */
    static PageAsset roster(Roster roster) {
        List<Map<String, Object>> members = roster.members().stream().map(member -> {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("namespace", member.namespace());
            fields.put("profile", member.profile());
            fields.put("role", member.role());
            return fields;
        }).toList();
        return new PageAsset(DashboardServlet.ROSTER, "application/json",
                CanonicalJson.encode(Map.of("members", members)).getBytes(StandardCharsets.UTF_8));
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
