// Shared by the account screen tests (issue 11 §4).
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import Testing

    @MainActor
    final class FakeDevicesService: SignedInDevicesService {
        var calls: [String] = []
        var listed: [SessionInfo] = []
        var failure: LatchClientError?

        func sessions() async throws -> [SessionInfo] {
            calls.append("list")
            if let failure { throw failure }
            return listed
        }

        func revokeSession(id: String) async throws {
            calls.append("revoke \(id)")
            if let failure { throw failure }
        }

        func revokeOtherSessions() async throws {
            calls.append("revoke others")
            if let failure { throw failure }
        }
    }
#endif
