package dev.fleet.domain;

/** A fixed reason code of the contract, with what the operator should do about it (this tool never does it). */
public interface ReasonCode {

    /** The code exactly as SPEC spells it, e.g. {@code pid_reused}. */
    String code();

    /** What the operator should do; the tool itself never acts. */
    String action();
}
