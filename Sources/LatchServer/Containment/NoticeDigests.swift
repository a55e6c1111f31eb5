import FluentKit
import Foundation
import LatchCore
import Logging

/// Repeated security notices to one account, coalesced (issue 20 §2): at most one notice mail per
/// account in each window of `LATCH_NOTICE_DIGEST_SECONDS`. The first change mails its notice at once
/// and opens the window (a `guess_budgets` row `notice-window:USER` with a budget of one); a change
/// within the window writes a `notice_digests` row in its own transaction instead — the row is its
/// notice (issue 20 §1: no change without its notice). Once the window has passed, `flushDue` (run on
/// every instance by `NoticeDigestFlusher`) opens the next window and mails one digest listing every
/// change since, each with its time, in the same transaction that deletes the rows: a digest that
/// cannot be queued leaves its rows for the next round, and two instances never send the same rows
/// (the window's charge and the `DELETE … RETURNING` claim them atomically).
enum NoticeDigests {
    static let table = "notice_digests"

    /// The key of the account's notice window in `guess_budgets`.
    static func windowKey(_ user: UUID) -> GuardKey { .noticeWindow(user) }

    /// Charges the account's notice window; when the window is already taken, writes the digest row of
    /// `notice` on `database` (the change's transaction) and returns true: no mail now. Returns false
    /// (mail now) when digests are off or the window was free (it is now taken).
    static func fold(
        _ notice: SecurityNotice, language: LatchLanguage, to address: String, user: UUID, services: LatchServices,
        now: Double, on database: any Database
    ) async throws -> Bool {
        let window = services.config.noticeDigestSeconds
        guard window > 0 else { return false }
        let budget = GuessBudget(limit: 1, window: Double(window))
        guard case .spent = try await services.budgets.charge(windowKey(user), budget, now: now, on: database) else {
            return false
        }
        try await NoticeDigestStore().insert(
            notice, language: language, to: address, user: user, now: now, on: database)
        return true
    }

    /// Mails the digest of every account whose window has passed; returns how many digest mails were
    /// queued. Each account is one transaction: a digest that cannot be queued (the lane is full) rolls
    /// back, and its rows wait for the next round.
    @discardableResult
    static func flushDue(services: LatchServices, now: Double, on database: any Database, logger: Logger) async throws
        -> Int
    {
        let window = services.config.noticeDigestSeconds
        guard window > 0 else { return 0 }
        let users = try await NoticeDigestStore().usersDue(now: now, on: database)
        var mailed = 0
        for user in users {
            do {
                mailed += try await database.tracedTransaction { transaction in
                    try await flush(user, services: services, window: window, now: now, on: transaction)
                }
            } catch NothingToSend.windowOpenOrTaken {
                continue
            } catch {
                logger.warning(
                    "a notice digest could not be queued this round: \(String(reflecting: type(of: error)))")
            }
        }
        return mailed
    }

    /// Ends a flush's transaction without committing (the window's charge is given back).
    private enum NothingToSend: Error { case windowOpenOrTaken }

    private static func flush(
        _ user: UUID, services: LatchServices, window: Int, now: Double, on database: any Database
    )
        async throws -> Int
    {
        let budget = GuessBudget(limit: 1, window: Double(window))
        guard case .charged = try await services.budgets.charge(windowKey(user), budget, now: now, on: database) else {
            throw NothingToSend.windowOpenOrTaken
        }
        let rows = try await NoticeDigestStore().claim(of: user, now: now, on: database)
        guard !rows.isEmpty else { throw NothingToSend.windowOpenOrTaken }
        var byAddress: [String: [(notice: SecurityNotice, at: Double, language: LatchLanguage)]] = [:]
        for row in rows {
            guard let notice = row.notice else { continue }
            byAddress[row.address, default: []].append((notice, row.createdAt, row.language ?? .en))
        }
        for (address, changes) in byAddress.sorted(by: { $0.key < $1.key }) {
            let sorted = changes.sorted { $0.at < $1.at }
            let mail = MailTemplates.noticeDigest(
                sorted.map { ($0.notice, Date(timeIntervalSince1970: $0.at)) }, language: sorted.last?.language ?? .en)
            try await services.mailNotice(mail, to: address, user: user, now: now, on: database)
        }
        return byAddress.count
    }
}
