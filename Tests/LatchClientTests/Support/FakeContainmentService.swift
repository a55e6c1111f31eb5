import Foundation
import LatchClient
import LatchCore
import Testing

/// Fakes `AccountContainmentService` for the containment screen: answers from a script and records every call.
final class FakeContainmentService: AccountContainmentService, @unchecked Sendable {
    var status = AccountSecurityStatus(
        holds: [
            SecurityHoldInfo(
                actions: ["withdrawal"], reason: "password_reset",
                startedAt: Date(timeIntervalSince1970: 1_795_665_600),
                holdUntil: Date(timeIntervalSince1970: 1_795_665_600 + 86_400))
        ], antiPhishingCode: nil)
    /// Whether a change needs a verification token.
    var needsToken = false
    private(set) var setCalls: [(code: String, token: String?)] = []
    private(set) var removeCalls: [String?] = []
    private(set) var freezes = 0

    func accountSecurity() async throws -> AccountSecurityStatus { status }

    func setAntiPhishingCode(_ code: String, verificationToken: String?) async throws {
        setCalls.append((code, verificationToken))
        if needsToken, verificationToken == nil { throw Self.verificationRequired }
        status.antiPhishingCode = code
    }

    func removeAntiPhishingCode(verificationToken: String?) async throws {
        removeCalls.append(verificationToken)
        if needsToken, verificationToken == nil { throw Self.verificationRequired }
        status.antiPhishingCode = nil
    }

    func freezeAccount() async throws { freezes += 1 }

    static let verificationRequired = LatchClientError.server(
        LatchServerError(status: 403, rawCode: "VERIFICATION_REQUIRED", message: "x", field: "verification_token"))
}
