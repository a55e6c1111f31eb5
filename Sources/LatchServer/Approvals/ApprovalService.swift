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
    /// poll secret. Only hashes of the two secrets are kept. `dpopKey`: the key the web proved, which the
    /// poll must prove again and the session is bound to.
    func create(_ request: ApprovalRequest, ip: String?, dpopKey: String? = nil) async throws -> ApprovalCreated {
        guard try request.kind.required("kind") == Approval.signInKind else {
            throw LatchError.invalid("kind", ["unknown"])
        }
        let now = latch.clock.epochSeconds
        let id = UUID()
        let scanSecret = RandomSecrets.token()
        let pollSecret = RandomSecrets.token()
        let match = NumberMatch.random()
        let approval = Approval(
            id: id, kind: Approval.signInKind, scanSecretHash: scanHash(scanSecret, of: id),
            pollSecretHash: pollHash(pollSecret, of: id), number: match.number, choices: match.choices,
            clientName: Validate.deviceName(request.client?.name),
            clientPlatform: Validate.deviceName(request.client?.platform),
            deviceID: Validate.deviceName(request.device?.id), deviceName: Validate.deviceName(request.device?.name),
            ip: ip, createdAt: now, expiresAt: now + Approval.lifetime, state: .pending, scanFailures: 0,
            lastPolledAt: nil, userID: nil, approverSessionID: nil, dpopJKT: dpopKey)
        try await store.insert(approval, on: db)
        let issuer = latch.config.issuer.hasSuffix("/") ? String(latch.config.issuer.dropLast()) : latch.config.issuer
        return ApprovalCreated(
            approvalId: Self.text(id), qrUrl: "\(issuer)/approve/\(Self.text(id))#s=\(scanSecret)",
            number: match.number,
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
    /// recorded and mailed to the owner; a denial ends it. Only a phone with a bound device key decides
    /// (409 NO_VERIFICATION_METHOD otherwise), and a frozen, disabled or held account approves nothing.
    func decide(_ id: UUID?, _ decision: ApprovalDecision, scanSecret: String?, by caller: Caller) async throws
        -> ApprovalDecided
    {
        let approval = try await pending(id, scanSecret: scanSecret)
        guard let user = try await latch.accounts.user(caller.user, on: db) else { throw LatchError.sessionExpired }
        try AccountDisabling.refuse(user)
        try AccountFreezing.refuse(user)
        guard try await !latch.deviceCredentials.offered(of: caller.user, on: db).isEmpty else {
            throw LatchError(.noVerificationMethod, field: "device_key")
        }
        let now = latch.clock.epochSeconds
        switch decision {
        case .deny:
            guard
                try await store.decide(
                    approval.id, .denied, user: caller.user, session: caller.session, now: now, on: db)
            else { throw LatchError.notFound }
            try await record(.approvalDenied, approval, by: caller, now: now)
            return ApprovalDecided(approvalId: Self.text(approval.id), state: Approval.State.denied.rawValue)
        case .approve(let number, let token):
            guard let token else { throw LatchError(.verificationRequired, field: "verification_token") }
            // A held account lets no new device in, whatever the hold's actions (issue 43 §1).
            if let hold = try await latch.holds.running(of: caller.user, now: now, on: db) {
                throw latch.holds.refusal(hold, action: Self.approveAction.rawValue)
            }
            guard SecretBox.constantTimeEquals(number, approval.number) else {
                let (latch, store) = (self.latch, self.store)
                try await db.tracedTransaction { database in
                    _ = try await store.decide(
                        approval.id, .ended, user: caller.user, session: caller.session, now: now, on: database)
                    try await ApprovalService(latch: latch, db: database).record(
                        .approvalWrongNumber, approval, by: caller, now: now)
                    if let address = user.email {
                        let mail = MailTemplates.approvalWrongNumber(
                            client: approval.clientName, language: caller.language)
                        try await latch.mailNotice(mail, to: address, user: caller.user, now: now, on: database)
                    }
                }
                throw LatchError(.wrongCode, field: "number", attemptsRemaining: 0)
            }
            _ = try await Redemption(latch: latch).redeem(
                token, action: Self.approveAction, parameters: ["approval_id": Self.text(approval.id)], by: caller,
                on: db)
            guard
                try await store.decide(
                    approval.id, .approved, user: caller.user, session: caller.session, now: now, on: db)
            else { throw LatchError.notFound }
            try await record(.signInApproved, approval, by: caller, now: now)
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

    /// The decision on the owner's security log, naming the web client that asked.
    private func record(_ kind: SecurityEventKind, _ approval: Approval, by caller: Caller, now: Double)
        async throws
    {
        let client = [approval.clientName, approval.clientPlatform].compactMap { $0 }.joined(separator: " ")
        try await latch.events.record(
            kind, user: caller.user, session: caller.session, ip: caller.ip, now: now,
            detail: "approval \(Self.text(approval.id))" + (client.isEmpty ? "" : " \(client)"), on: db)
    }

    func scanHash(_ secret: String, of id: UUID) -> String {
        latch.secrets.keyedHash(secret, context: "approval-scan:\(Self.text(id))")
    }

    func pollHash(_ secret: String, of id: UUID) -> String {
        latch.secrets.keyedHash(secret, context: "approval-poll:\(Self.text(id))")
    }

    static func text(_ id: UUID) -> String { id.uuidString.lowercased() }

}
