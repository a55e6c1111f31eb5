import FluentKit
import Foundation
import LatchCore

/// Approving an action on the phone (issue 43 §2), without HTTP: the phone lists what waits for it,
/// views one (the action, its parameters, three numbers, a fresh challenge for its device key) and
/// denies it; the initiator polls the same view for its token. Approving is an attempt at the
/// verification (`VerificationService`), which checks the number.
struct PushApprovalService: Sendable {
    let latch: LatchServices
    let caller: Caller
    let db: any Database

    private var store: PushApprovalStore { PushApprovalStore() }

    /// The caller's push approvals still waiting for a phone.
    func list() async throws -> PendingPushApprovals {
        let now = latch.clock.epochSeconds
        var entries: [PendingPushApproval] = []
        for approval in try await store.pending(of: caller.user, now: now, on: db) {
            let record = try await latch.verifications.record(approval.id, on: db)
            entries.append(
                PendingPushApproval(
                    verificationId: Self.text(approval.id), action: approval.action, amount: record?.amount,
                    unit: record?.unit, target: record?.target,
                    createdAt: Date(timeIntervalSince1970: approval.createdAt),
                    expiresAt: Date(timeIntervalSince1970: approval.expiresAt)))
        }
        return PendingPushApprovals(approvals: entries)
    }

    /// Verification `id` as the caller may see it: the phone gets the numbers and the live offer for its
    /// device key; the initiator gets the state and, once after the phone approved, the token.
    func view(_ id: UUID?) async throws -> PushApprovalDetails {
        let now = latch.clock.epochSeconds
        guard let id, let approval = try await store.find(id, user: caller.user, on: db),
            let record = try await latch.verifications.record(id, on: db)
        else { throw LatchError.notFound }
        let state =
            approval.state == .pending && approval.expiresAt <= now ? "expired" : approval.state.rawValue
        var details = PushApprovalDetails(
            verificationId: Self.text(id), action: approval.action, parameters: approval.parameters,
            amount: record.amount, unit: record.unit, target: record.target, state: state, approveOn: "device",
            expiresAt: Date(timeIntervalSince1970: approval.expiresAt))
        if caller.session == approval.initiatorSession {
            if let sealed = try await store.collect(id, session: caller.session, on: db) {
                details.verificationToken = String(decoding: try latch.secrets.open(sealed), as: UTF8.self)
            }
            return details
        }
        details.numbers = approval.choices
        if state == "pending" { details.methods = try await phoneOffers(for: id, now: now) }
        return details
    }

    /// Denies push approval `id`: it ends, its verification takes no more attempts, and the owner is
    /// mailed with a freeze link, all in one transaction.
    func deny(_ id: UUID?) async throws -> PushApprovalDenied {
        let now = latch.clock.epochSeconds
        guard let id, let approval = try await store.find(id, user: caller.user, on: db) else {
            throw LatchError.notFound
        }
        let (latch, caller, store) = (self.latch, self.caller, self.store)
        let email = try await latch.accounts.user(caller.user, on: db)?.email
        try await db.tracedTransaction { database in
            guard try await store.decide(approval.id, .denied, now: now, on: database) else {
                throw LatchError.notFound
            }
            try await latch.verifications.exhaust(approval.id, on: database)
            try await latch.events.record(
                .approvalDenied, user: caller.user, session: caller.session, ip: caller.ip, now: now,
                detail: "verification \(Self.text(approval.id)) \(approval.action)", on: database)
            if let email {
                let mail = MailTemplates.pushApprovalDenied(action: approval.action, language: caller.language)
                try await latch.mailNotice(mail, to: email, user: caller.user, now: now, on: database)
            }
        }
        return PushApprovalDenied(verificationId: Self.text(id), state: PushApproval.State.denied.rawValue)
    }

    /// The biometric offer for the phone: the user's device keys and the verification's live challenge
    /// (a new one when the initiator's has been used or has expired).
    private func phoneOffers(for id: UUID, now: Double) async throws -> [VerificationMethodOffer] {
        let credentials = try await latch.deviceCredentials.offered(of: caller.user, on: db)
        guard !credentials.isEmpty else { return [] }
        let challenge: SignatureChallenge
        if let live = try await latch.challenges.live(verification: id, now: now, on: db) {
            challenge = live
        } else {
            challenge = try await latch.challenges.create(verification: id, now: now, on: db)
        }
        return [
            VerificationMethodOffer(
                type: .biometric, credentialIds: credentials.map { $0.id.uuidString.lowercased() },
                challengeId: try challenge.requireID().uuidString.lowercased(), challenge: challenge.challenge)
        ]
    }

    static func text(_ id: UUID) -> String { id.uuidString.lowercased() }
}
