import Crypto
import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// A software device key standing in for a bound device's Secure Enclave key (B5, B6, A11).
struct DeviceKey {
    let privateKey: P256.Signing.PrivateKey

    init(_ privateKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey()) { self.privateKey = privateKey }

    /// The API form: base64url of the 65-byte X9.63 point.
    var publicKey: String { Base64URL.encode(privateKey.publicKey.x963Representation) }

    /// A signature of the `login` message for a device-credential challenge.
    func signLogin(challengeID: String, challenge: String) throws -> String {
        try DeviceSignature.sign(
            try SignedMessage.login(challengeID: challengeID, challenge: challenge), with: privateKey)
    }

    /// A signature of the `verify:{action}:{digest}` message for a verification's challenge.
    func signVerification(action: String, parameters: [String: String], challengeID: String, challenge: String) throws
        -> String
    {
        let message = try SignedMessage.verification(
            action: action, parameters: parameters, challengeID: challengeID, challenge: challenge)
        return try DeviceSignature.sign(message, with: privateKey)
    }
}

/// An activated authenticator app: the enrolled secret and the recovery codes shown at activation.
struct Authenticator {
    let secret: [UInt8]
    let recoveryCodes: [String]

    var totp: TOTP { TOTP(secret: secret) }

    /// The code the app shows at `date`.
    func code(at date: Date) -> String { totp.code(at: date) }

    /// A six-digit code that matches no step within ±2 of `date` (so it is wrong whatever the window).
    func wrongCode(at date: Date) -> String {
        let valid = Set((-2...2).map { totp.code(at: date.addingTimeInterval(Double($0) * 30)) })
        var candidate = 0
        while valid.contains(String(format: "%06d", candidate)) { candidate += 1 }
        return String(format: "%06d", candidate)
    }
}

/// Names and values the verification tests share.
enum VerificationSamples {
    static let fundPassword = "246810"
    static let withdrawal = ["amount": "100.00", "address": "TX1"]
}

extension TestServer {
    // MARK: Mail and events

    /// Every message the development outbox holds for `address`, oldest first.
    func mails(to address: String = "alice@example.com") async -> [OutgoingMessage] {
        await app.latch.outbox?.messages(to: address) ?? []
    }

    /// The types of the user's security events on the first page, newest first; an aggregated
    /// failure row (issue 20 §5) counts as many times as it stands for.
    func eventTypes(bearer: String) async throws -> [String] {
        let events = try await send(.GET, "/v1/security-events", bearer: bearer)
        try #require(events.status == 200, "security events: \(events.text)")
        return events.securityEventTypes
    }

    // MARK: Second factors

    /// Sets the first fund password (the session must be recent).
    func setFundPassword(_ value: String = VerificationSamples.fundPassword, bearer: String) async throws {
        let set = try await send(.PUT, "/v1/fund-password", json: ["fund_password": value], bearer: bearer)
        try #require(set.status == 204, "set fund password: \(set.text)")
    }

    /// Enrols TOTP and activates it with the code at the server's current time.
    func activateTOTP(bearer: String) async throws -> Authenticator {
        let enrolled = try await send(.POST, "/v1/mfa/totp", body: nil, bearer: bearer)
        try #require(enrolled.status == 200, "enrol TOTP: \(enrolled.text)")
        let enrollment = try enrolled.decode(TOTPEnrollment.self)
        let secret = try #require(Base32.decode(enrollment.secret))
        let activated = try await send(
            .POST, "/v1/mfa/totp/activate", json: ["code": TOTP(secret: secret).code(at: clock.now)], bearer: bearer)
        try #require(activated.status == 200, "activate TOTP: \(activated.text)")
        return Authenticator(secret: secret, recoveryCodes: try activated.decode(TOTPActivated.self).recoveryCodes)
    }

    // MARK: Device credentials

