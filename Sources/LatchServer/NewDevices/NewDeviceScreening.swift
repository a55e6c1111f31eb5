import FluentKit
import Foundation
import LatchCore

/// C8: a sign-in from a device id the account has never used is unusual.
/// The owner is told by mail; with "verify unusual sign-ins" on (the default) the sign-in stops at
/// 403 VERIFICATION_REQUIRED with a login challenge, finished by grant `login_challenge` with a
/// mailed code (or a TOTP code when 2FA is on). A sign-in without `device.id` counts as unknown.
///
/// Only the device that creates an account (registration, or the first Apple / WeChat / SMS sign-in)
/// is trusted without a check, and it is remembered there. An account that has ever had a session
/// has no "first device" any more (issue 10 §2): before, an account registered or first signed in
/// without a `device.id` knew no device, so whatever id came next was trusted silently.
///
/// Without HTTP: the services make one from their caller and database, tests from an
/// application's services and a database.
struct NewDeviceScreening {
    let latch: LatchServices
    let db: any Database
    /// The client's address, for the security events and the "new device" mail.
    let clientIP: String?
    /// The language of the mails.
    let language: LatchLanguage

    /// Lets a sign-in of `user` from `device` through, or throws VERIFICATION_REQUIRED.
    func screen(_ user: User, device: DeviceInfo?) async throws {
        let userID = try user.requireID()
        let deviceID = Validate.deviceName(device?.id)
        if let deviceID, try await isKnown(deviceID, of: userID) { return }
        let known = try await KnownDeviceStore().count(of: userID, on: db)
        if known == 0, try await !hasEverSignedIn(userID) {
            // The first device of an account that never had a session is not unusual.
            try await rememberDevice(deviceID, of: userID)
            return
        }
        guard user.verifyUnusualSignIns else {
            // The device is remembered only with its notice queued (issue 20 §1).
            try await db.tracedTransaction { database in
                let screening = NewDeviceScreening(latch: latch, db: database, clientIP: clientIP, language: language)
                try await screening.rememberDevice(deviceID, of: userID)
                try await screening.notice(user, device: device)
            }
            return
        }
        let challenge = try await startLoginChallenge(for: user, device: device)
        throw LatchError(
            .verificationRequired, challengeId: try challenge.requireID().uuidString.lowercased(),
            method: challenge.method)
    }

    static let challengeResendInterval: Double = 60

    /// Whether the account has had a session (revoked or expired ones count: they are never deleted).
    private func hasEverSignedIn(_ userID: UUID) async throws -> Bool {
        try await SessionStore().hasAny(of: userID, on: db)
    }

    /// Whether the user's known devices hold `deviceID` (compared by its keyed hash, `KnownDevice.storedID`).
    func isKnown(_ deviceID: String, of userID: UUID) async throws -> Bool {
        let stored = KnownDevice.storedID(of: deviceID, user: userID, secrets: latch.secrets)
        return try await KnownDeviceStore().contains(stored, of: userID, on: db)
    }

    /// Records `deviceID` as known for the user, as its keyed hash (no-op without an id or when known).
    func rememberDevice(_ deviceID: String?, of userID: UUID) async throws {
        guard let deviceID else { return }
        let stored = KnownDevice.storedID(of: deviceID, user: userID, secrets: latch.secrets)
        try await KnownDeviceStore().remember(stored, of: userID, now: latch.clock.epochSeconds, on: db)
    }

    /// Records the event and mails "a new device signed in" unless the owner turned that notice off
    /// ("新设备登录时通知", `User.notifyNewDevices`; the code check, when on, is not affected). `db` must be the
    /// transaction that also remembers the device (and starts the session, if any): issue 20 §1.
    func notice(_ user: User, device: DeviceInfo?, session: UUID? = nil) async throws {
        try await latch.events.record(
            .newDeviceSignedIn, user: user.id, session: session, ip: clientIP, now: latch.clock.epochSeconds, on: db)
        guard user.notifyNewDevices, let email = user.email else { return }
        let name = Validate.deviceName(device?.name) ?? Validate.deviceName(device?.model)
        try await latch.sendSecurityNotice(
            .newDeviceSignIn, MailTemplates.newDeviceSignedIn(deviceName: name, ip: clientIP, language: language),
            to: email, user: user.requireID(), charge: .free, mayBeFolded: true, on: db)
    }

    private func startLoginChallenge(for user: User, device: DeviceInfo?) async throws -> LoginChallenge {
        let userID = try user.requireID()
        let now = latch.clock.epochSeconds
        // At most one new challenge (and code mail) a minute per device: a newer sign-in of the same
        // user from the same device reuses the pending one (another device never gets its challenge).
        let deviceID = Validate.deviceName(device?.id)
        if let recent = try await latch.loginChallenges.pending(
            of: userID, deviceID: deviceID, expiringAfter: now + LoginChallenge.lifetime - Self.challengeResendInterval,
            on: db)
        {
            return recent
        }
        let useTOTP = try await latch.totp.isActive(user: userID, on: db)
        let challenge = LoginChallenge()
        let id = UUID()
        challenge.id = id
        challenge.userID = userID
        challenge.method = (useTOTP ? LoginChallengeMethod.totp : .email).rawValue
        challenge.expiresAt = now + LoginChallenge.lifetime
        challenge.attempts = 0
        challenge.deviceID = deviceID
        challenge.deviceName = Validate.deviceName(device?.name)
        challenge.deviceModel = Validate.deviceName(device?.model)
        challenge.platform = Validate.deviceName(device?.platform)
        var code: String?
        if !useTOTP {
            // At most 10 sign-in codes a day per account, however often a known password is tried.
            try await latch.chargeCodeSend(.signInCodeSends(userID), on: db)
            let fresh = RandomSecrets.sixDigitCode()
            challenge.codeHash = latch.secrets.keyedHash(
                fresh, context: "login-challenge:\(id.uuidString.lowercased())")
            code = fresh
        }
        try await latch.loginChallenges.create(challenge, on: db)
        if let code, let email = user.email {
            try await latch.send(MailTemplates.unusualSignInCode(code, language: language), to: email, code: code)
        }
        return challenge
    }
}
