package dev.fleet.domain.lifecycle;

import dev.fleet.domain.CohortSource;
import dev.fleet.domain.Text;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The client cohort a server belongs to: which MCP client launched it. Two clients that each start
 * a full fleet give two cohorts, which is how duplicates across clients are told apart. A cohort is
 * one of three kinds, so it is a sealed type: the kind decides both the id and the registry's
 * {@code cohort_source}.
 */
public sealed interface Cohort permits Cohort.FromEnv, Cohort.FromParentProcess, Cohort.Unknown {

    /** Set by a client (or its launcher) to name its cohort explicitly. */
    String ENV_VARIABLE = "GITEA_MCP_COHORT_ID";

    /** The cohort id to record, or null when unknown. */
    String id();

    /** The registry's {@code cohort_source}: {@code env}, {@code parent_process} or {@code unknown}. */
    CohortSource source();

    /** Named by {@value #ENV_VARIABLE}. */
    record FromEnv(String id) implements Cohort {
        public FromEnv {
            if (Text.isBlank(id)) {
                throw new IllegalArgumentException("an env cohort id must be non-blank");
            }
        }

        @Override
        public CohortSource source() {
            return CohortSource.ENV;
        }
    }

    /** Derived from the launching client's pid: every stdio child of one client shares it. */
    record FromParentProcess(long parentPid) implements Cohort {
        public FromParentProcess {
            if (parentPid <= 0) {
                throw new IllegalArgumentException("a parent pid must be positive, got " + parentPid);
            }
        }

        @Override
        public String id() {
            return "ppid:" + parentPid;
        }

        @Override
        public CohortSource source() {
            return CohortSource.PARENT_PROCESS;
        }
    }

    /** Nothing names the cohort; the verdict will report {@code cohort_unknown}. */
    record Unknown() implements Cohort {
        @Override
        public String id() {
            return null;
        }

        @Override
        public CohortSource source() {
            return CohortSource.UNKNOWN;
        }
    }

    /**
     * the contract: a non-blank {@value #ENV_VARIABLE} wins; else, when asked to, the parent pid; else
     * unknown. Pure: the caller (the composition root) reads the environment and the parent pid.
     *
     * @param env the process environment
     * @param cohortFromParent whether {@code --cohort-from-parent} was given
     * @param parentPid the parent process's pid, empty when the OS does not say
     */
    public static Cohort resolve(Map<String, String> env, boolean cohortFromParent, OptionalLong parentPid) {
        Objects.requireNonNull(env, "env");
        Objects.requireNonNull(parentPid, "parentPid");
        String fromEnv = env.get(ENV_VARIABLE);
        if (!Text.isBlank(fromEnv)) {
            // Stripped: an id pasted with a trailing newline must still equal its siblings'.
            return new FromEnv(Text.strip(fromEnv));
        }
        if (cohortFromParent && parentPid.isPresent() && parentPid.getAsLong() > 0) {
            return new FromParentProcess(parentPid.getAsLong());
        }
        return new Unknown();
    }
}
