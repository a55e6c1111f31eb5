import FluentKit
import Foundation

/// A receiver key an operator made (issue 42 §2), as listed: never the key.
public struct SSFReceiverView: Codable, Sendable, Equatable {
    public let id: String
    public let audience: String
    public let description: String?
    public let createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, audience, description
        case createdAt = "created_at"
    }
}

/// A new receiver key, shown once.
public struct AddedSSFReceiver: Codable, Sendable, Equatable {
    public let receiver: SSFReceiverView
    /// `ssfk_…`: the receiver sends it as `Authorization: Bearer KEY`.
    public let key: String
}

/// Issue 42 §2: operators make SSF receiver keys beside `LATCH_SSF_RECEIVER_KEYS`, each call audited (action
/// `ssf_receiver_*`, the receiver's id as detail). Removing a key leaves its streams (remove them with the
/// event-stream calls).
extension AdminService {
    /// Adds a receiver whose streams' SETs carry `audience`; answers its key once.
    public func addSSFReceiver(audience: String, description: String?) async throws -> AddedSSFReceiver {
        guard !audience.isEmpty, audience.count <= 512 else { throw LatchError.invalid("audience", ["required"]) }
        if let description, description.count > 200 { throw LatchError.invalid("description", ["too_long"]) }
        let now = latch.clock.epochSeconds
        return try await audited("ssf_receiver_add", target: nil, detail: audience) {
            let made = try await SSFReceiverStore().add(
                audience: audience, description: description, now: now, on: database)
            return AddedSSFReceiver(
                receiver: SSFReceiverView(
                    id: made.receiver.id, audience: audience, description: description,
                    createdAt: Date(timeIntervalSince1970: now)),
                key: made.key)
        }
    }

    /// Every receiver key an operator made, oldest first.
    public func listSSFReceivers() async throws -> [SSFReceiverView] {
        try await SSFReceiverStore().list(on: database).map {
            SSFReceiverView(
                id: $0.id, audience: $0.audience, description: $0.description,
                createdAt: Date(timeIntervalSince1970: $0.createdAt))
        }
    }

    /// Removes a receiver key (404 when there is none): its receiver is refused from then on.
    public func removeSSFReceiver(_ id: String) async throws {
        try await audited("ssf_receiver_remove", target: nil, detail: id) {
            guard try await SSFReceiverStore().remove(id, on: database) else { throw LatchError.notFound }
        }
    }
}
