import FluentKit
import Foundation
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
    /// Polled faster than `interval`.
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
            if let last = approval.lastPolledAt, seconds - last < Double(Approval.interval) { throw Self.slowDown }
            throw Self.pending
        }
        guard let user = try await User.find(userID, on: db) else { throw Self.denied }
        try AccountDisabling.refuse(user)
        try AccountFreezing.refuse(user)
        guard try await store.consume(id, now: seconds, on: db) else { throw Self.expired }
        // The phone's verification screened this device: no emailed code for it.
        try await NewDeviceScreening(latch: latch, db: db, clientIP: clientIP, language: language)
            .rememberDevice(approval.deviceID, of: userID)
        let device = DeviceInfo(id: approval.deviceID, name: approval.deviceName, platform: approval.clientPlatform)
        return try await latch.startSession(
            for: user, device: device, ip: clientIP, method: .phoneApproval, boundTo: dpopKey, now: now, on: db
        ).tokens
    }
}