    /// Binds `key` for the signed-in user; returns the credential id.
    func bindDevice(_ key: DeviceKey, name: String = "Alice's iPhone", bearer: String) async throws -> String {
        let bound = try await send(
            .POST, "/v1/device-credentials",
            json: ["public_key": key.publicKey, "device_name": name, "biometry": "face_id"],
            bearer: bearer)
        try #require(bound.status == 201, "bind device: \(bound.text)")
        return try bound.decode(DeviceCredentialCreated.self).credentialId
    }

    /// A fresh login challenge for a bound credential.
    func loginChallenge(for credentialID: String) async throws -> SignatureChallengeInfo {
        let issued = try await send(.POST, "/v1/device-credentials/\(credentialID)/challenges", body: nil)
        try #require(issued.status == 201, "login challenge: \(issued.text)")
        return try issued.decode(SignatureChallengeInfo.self)
    }

    /// The `device_signature` grant.
    func deviceSignatureGrant(challengeID: String, signature: String, device: [String: String]? = nil) async throws
        -> TestResponse
    {
        var body: [String: Any] = [
            "grant_type": "device_signature", "challenge_id": challengeID, "signature": signature
        ]
        if let device { body["device"] = device }
        return try await send(.POST, "/v1/token", json: body)
    }

    // MARK: Verifications

    /// `POST /v1/verifications`.
    func startVerification(
        _ action: String = "withdrawal", parameters: [String: String] = VerificationSamples.withdrawal, bearer: String
    ) async throws -> TestResponse {
        try await send(
            .POST, "/v1/verifications", json: ["action": action, "parameters": parameters] as [String: Any],
            bearer: bearer)
    }

    /// `POST /v1/verifications`, required to succeed.
    func startedVerification(
        _ action: String = "withdrawal", parameters: [String: String] = VerificationSamples.withdrawal, bearer: String
    ) async throws -> VerificationStarted {
        let started = try await startVerification(action, parameters: parameters, bearer: bearer)
        try #require(started.status == 201, "start verification: \(started.text)")
        return try started.decode(VerificationStarted.self)
    }

    /// `POST /v1/verifications/{id}/attempts`.
    func attempt(_ verificationID: String, _ attempt: VerificationAttempt, bearer: String) async throws -> TestResponse
    {
        try await send(.POST, "/v1/verifications/\(verificationID)/attempts", json: attempt, bearer: bearer)
    }

    /// Passes a verification of `action` with the fund password; returns the verification token.
    func verificationToken(
        _ action: String = "withdrawal", parameters: [String: String] = VerificationSamples.withdrawal,
        fundPassword: String = VerificationSamples.fundPassword, bearer: String
    ) async throws -> String {
        let started = try await startedVerification(action, parameters: parameters, bearer: bearer)
        let passed = try await attempt(
            started.verificationId, VerificationAttempt(method: .fundPassword, fundPassword: fundPassword),
            bearer: bearer)
        try #require(passed.status == 200, "fund password attempt: \(passed.text)")
        return try passed.decode(VerificationPassed.self).verificationToken
    }

    /// `POST /v1/verifications/redeem`.
    func redeem(
        _ token: String, action: String = "withdrawal", parameters: [String: String] = VerificationSamples.withdrawal,
        bearer: String
    ) async throws -> TestResponse {
        try await send(
            .POST, "/v1/verifications/redeem",
            json: ["verification_token": token, "action": action, "parameters": parameters] as [String: Any],
            bearer: bearer)
    }
}

extension TestResponse {
    /// `locked_until` as a date.
    var lockedUntil: Date? { errorBody?.lockedUntil }

    /// The `events` of a security-event page, decoded; none when the body is not a page.
    var securityEvents: [SecurityEventInfo] { (try? decode(SecurityEventPage.self))?.events ?? [] }

    /// The types of a security-event page, newest first; an aggregated row repeated `count` times.
    var securityEventTypes: [String] {
        securityEvents.flatMap { Array(repeating: $0.type, count: $0.count ?? 1) }
    }
}
