import FluentKit
import Foundation
import HTTPTypes
import LatchCore
import NIOHTTP1

/// The web's side of issue 43 §1: `POST /v1/token` with grant `approval` polls an approval by its poll
/// secret and answers as RFC 8628 §3.5 does, in the API's error format (400, the RFC's error code in
/// `reasons`): `authorization_pending`, `slow_down`, `access_denied`, `expired_token`. Once approved,
/// one poll gets the tokens of a new session for the approving user; the approval is then used up.
struct ApprovalSignIn: Sendable {
    let latch: LatchServices
    let db: any Database
    /// The web client's address, for its new session.
    let clientIP: String?
    let language: LatchLanguage
    /// The DPoP key the poll proved; the new session is bound to it.
    var dpopKey: String? = nil

    /// Still waiting for the phone.
    static let pending = LatchError(.verificationRequired, status: .badRequest, reasons: ["authorization_pending"])
    /// Polled within half of `interval` after the last poll.
    static let slowDown = LatchError(
        .rateLimited, status: .badRequest, reasons: ["slow_down"], retryAfter: Approval.interval)
    /// Denied by the phone, or ended by a refusal.
    static let denied = LatchError(.verificationInvalid, status: .badRequest, reasons: ["access_denied"])
    /// Expired, or already used.
    static let expired = LatchError(.wrongCode, status: .badRequest, reasons: ["expired_token"])

    func collect(approvalID: String, pollSecret: String) async throws -> TokenResponse {
        let now = latch.clock.now
        let seconds = now.timeIntervalSince1970
        let store = ApprovalStore()
        let service = ApprovalService(latch: latch, db: db)
        guard let id = UUID(uuidString: approvalID), let approval = try await store.find(id, on: db),
            SecretBox.constantTimeEquals(service.pollHash(pollSecret, of: id), approval.pollSecretHash)
        else { throw LatchError.wrongCredentials() }
        try await store.polled(id, now: seconds, on: db)
        switch approval.state {
        case .denied, .ended: throw Self.denied
        case .consumed: throw Self.expired
        case .pending, .approved: break
        }
        guard approval.expiresAt > seconds else { throw Self.expired }
        guard approval.state == .approved, let userID = approval.userID else {
            // Faster than half the interval is slow_down: a client that waits `interval` is never told so by jitter.
            if let last = approval.lastPolledAt, seconds - last < Double(Approval.interval) / 2 { throw Self.slowDown }
            throw Self.pending
        }
        // Asked with a DPoP key: only a poll proving the same key collects (a stolen poll secret is not enough).
        if let bound = approval.dpopJKT {
            guard let dpopKey, SecretBox.constantTimeEquals(dpopKey, bound) else {
                throw LatchError.dpopInvalid(dpopKey == nil ? "missing" : "wrong_key", atTokenEndpoint: true)
            }
        }
        guard let user = try await latch.accounts.user(userID, on: db) else { throw Self.denied }
        try AccountDisabling.refuse(user)
        try AccountFreezing.refuse(user)
        let phone = try await approval.approverSessionID.asyncMap { try await SessionStore().find($0, on: db) } ?? nil
        let (latch, clientIP, language, dpopKey) = (self.latch, self.clientIP, self.language, self.dpopKey)
        // The session, the device it remembers and the owner's notice commit together, or none does.
        return try await db.tracedTransaction { database in
            guard try await store.consume(id, now: seconds, on: database) else { throw Self.expired }
            let screening = NewDeviceScreening(latch: latch, db: database, clientIP: clientIP, language: language)
            // The phone's verification screened this device: no emailed code for it.
            let known = try await approval.deviceID.asyncMap { try await screening.isKnown($0, of: userID) } ?? false
            try await screening.rememberDevice(approval.deviceID, of: userID)
            let device = DeviceInfo(id: approval.deviceID, name: approval.deviceName, platform: approval.clientPlatform)
            let started = try await latch.startSession(
                for: user, device: device, ip: clientIP, method: .phoneApproval, boundTo: dpopKey, now: now,
                on: database)
            if !known {
                try await latch.events.record(
                    .newDeviceSignedIn, user: userID, session: started.session.id, ip: clientIP, now: seconds,
                    on: database)
            }
            if user.notifyNewDevices, let address = user.email {
                let mail = MailTemplates.phoneApprovedSignIn(
                    client: approval.clientName ?? approval.deviceName, platform: approval.clientPlatform,
                    ip: clientIP, phone: phone?.deviceName ?? phone?.deviceModel, language: language)
                try await latch.sendSecurityNotice(
                    .newDeviceSignIn, mail, to: address, user: userID, charge: .free, mayBeFolded: false, on: database)
            }
            return started.tokens
        }
    }
}

extension Optional {
    /// `map` with an async transform.
    fileprivate func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
