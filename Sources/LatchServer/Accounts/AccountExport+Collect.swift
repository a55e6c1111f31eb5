import FluentKit
import Foundation
import LatchCore

extension AccountExport {
    /// Everything latchd holds about `userID` (issue 12 §1, `GET /v1/me/export`), read from the
    /// database. Never a secret: no password or fund-password hash, TOTP secret, recovery code,
    /// refresh token or Apple token, and for codes and budgets nothing at all (they only guard secrets).
    /// Known devices are listed as stored: keyed hashes, never an id that skips the new-device check.
    static func collect(
        userID: UUID, currentSession: UUID, now: Date, services: LatchServices, on database: any Database
    ) async throws
        -> AccountExport?
    {
        guard let user = try await services.accounts.user(userID, on: database), user.deletedAt == nil else {
            return nil
        }
        let sessions = try await SessionStore().all(of: userID, on: database)
        let credentials = try await services.deviceCredentials.all(of: userID, on: database)
        let passkeys = try await services.passkeys.all(of: userID, on: database)
        let devices = try await KnownDeviceStore().all(of: userID, on: database)
        let events = try await services.events.store.newest(of: userID, on: database)
        return AccountExport(
            exportedAt: now, user: try await user.profile(on: database),
            securitySettings: SecuritySettings(
                verifyUnusualSignIns: user.verifyUnusualSignIns, notifyNewDevices: user.notifyNewDevices),
            sessions: sessions.map { $0.info(current: currentSession) },
            deviceCredentials: credentials.map(\.info),
            passkeys: passkeys.map(\.info),
            knownDevices: devices.map {
                KnownDevice(deviceId: $0.deviceID, firstSeenAt: Date(timeIntervalSince1970: $0.firstSeenAt))
            },
            factors: try await Factors.collect(userID: userID, on: database),
            securityEvents: events.map(\.info))
    }
}

extension AccountExport.Factors {
    /// Which second factors `userID` has set up (for the export and `GET /v1/me/security-settings`).
    static func collect(userID: UUID, on database: any Database) async throws -> AccountExport.Factors {
        let totp = try await TOTPCredentialStore().find(of: userID, on: database)?.active == true
        let fundPassword = try await FundPasswordStore().find(of: userID, on: database) != nil
        let biometric = try await DeviceCredentialStore.count(of: userID, on: database) > 0
        var recoveryCodes = 0
        if totp {
            recoveryCodes = try await RecoveryCodeStore().unusedCount(of: userID, on: database)
        }
        return AccountExport.Factors(
            totp: totp, fundPassword: fundPassword, biometric: biometric, recoveryCodesRemaining: recoveryCodes)
    }
}
