import FluentKit

/// Issue 43 §1: `approvals`, one row per sign-in a web or desktop client asks the phone to approve. The
/// scan and poll secrets are kept as keyed hashes only; `user_id` is the approving user (nil until the
/// phone decides); `state` is an `Approval.State`.
struct CreateApprovals: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ApprovalStore.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("kind", .string, .required)
            .field("scan_secret_hash", .string, .required)
            .field("poll_secret_hash", .string, .required)
            .field("number", .string, .required)
            .field("choices", .string, .required)
            .field("client_name", .string)
            .field("client_platform", .string)
            .field("device_id", .string)
            .field("device_name", .string)
            .field("ip", .string)
            .field("created_at", .double, .required)
            .field("expires_at", .double, .required)
            .field("state", .string, .required)
            .field("scan_failures", .int, .required)
            .field("last_polled_at", .double)
            .field("user_id", .uuid)
            .field("approver_session_id", .uuid)
            .field("decided_at", .double)
            .create()
        try await database.createIndex("approvals_expires_at", on: ApprovalStore.schema, columns: "expires_at")
        try await database.createIndex("approvals_user_id", on: ApprovalStore.schema, columns: "user_id")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ApprovalStore.schema).delete()
    }
}
