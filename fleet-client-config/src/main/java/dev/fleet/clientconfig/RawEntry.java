package dev.fleet.clientconfig;

import com.fasterxml.jackson.databind.JsonNode;

/** One server's block of a configuration, before it is known to be a stdio server. */
record RawEntry(String name, String project, JsonNode node) {
}
