import FluentKit
import Foundation
import LatchCore

/// What operators do to accounts (issue 12 §2), shared by the admin API (`/v1/admin/*`, actor
/// `key:{fingerprint}`) and `latchd admin …` (actor `console`): find and show users, unlock,
/// disable, enable, sign out everywhere, reset 2FA or the fund password, read the audit log.
///
/// Every call is written to the admin audit log, with its result; a call naming a user that does
/// not exist answers 404 NOT_FOUND and is logged without a target.
///
///     let admin = AdminService.console(on: app, language: .en)
///     try await admin.disable("8c1f…")
public struct AdminService: Sendable {
    let latch: LatchServices
    /// The app's database, where actions start their transactions and failures are audited.
    let appDatabase: any Database
    let actor: AdminActor
    /// The caller's address (nil on the console).
    let ip: String?
    /// The language of the mails the user gets.
    let language: LatchLanguage
    /// Deletes accounts exactly as `DELETE /v1/me` does.
    let deletion: AccountDeletion

    init(
        latch: LatchServices, database: any Database, actor: AdminActor, ip: String?, language: LatchLanguage,
        deletion: AccountDeletion
    ) {
        self.deletion = deletion
        self.latch = latch
        self.appDatabase = database
        self.actor = actor
        self.ip = ip
        self.language = language
    }

    /// Page sizes of the admin lists: 20 unless asked, at most 100.
    static let defaultLimit = 20
    static let limitRange = 1...100

    /// Where an action reads and writes: inside `audited` (every action) the action's transaction,
    /// which also holds its audit row; elsewhere the app's database. Everything an action does goes
    /// through it — queue its mails with `latch.send(…, on: database)`: on SQLite a write on another
    /// connection would wait for this transaction, which waits for it.
    var database: any Database { Self.actionTransaction ?? appDatabase }

    /// The transaction of the action running in this task (see `database`).
    @TaskLocal static var actionTransaction: (any Database)?

    /// Runs `work` on the user named `id` and writes the audit entry with its result. An id that is
    /// not a UUID or names nobody is 404, logged without a target; a deleted account (a tombstone) is
    /// 404 too (issue 20 §6), logged with its id.
    func onUser<T: Sendable>(
        _ id: String, action: String, _ work: @escaping @Sendable (User) async throws -> T
    ) async throws -> T {
        let userID = UUID(uuidString: id)
        let user = if let userID { try await latch.accounts.user(userID, on: database) } else { User?.none }
        guard let userID, let user, user.deletedAt == nil else {
            // A tombstone's id is kept as the target: somebody acted on that (deleted) account.
            try await audit(
                action, target: user == nil ? nil : userID, detail: nil, result: LatchErrorCode.notFound.rawValue,
                on: database)
            throw LatchError.notFound
        }
        return try await audited(action, target: userID) { try await work(user) }
    }

    /// Runs `work` and its audit entry in one transaction (issue 20 §6): an action is never done
    /// without its row, nor its row written for a change that did not happen. When `work` fails, its
    /// changes roll back and the entry (`result`: the error code) is written on its own. `detail`
    /// says what the action was asked (e.g. `find_users`' search text).
    func audited<T: Sendable>(
        _ action: String, target: UUID?, detail: String? = nil, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        do {
            return try await latch.revocation.committing(on: appDatabase) { transaction in
                try await Self.$actionTransaction.withValue(transaction) {
                    let value = try await work()
                    try await audit(action, target: target, detail: detail, result: "ok", on: transaction)
                    return value
                }
            }
        } catch let error as LatchError {
            try await audit(action, target: target, detail: detail, result: error.code.rawValue, on: appDatabase)
            throw error
        } catch {
            try? await audit(
                action, target: target, detail: detail, result: LatchErrorCode.internalError.rawValue, on: appDatabase)
            throw error
        }
    }

    func audit(
        _ action: String, target: UUID?, detail: String?, result: String, on database: any Database
    ) async throws {
        let entry = AdminAuditEntry(
            actor: actor, action: action, target: target, ip: ip, at: latch.clock.epochSeconds, result: result,
            detail: detail)
        try await AdminAuditStore().append(entry, on: database)
    }

    /// Checks a page size (`limit` query parameter).
    static func pageSize(_ limit: Int?) throws -> Int {
        guard let limit else { return defaultLimit }
        guard limitRange.contains(limit) else {
            throw LatchError(.validationFailed, field: "limit", reasons: ["out_of_range"])
        }
        return limit
    }
}
