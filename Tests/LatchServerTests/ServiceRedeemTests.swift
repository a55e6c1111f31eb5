import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// D3: the backend that executes an action redeems the user's proof with a service key.
@Suite("Service-key redeem (D3)")
struct ServiceRedeemTests {
    static let serviceKey = "svc-0123456789abcdef0123456789abcdef"

    @Test("D3 a service key redeems a proof once and learns whose it was", arguments: TestDatabase.all)
    func D3_serviceKeyRedeemsOnce(database: TestDatabase) async throws {
        let server = try await TestServer.start(database, serviceKeys: [Self.serviceKey])
        do {
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let proof = try await server.verificationToken(bearer: tokens.accessToken)
            let body: [String: Any] = [
                "verification_token": proof, "action": "withdrawal", "parameters": VerificationSamples.withdrawal
            ]

            let wrongKey = try await server.send(
                .POST, "/v1/verifications/redeem", json: body, bearer: "svc-not-the-key-0000000000000000000")
            let first = try await server.send(.POST, "/v1/verifications/redeem", json: body, bearer: Self.serviceKey)
            let second = try await server.send(.POST, "/v1/verifications/redeem", json: body, bearer: Self.serviceKey)

            #expect(wrongKey.status == 401 && wrongKey.errorCode == "AUTH_004")
            #expect(first.status == 200, "\(first.text)")
            let redeemed = try first.decode(RedeemedVerification.self)
            #expect(redeemed.userId == tokens.user.id && redeemed.method == .fundPassword, "\(first.text)")
            #expect(second.status == 409)
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }
}
