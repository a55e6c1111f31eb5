import FluentKit
import Foundation
import LatchCore

extension SecurityEventLog {
    /// The kinds anyone can cause by failing at someone else's account (a wrong password, code,
    /// passkey assertion or step-up attempt). They are aggregated (issue 20 §5): one row per account,
    /// kind and hour, whose `count` goes up, so a stranger failing without end writes one row an hour
    /// per kind instead of pushing the owner's real events (`passkey_added`, …) out of sight.
    static let aggregatedKinds: Set<SecurityEvent.Kind> = [.signInFailed, .codeFailed, .verificationFailed]

    /// The window failures are counted in: whole hours since 1970.
    static let aggregationWindow: Double = 3600

    /// Counts one failure of `kind` for `user` (nil: an unknown account, counted together) in the
    /// window of `now`, in one atomic statement: the window's first failure inserts the row (its time,
    /// session and address are the first failure's), every later one adds 1 to its `count` — also
    /// when many arrive at once, across instances (the unique `aggregate_key` decides).
    func recordAggregated(
        _ kind: SecurityEvent.Kind, user: UUID?, session: UUID?, ip: String?, now: Double, on database: any Database
    ) async throws {
        let window = Int((now / Self.aggregationWindow).rounded(.down))
        let key = "\(user?.uuidString.lowercased() ?? "-"):\(kind.rawValue):\(window)"
        try await store.countFailure(
            kind, user: user, session: session, ip: ip, now: now, aggregateKey: key, on: database)
    }
}
