import Foundation

/// One approval push as the durable queue keeps it (`DeliveryJobPayload.push`): to which phone (its
/// device credential, APNs device token and environment), the visible text (already localized: it names
/// only the kind of action), and the verification it asks about. Stored sealed, like every payload.
struct APNsPush: Codable, Sendable, Equatable {
    /// The device credential that registered `token` (its token is cleared when APNs says it is gone).
    var credentialID: UUID
    /// The APNs device token, lowercase hex.
    var token: String
    /// `production` or `development` (`PushEnvironment`): which APNs host takes it.
    var environment: String
    var title: String
    var body: String
    /// The verification to approve: the notification's custom data and its `apns-collapse-id`.
    var verificationID: UUID
    /// When the verification expires (seconds since 1970): `apns-expiration`, and no send after it.
    var expiresAt: Int

    enum CodingKeys: String, CodingKey {
        case credentialID = "credential_id"
        case token, environment, title, body
        case verificationID = "verification_id"
        case expiresAt = "expires_at"
    }

    /// The notification APNs delivers (`{"aps": {...}, "latch": {...}}`): the visible text, the default
    /// sound, the app's approval category, and only the verification's id as custom data (amounts and
    /// addresses are fetched by the unlocked app, docs/APPROVALS.md).
    var notification: Data {
        let document: [String: Any] = [
            "aps": [
                "alert": ["title": title, "body": body], "sound": "default", "category": Self.category
            ] as [String: Any],
            "latch": ["kind": "verification", "verification_id": verificationID.uuidString.lowercased()]
        ]
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
    }

    /// The notification category the app registers with its approve / deny actions.
    static let category = "latch.approval"
}

/// Which APNs host a device token belongs to: the app's build decides (`aps-environment`).
enum PushEnvironment: String, Sendable, CaseIterable {
    case production
    case development
}
