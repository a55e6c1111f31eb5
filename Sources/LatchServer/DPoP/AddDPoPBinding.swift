import FluentKit
import SQLKit

/// Issue 31 §1 (DPoP):
///
/// - `sessions.dpop_jkt`: the thumbprint (RFC 7638) of the key the session is bound to; NULL: a bearer
///   session. Set when the session starts, never changed.
/// - `dpop_proofs_used`: the proofs the token endpoint accepted (SHA-256 of the key's thumbprint and the
///   proof's `jti`) until they leave the accepted window, so no instance accepts one twice.
struct AddDPoPBinding: AsyncMigration {
    func prepare(on database: any Database) async throws {
        try await database.schema(Session.schema).field("dpop_jkt", .string).update()
        try await database.schema(UsedDPoPProofStore.schema)
            .field("key_hash", .string, .required)
            .field("expires_at", .double, .required)
            .unique(on: "key_hash")
            .create()
        try await database.createIndex(
            "dpop_proofs_used_expires_at", on: UsedDPoPProofStore.schema, columns: "expires_at")
    }

    func revert(on database: any Database) async throws {
        try await database.schema(UsedDPoPProofStore.schema).delete()
        try await database.schema(Session.schema).deleteField("dpop_jkt").update()
    }
}
