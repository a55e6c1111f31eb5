import Foundation
import LatchClient
import LatchTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The CLI tests' latchd: the real binary on a free loopback port, SQLite in its temporary folder,
/// development outbox (`LatchdProcess` from LatchTestSupport; `withLatchd` starts and removes one).
typealias Latchd = LatchdProcess

extension LatchdProcess {
    /// `GET /v1/security-events` with the session stored in `home`: the event types, newest first. Sent by
    /// LatchClient as `latch` itself would, with the home's DPoP key (its sessions are bound, issue 31).
    func securityEventTypes(home: URL) async throws -> [String] {
        let vault = FileVault(directory: home)
        let client = LatchClient(serverURL: url, vault: vault, dpopKeys: SoftwareDPoPKeyStore(vault: vault))
        let restored = await client.restoreSession()
        guard case .signedIn = restored else {
            Issue.record("no session in \(home.path): \(restored)")
            return []
        }
        return try await client.securityEvents().events.map(\.type)
    }
}
