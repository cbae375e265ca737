package dev.fleet.domain;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The expected fleet: its members, its binding, and the patterns that say "this process is a fleet
 * server". A roster is validated whole on construction, so every roster in the program is sound:
 * an invalid one fails with one message naming the offending field.
 *
 * <p>The patterns are RE2 syntax, matched by the process observer with a linear-time engine (RE2J).
 * This JDK-only domain holds them as text and checks only that they are there and non-blank: it
 * cannot judge RE2 syntax (the JDK's engine accepts back-references RE2 rejects), so whoever loads
 * a roster has the observer compile its patterns and reports one that does not compile.
 */
public record Roster(Binding binding, List<RosterMember> members, List<String> serverProcessPatterns) {

    /**
     * Matches the command lines the JVM shows for {@code fleet serve}: the launcher {@code exec}s
     * {@code java ... -jar .../fleet.jar serve ...}, and the main class may be named directly, with
     * dots or with the slashes the java launcher accepts too ({@code dev/fleet/cli/FleetCli serve}).
     * A pattern is <em>found</em> anywhere in the command line, as {@code Matcher.find()} does.
     * Every other way of starting {@code serve} (a renamed jar, {@code serve} inside an {@code @}-file)
     * is refused by {@code serve} itself: a server must show a command line its roster's patterns see.
     */
    public static final List<String> DEFAULT_SERVER_PROCESS_PATTERNS = List.of(
            "(^|[\\s/])fleet\\.jar serve(\\s|$)",
            "(^|\\s)dev[./]fleet[./]cli[./]FleetCli serve(\\s|$)");

    private static final Roster DEFAULT = new Roster(Binding.DEFAULT, List.of(
            new RosterMember("gitea-author", "prgs-author", "author"),
            new RosterMember("gitea-reviewer", "prgs-reviewer", "reviewer"),
            new RosterMember("gitea-controller", "prgs-controller", "controller"),
            new RosterMember("gitea-merger", "prgs-merger", "merger"),
            new RosterMember("gitea-reconciler", "prgs-reconciler", "reconciler")),
            DEFAULT_SERVER_PROCESS_PATTERNS);

    public Roster {
        if (binding == null) {
            throw new IllegalArgumentException("roster: binding is required");
        }
        requireNonBlank(binding.remote(), "binding.remote");
        requireNonBlank(binding.org(), "binding.org");
        requireNonBlank(binding.repo(), "binding.repo");
        if (members == null || members.isEmpty()) {
            throw new IllegalArgumentException("roster: members must list at least one member");
        }
        Set<String> namespaces = new HashSet<>();
        Set<String> profiles = new HashSet<>();
        for (int i = 0; i < members.size(); i++) {
            RosterMember member = members.get(i);
            if (member == null) {
                throw new IllegalArgumentException("roster: members[" + i + "] is null");
            }
            requireNonBlank(member.namespace(), "members[" + i + "].namespace");
            requireNonBlank(member.profile(), "members[" + i + "].profile");
            requireNonBlank(member.role(), "members[" + i + "].role");
            if (!namespaces.add(member.namespace())) {
                throw new IllegalArgumentException("roster: duplicate namespace '" + member.namespace() + "'");
            }
            if (!profiles.add(member.profile())) {
                throw new IllegalArgumentException("roster: duplicate profile '" + member.profile() + "'");
            }
        }
        serverProcessPatterns = serverProcessPatterns == null ? DEFAULT_SERVER_PROCESS_PATTERNS : serverProcessPatterns;
        if (serverProcessPatterns.isEmpty()) {
            // Fail closed: with no pattern no process could ever show as an unregistered server.
            throw new IllegalArgumentException("roster: server_process_patterns must list at least one pattern "
                    + "(leave it out for the defaults)");
        }
        for (int i = 0; i < serverProcessPatterns.size(); i++) {
            requireNonBlank(serverProcessPatterns.get(i), "server_process_patterns[" + i + "]");
        }
        members = List.copyOf(members);
        serverProcessPatterns = List.copyOf(serverProcessPatterns);
    }

    /** The contract's embedded roster: the five default members, the default binding and patterns. */
    public static Roster defaultRoster() {
        return DEFAULT;
    }

    /** A server's namespace and role come from the roster by its profile, never from the profile's spelling. */
    public Optional<RosterMember> memberByProfile(String profile) {
        return members.stream().filter(member -> member.profile().equals(profile)).findFirst();
    }

    private static void requireNonBlank(String value, String field) {
        if (Text.isBlank(value)) {
            throw new IllegalArgumentException("roster: " + field + " must be a non-blank string");
        }
    }
}
