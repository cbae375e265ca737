package dev.fleet.domain;

/** A reason code of the contract, with what the operator should do about it (this tool never does it). */
public interface ReasonCode extends Code {

    /** What the operator should do; the tool itself never acts. */
    String action();
}
