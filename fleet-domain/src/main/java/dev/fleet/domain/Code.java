package dev.fleet.domain;

import java.util.Collections;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A fixed word of the contract spelled by an enum constant: the code is the constant's name in
 * lower case ({@code PID_REUSED} is {@code pid_reused}), derived here once rather than restated.
 */
public interface Code {

    /** The constant's name; every enum provides it. */
    String name();

    /** The code exactly as the contract spells it. */
    default String code() {
        return Spelling.of(this);
    }

    /**
     * The constant of {@code type} whose code is {@code code}, if any. A registry read parses three
     * codes per row, so each type's codes are indexed once rather than searched through a fresh
     * copy of its constants on every call.
     */
    static <E extends Enum<E> & Code> Optional<E> parse(Class<E> type, String code) {
        return Optional.ofNullable(type.cast(Spelling.BY_CODE.get(type).get(code)));
    }

    /** Each constant's code, spelled once: a verdict over thousands of rows asks for them tens of thousands of times. */
    final class Spelling {
        private static final Map<Code, String> CODES = new ConcurrentHashMap<>();

        /** Per enum type, its constants by code; the first constant wins should two share one. */
        private static final ClassValue<Map<String, Object>> BY_CODE = new ClassValue<>() {
            @Override
            protected Map<String, Object> computeValue(Class<?> type) {
                return constants(type);
            }
        };

        private Spelling() {
        }

        /** Unmodifiable over a {@code HashMap}: looking up a null code finds nothing, as before. */
        private static Map<String, Object> constants(Class<?> type) {
            Map<String, Object> byCode = new HashMap<>();
            for (Object constant : type.getEnumConstants()) {
                byCode.putIfAbsent(((Code) constant).code(), constant);
            }
            return Collections.unmodifiableMap(byCode);
        }

        static String of(Code constant) {
            String code = CODES.get(constant);
            return code != null ? code : CODES.computeIfAbsent(constant, c -> c.name().toLowerCase(Locale.ROOT));
        }
    }
}
