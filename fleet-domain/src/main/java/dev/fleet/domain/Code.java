package dev.fleet.domain;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * A fixed word of the contract spelled by an enum constant: the code is the constant's name in
 * lower case ({@code PID_REUSED} is {@code pid_reused}), derived here once rather than restated.
 */
public interface Code {

    /** The constant's name; every enum provides it. */
    String name();

    /** The code exactly as the contract spells it. */
    default String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The constant of {@code type} whose code is {@code code}, if any. */
    static <E extends Enum<E> & Code> Optional<E> parse(Class<E> type, String code) {
        return Arrays.stream(type.getEnumConstants()).filter(constant -> constant.code().equals(code)).findFirst();
    }
}
