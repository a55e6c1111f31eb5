import Fluent
import Foundation
import LatchCore
import Vapor

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
    let database: any Database
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
        self.database = database
        self.actor = actor
        self.ip = ip
        self.language = language
    }

    /// The service as `latchd admin` uses it: the app's database and services, actor `console`.
    public static func console(on app: Application, language: LatchLanguage) -> AdminService {
        AdminService(
            latch: app.latch, database: app.db, actor: .console, ip: nil, language: language,
            deletion: AccountDeletion(application: app))
    }

    /// Page sizes of the admin lists: 20 unless asked, at most 100.
    static let defaultLimit = 20
    static let limitRange = 1...100

    /// Runs `work` on the user named `id` and writes the audit entry with its result. An id that is
    /// not a UUID or names nobody is 404 (logged without a target).
    func onUser<T>(_ id: String, action: String, _ work: (User) async throws -> T) async throws -> T {
        guard let userID = UUID(uuidString: id), let user = try await User.find(userID, on: database) else {
            try await audit(action, target: nil, result: LatchErrorCode.notFound.rawValue)
            throw LatchError.notFound
        }
        return try await audited(action, target: userID) { try await work(user) }
    }

    /// Runs `work` and writes the audit entry with how it ended (`ok` or the error code).
    func audited<T>(_ action: String, target: UUID?, _ work: () async throws -> T) async throws -> T {
        let value: T
        do {
            value = try await work()
        } catch let error as LatchError {
            try await audit(action, target: target, result: error.code.rawValue)
            throw error
        } catch {
            try? await audit(action, target: target, result: LatchErrorCode.internalError.rawValue)
            throw error
        }
        try await audit(action, target: target, result: "ok")
        return value
    }

    private func audit(_ action: String, target: UUID?, result: String) async throws {
        try await AdminAuditEntry(
            actor: actor, action: action, target: target, ip: ip, at: latch.clock.epochSeconds, result: result
        )
        .create(on: database)
    }

    /// Checks a page size (`limit` query parameter).
    static func pageSize(_ limit: Int?) throws -> Int {
        guard let limit else { return defaultLimit }
        guard limitRange.contains(limit) else {
            throw LatchError(.validationFailed, status: .badRequest, field: "limit", reasons: ["out_of_range"])
        }
        return limit
    }
}
