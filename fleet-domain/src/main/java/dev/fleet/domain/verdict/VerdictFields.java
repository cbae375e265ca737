package dev.fleet.domain.verdict;

import dev.fleet.domain.verdict.encoding.FieldName;

/** Every field name of the verdict document (docs/CONTRACT.md), each encoded once. */
final class VerdictFields {

    static final FieldName VERDICT_DIGEST = FieldName.of("verdict_digest");
    static final FieldName OBSERVATION = FieldName.of("observation");
    static final FieldName LAST_HEARTBEAT_AT = FieldName.of("last_heartbeat_at");
    static final FieldName ACTION = FieldName.of("action");
    static final FieldName ANSWERED_BY = FieldName.of("answered_by");
    static final FieldName AVAILABLE = FieldName.of("available");
    static final FieldName BLOCKED_REASON = FieldName.of("blocked_reason");
    static final FieldName BLOCKED_REASONS = FieldName.of("blocked_reasons");
    static final FieldName BOOT_ID = FieldName.of("boot_id");
    static final FieldName CLIENT_PROVENANCE = FieldName.of("client_provenance");
    static final FieldName CODE = FieldName.of("code");
    static final FieldName COHORT_ID = FieldName.of("cohort_id");
    static final FieldName COHORT_IDS = FieldName.of("cohort_ids");
    static final FieldName COHORT_SOURCE = FieldName.of("cohort_source");
    static final FieldName COMMAND_LINE = FieldName.of("command_line");
    static final FieldName DETAIL = FieldName.of("detail");
    static final FieldName DUPLICATE_MEMBERS = FieldName.of("duplicate_members");
    static final FieldName EXPECTED_MEMBER_COUNT = FieldName.of("expected_member_count");
    static final FieldName HOSTNAME = FieldName.of("hostname");
    static final FieldName HOST_ID = FieldName.of("host_id");
    static final FieldName INSTANCES = FieldName.of("instances");
    static final FieldName INVENTORY_COMPLETE = FieldName.of("inventory_complete");
    static final FieldName MALFORMED_REGISTRATIONS = FieldName.of("malformed_registrations");
    static final FieldName MEMBERS = FieldName.of("members");
    static final FieldName MISSING_MEMBERS = FieldName.of("missing_members");
    static final FieldName MUTATION_GATE_SATISFIED = FieldName.of("mutation_gate_satisfied");
    static final FieldName NAMESPACE = FieldName.of("namespace");
    static final FieldName ORPHANED_INSTANCES = FieldName.of("orphaned_instances");
    static final FieldName PARENT_PID = FieldName.of("parent_pid");
    static final FieldName PARENT_STARTED_AT = FieldName.of("parent_started_at");
    static final FieldName OMITTED_ENTRIES = FieldName.of("omitted_entries");
    static final FieldName OBSERVED_AT = FieldName.of("observed_at");
    static final FieldName PID = FieldName.of("pid");
    static final FieldName PID_NAMESPACE = FieldName.of("pid_namespace");
    static final FieldName PROCESS_LISTING = FieldName.of("process_listing");
    static final FieldName PROCESS_STARTED_AT = FieldName.of("process_started_at");
    static final FieldName PROFILE = FieldName.of("profile");
    static final FieldName READABLE = FieldName.of("readable");
    static final FieldName REASON = FieldName.of("reason");
    static final FieldName RECORDED_PROCESS_STARTED_AT = FieldName.of("recorded_process_started_at");
    static final FieldName REGISTERED_AT = FieldName.of("registered_at");
    static final FieldName REGISTRATION_COUNT = FieldName.of("registration_count");
    static final FieldName REGISTRY = FieldName.of("registry");
    static final FieldName REMOTE_INSTANCES = FieldName.of("remote_instances");
    static final FieldName REGISTRY_PATH = FieldName.of("registry_path");
    static final FieldName ROLE = FieldName.of("role");
    static final FieldName RUNNING_MEMBER_COUNT = FieldName.of("running_member_count");
    static final FieldName RUNTIME_ID = FieldName.of("runtime_id");
    static final FieldName SERVER_PROCESS_COUNT = FieldName.of("server_process_count");
    static final FieldName SERVER_PID = FieldName.of("server_pid");
    static final FieldName SERVER_COMMAND = FieldName.of("server_command");
    static final FieldName SERVED_PIDS = FieldName.of("served_pids");
    static final FieldName SINGLE_COHORT = FieldName.of("single_cohort");
    static final FieldName SINGLE_REVISION = FieldName.of("single_revision");
    static final FieldName STALE_REGISTRATIONS = FieldName.of("stale_registrations");
    static final FieldName STARTED_AT = FieldName.of("started_at");
    static final FieldName STARTUP_HEAD = FieldName.of("startup_head");
    static final FieldName STARTUP_HEADS = FieldName.of("startup_heads");
    static final FieldName STATE = FieldName.of("state");
    static final FieldName TRANSPORT = FieldName.of("transport");
    static final FieldName UNEXPECTED_MEMBERS = FieldName.of("unexpected_members");
    static final FieldName UNREGISTERED_PROCESSES = FieldName.of("unregistered_processes");
    static final FieldName UNVERIFIED_REGISTRATIONS = FieldName.of("unverified_registrations");

    private VerdictFields() {
    }
}
