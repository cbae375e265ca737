/**
 * The fleet in motion (docs/CONTRACT.md, "watch, wait, subscribe"): one read-only assessment
 * repeated in one warm process, and what counts as a change (a new verdict digest; heartbeats are
 * outside the digest, so they never count). Plain classes the CLI verbs and the MCP resource call:
 * the durations every such option takes, the change detector, the wait condition and the loop.
 */
package dev.fleet.domain.motion;
