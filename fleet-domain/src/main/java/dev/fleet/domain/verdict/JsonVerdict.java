package dev.fleet.domain.verdict;

/**
 * A verdict with its canonical JSON ({@link VerdictDocument#canonicalJson}), made together by
 * {@link FleetClassifier#classifyWithJson}: for an answerer that shows the JSON anyway.
 */
public record JsonVerdict(Verdict verdict, String json) {
}
