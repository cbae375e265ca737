package dev.fleet.domain;

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

    /** The constant of {@code type} whose code is {@code code}, if any. */
    static <E extends Enum<E> & Code> Optional<E> parse(Class<E> type, String code) {
        for (E constant : type.getEnumConstants()) {
            if (constant.code().equals(code)) {
                return Optional.of(constant);
            }
        }
        return Optional.empty();
    }

    /** Each constant's code, spelled once: a verdict over thousands of rows asks for them tens of thousands of times. */
    final class Spelling {
        private static final Map<Code, String> CODES = new ConcurrentHashMap<>();

        private Spelling() {
        }

        static String of(Code constant) {
            String code = CODES.get(constant);
            return code != null ? code : CODES.computeIfAbsent(constant, c -> c.name().toLowerCase(Locale.ROOT));
        }
    }
}
