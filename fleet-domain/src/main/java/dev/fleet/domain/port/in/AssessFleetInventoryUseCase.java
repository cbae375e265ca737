package dev.fleet.domain.port.in;

import dev.fleet.domain.verdict.JsonVerdict;
import dev.fleet.domain.verdict.Verdict;
import dev.fleet.domain.verdict.VerdictDocument;

/** Assess the fleet now: read the registry, observe the process table, classify. Read-only. */
public interface AssessFleetInventoryUseCase {

    Verdict assess();

    /**
     * The same verdict with its canonical JSON. The service overrides this to take the digest while
     * the JSON is written (one walk of the document, not two); the bytes are the same either way.
     */
    default JsonVerdict assessWithJson() {
        Verdict verdict = assess();
        return new JsonVerdict(verdict, VerdictDocument.canonicalJson(verdict));
    }
}
