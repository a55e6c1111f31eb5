import Fluent
import Foundation
import SQLKit

/// What a password reset or change ends besides sessions (issue 10 §2): whatever someone who knew
/// the old password, or held a session, may have left behind to get back in.
///
/// - A **reset** (the owner proved the mailbox, the password may be known to an attacker) ends every
///   device key (and its pending sign-in challenges), every known device, every pending login
///   challenge, every verification in progress and every unredeemed verification token.
/// - A **change** (from a signed-in session) ends the same for every *other* device: device keys
///   bound by another session, unless that session had this session's `device.id` (keys bound before
///   sessions were recorded count as another device's), known devices other than this session's
///   `device.id`, pending login challenges and unredeemed verification tokens.
///
/// Challenges and tokens are expired rather than deleted, so whatever counts them (daily caps) still
/// sees them. All in one transaction; each statement is a single conditional write.
enum PasswordRecoverySweep {
    /// Whose trust to end.
    enum Scope {
        /// Everything of the account.
        case reset
        /// Everything but the device of `session` (with `deviceID`, its `device.id`, if it sent one, and
        /// `knownDeviceID`, that id as `known_devices` stores it: `KnownDevice.storedID`).
        case change(keeping: UUID, deviceID: String?, knownDeviceID: String?)
    }

    /// What was ended.
    struct Outcome {
        var deviceKeysRemoved = 0
    }

    static func run(_ scope: Scope, user: UUID, now: Double, on database: any Database) async throws -> Outcome {
        try await database.transaction { database in
            let sql = database.sql
            let removedKeys: SQLQueryString
            let forgottenDevices: SQLQueryString
            switch scope {
            case .reset:
                removedKeys = "user_id = \(bind: user)"
                forgottenDevices = "user_id = \(bind: user)"
            case .change(let session, let deviceID?, let knownDeviceID):
                removedKeys = """
                    user_id = \(bind: user) AND (session_id IS NULL OR session_id NOT IN (
                      SELECT id FROM sessions WHERE user_id = \(bind: user) AND (id = \(bind: session) OR device_id = \(bind: deviceID))))
                    """
                forgottenDevices = "user_id = \(bind: user) AND device_id <> \(bind: knownDeviceID ?? "")"
            case .change(let session, nil, _):
                removedKeys = "user_id = \(bind: user) AND (session_id IS NULL OR session_id <> \(bind: session))"
                forgottenDevices = "user_id = \(bind: user)"
            }
            try await sql.raw(
                """
                DELETE FROM signature_challenges WHERE credential_id IN (SELECT id FROM device_credentials WHERE \(removedKeys))
                """
            ).run()
            let removed = try await sql.raw("DELETE FROM device_credentials WHERE \(removedKeys) RETURNING id").all()
            try await sql.raw("DELETE FROM known_devices WHERE \(forgottenDevices)").run()
            try await sql.raw(
                """
                UPDATE login_challenges SET expires_at = \(bind: now)
                WHERE user_id = \(bind: user) AND used_at IS NULL AND expires_at > \(bind: now)
                """
            ).run()
            try await sql.raw(
                """
                UPDATE verification_tokens SET expires_at = \(bind: now)
                WHERE user_id = \(bind: user) AND redeemed_at IS NULL AND expires_at > \(bind: now)
                """
            ).run()
            if case .reset = scope {
                try await sql.raw(
                    """
                    DELETE FROM signature_challenges WHERE verification_id IN (
                      SELECT id FROM verifications WHERE user_id = \(bind: user) AND completed_at IS NULL)
                    """
                ).run()
                try await sql.raw(
                    """
                    UPDATE verifications SET expires_at = \(bind: now)
                    WHERE user_id = \(bind: user) AND completed_at IS NULL AND expires_at > \(bind: now)
                    """
                ).run()
            }
            return Outcome(deviceKeysRemoved: removed.count)
        }
    }
}
