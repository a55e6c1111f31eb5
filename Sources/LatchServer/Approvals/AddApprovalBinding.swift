import FluentKit

/// Issue 43 §1: `approvals.dpop_jkt`, the thumbprint of the DPoP key the web client proved when it asked
/// for the approval (NULL: asked without DPoP). Only a poll proving that key collects the session.
struct AddApprovalBinding: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(ApprovalStore.schema).field("dpop_jkt", .string).update()
    }

    func revert(on database: any Database) async throws {
        try await database.schema(ApprovalStore.schema).deleteField("dpop_jkt").update()
    }
}
