import FluentKit

/// Issue 43 §2: `push_approvals`, one row per verification that asked to be approved on the phone. The
/// verification token waiting for the initiator is sealed (`SecretBox`); `state` is a `PushApproval.State`.
struct CreatePushApprovals: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(PushApprovalStore.schema)
            .field("id", .uuid, .identifier(auto: false))
            .field("user_id", .uuid, .required, .references("users", "id", onDelete: .cascade))
            .field("initiator_session_id", .uuid, .required)
            .field("action", .string, .required)
            .field("parameters", .string, .required)
            .field("number", .string, .required)
            .field("choices", .string, .required)
            .field("state", .string, .required)
            .field("created_at", .double, .required)
            .field("expires_at", .double, .required)
            .field("sealed_token", .string)
            .field("decided_at", .double)
            .create()
        try await database.createIndex("push_approvals_user_id", on: PushApprovalStore.schema, columns: "user_id")
        try await database.createIndex("push_approvals_expires_at", on: PushApprovalStore.schema, columns: "expires_at")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(PushApprovalStore.schema).delete()
    }
}
