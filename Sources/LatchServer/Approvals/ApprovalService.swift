import FluentKit
import Foundation
import LatchCore

/// Sign in on the web with the phone (issue 43 §1), without HTTP: a client asks for an approval, the
/// signed-in phone that scanned its code views and decides it. The web's polling is `ApprovalSignIn`.
struct ApprovalService: Sendable {
    let latch: LatchServices
    let db: any Database

    /// The step-up action the phone's approval is proven for, bound to the approval id.
    static let approveAction = VerificationAction.approveSignIn

    private var store: ApprovalStore { ApprovalStore() }

    /// Starts an approval for the web client at `ip`: answers the code's URL, the page's number and the
    /// poll secret. Only hashes of the two secrets are kept.
    func create(_ request: ApprovalRequest, ip: String?) async throws -> ApprovalCreated {
        guard try request.kind.required("kind") == Approval.signInKind else {
            throw LatchError.invalid("kind", ["unknown"])
        }
        let now = latch.clock.epochSeconds
        let id = UUID()
        let scanSecret = RandomSecrets.token()
        let pollSecret = RandomSecrets.token()
        let number = Self.twoDigits()
        var choices: Set<String> = [number]
        while choices.count < 3 { choices.insert(Self.twoDigits()) }
        let approval = Approval(
            id: id, kind: Approval.signInKind, scanSecretHash: scanHash(scanSecret, of: id),
            pollSecretHash: pollHash(pollSecret, of: id), number: number, choices: Array(choices).shuffled(),
            clientName: Validate.deviceName(request.client?.name),
            clientPlatform: Validate.deviceName(request.client?.platform),
            deviceID: Validate.deviceName(request.device?.id), deviceName: Validate.deviceName(request.device?.name),
            ip: ip, createdAt: now, expiresAt: now + Approval.lifetime, state: .pending, scanFailures: 0,
            lastPolledAt: nil, userID: nil, approverSessionID: nil)
        try await store.insert(approval, on: db)
        let issuer = latch.config.issuer.hasSuffix("/") ? String(latch.config.issuer.dropLast()) : latch.config.issuer
        return ApprovalCreated(
            approvalId: Self.text(id), qrUrl: "\(issuer)/approve/\(Self.text(id))#s=\(scanSecret)", number: number,
            pollSecret: pollSecret, expiresIn: Int(Approval.lifetime), interval: Approval.interval)
    }

    /// What asks, for the phone that scanned the code (the scan secret proves it did).
    func view(_ id: UUID?, scanSecret: String?, by caller: Caller) async throws -> ApprovalDetails {
        let approval = try await pending(id, scanSecret: scanSecret)
        return ApprovalDetails(
            approvalId: Self.text(approval.id), kind: approval.kind, clientName: approval.clientName,
            clientPlatform: approval.clientPlatform, deviceName: approval.deviceName, ip: approval.ip,
            createdAt: Date(timeIntervalSince1970: approval.createdAt),
            expiresAt: Date(timeIntervalSince1970: approval.expiresAt),
            sameNetwork: approval.ip != nil && approval.ip == caller.ip, numbers: approval.choices)
    }

    /// The phone's decision. Approving takes the page's number and a verification token for
    /// `approve_sign_in` bound to the approval id; a wrong number ends the approval for good and is
    /// recorded for the owner; a denial ends it. A frozen or disabled account decides nothing.
    func decide(_ id: UUID?, _ decision: ApprovalDecision, scanSecret: String?, by caller: Caller) async throws
        -> ApprovalDecided
    {
        let approval = try await pending(id, scanSecret: scanSecret)
        guard let user = try await User.find(caller.user, on: db) else { throw LatchError.sessionExpired }
        try AccountDisabling.refuse(user)
        try AccountFreezing.refuse(user)
        let now = latch.clock.epochSeconds
        switch decision {
        case .deny:
            guard
                try await store.decide(
                    approval.id, .denied, user: caller.user, session: caller.session, now: now, on: db)
            else { throw LatchError.notFound }
            try await record("approval_denied", by: caller, now: now)
            return ApprovalDecided(approvalId: Self.text(approval.id), state: Approval.State.denied.rawValue)
        case .approve(let number, let token):
            guard let token else { throw LatchError(.verificationRequired, field: "verification_token") }
            guard SecretBox.constantTimeEquals(number, approval.number) else {
                _ = try await store.decide(
                    approval.id, .ended, user: caller.user, session: caller.session, now: now, on: db)
                try await record("approval_wrong_number", by: caller, now: now)
                if let address = user.email {
                    let mail = MailTemplates.approvalWrongNumber(client: approval.clientName, language: caller.language)
                    try await db.tracedTransaction { database in
                        try await latch.mailNotice(mail, to: address, user: caller.user, now: now, on: database)
                    }
                }
                throw LatchError(.wrongCode, field: "number", attemptsRemaining: 0)
            }
            _ = try await StepUp(latch: latch, caller: caller, db: db).redeem(
                token, action: Self.approveAction.rawValue, parameters: ["approval_id": Self.text(approval.id)])
            guard
                try await store.decide(
                    approval.id, .approved, user: caller.user, session: caller.session, now: now, on: db)
            else { throw LatchError.notFound }
            return ApprovalDecided(approvalId: Self.text(approval.id), state: Approval.State.approved.rawValue)
        }
    }

    /// The live pending approval `id` whose scan secret is `scanSecret`; a wrong secret counts toward the
    /// three that end it. Anything else is NOT_FOUND, which says nothing about the approval.
    private func pending(_ id: UUID?, scanSecret: String?) async throws -> Approval {
        let secret = try scanSecret.requiredNonEmpty("scan_secret")
        let now = latch.clock.epochSeconds
        guard let id, let approval = try await store.find(id, on: db), approval.state == .pending,
            approval.expiresAt > now
        else { throw LatchError.notFound }
        guard SecretBox.constantTimeEquals(scanHash(secret, of: id), approval.scanSecretHash) else {
            try await store.scanFailed(id, now: now, on: db)
            throw LatchError.notFound
        }
        return approval
    }

    /// A refusal on the owner's security log (`sign_in_failed` with the reason as its detail).
    private func record(_ detail: String, by caller: Caller, now: Double) async throws {
        try await latch.events.record(
            .signInFailed, user: caller.user, session: caller.session, ip: caller.ip, now: now, detail: detail, on: db)
    }

    func scanHash(_ secret: String, of id: UUID) -> String {
        latch.secrets.keyedHash(secret, context: "approval-scan:\(Self.text(id))")
    }

    func pollHash(_ secret: String, of id: UUID) -> String {
        latch.secrets.keyedHash(secret, context: "approval-poll:\(Self.text(id))")
    }

    static func text(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// Two random digits, `00`–`99`.
    static func twoDigits() -> String { String(format: "%02d", Int.random(in: 0...99)) }
}
