import FluentKit
import Foundation
import LatchCore
import SQLKit

/// An imported user's row brought up to a changed line of a user import (issue 45 §1, `AccountStore`).
/// A new user's row is written with its batch by `UserImportStore.insertTogether`.
extension AccountStore {
    /// The profile is the line's; a password replaces only one the import wrote and the user has not
    /// replaced since; `disabled` and `frozen` are set, never lifted.
    func updateImported(_ user: UUID, to record: UserImportRecord, now: Double, on database: any Database)
        async throws
    {
        defer { profiles.forget(user) }
        try await database.sql.raw(
            """
            UPDATE users SET email = \(bind: record.email?.value), email_verified = \(bind: record.emailVerified),
              nickname = \(bind: record.nickname)
            WHERE id = \(bind: user)
            """
        ).run()
        if let password = record.password {
            try await database.sql.raw(
                """
                UPDATE users SET password_hash = \(bind: UserImportStore.column(password)),
                  password_change_required = \(bind: record.passwordChangeRequired)
                WHERE id = \(bind: user) AND (password_hash IS NULL OR password_hash LIKE \(bind: ImportedPasswordHash.columnPrefix + "%"))
                """
            ).run()
        }
        if record.disabled {
            try await database.sql.raw(
                "UPDATE users SET disabled_at = \(bind: now) WHERE id = \(bind: user) AND disabled_at IS NULL"
            ).run()
        }
        if record.frozen {
            try await database.sql.raw(
                "UPDATE users SET frozen_at = \(bind: now), frozen_by = 'operator' WHERE id = \(bind: user) AND frozen_at IS NULL"
            ).run()
        }
    }
}
