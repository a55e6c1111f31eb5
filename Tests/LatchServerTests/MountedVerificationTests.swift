import Foundation
import Hummingbird
import LatchCore
import LatchServer
import LatchTestSupport
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Testing

/// D3 for apps that embed LatchServer in their own Hummingbird app: their sensitive route calls
/// `LatchApplication.redeemVerification` and runs only with a fresh proof for exactly its parameters.
@Suite("Step-up in a mounting app (D3)")
struct MountedVerificationTests {
    /// The app's own withdrawal body.
    struct Withdrawal: Decodable {
        var verificationToken: String
        var amount: String
        var address: String

        enum CodingKeys: String, CodingKey {
            case amount, address
            case verificationToken = "verification_token"
        }
    }

    /// An app of its own that mounts LatchServer and adds a withdrawal route guarded by a proof,
    /// served on a loopback port.
    final class MountedApp: Sendable {
        let baseURL: String
        let clock: TestClock
        var app: LatchApplication { server.app }

        private let server: InProcessLatchd

        init(_ database: TestDatabase) async throws {
            clock = TestClock()
            var config = LatchConfig(
                mode: .development, database: try await database.makeLocation(), host: "127.0.0.1", port: 0,
                issuer: "http://latch.test", secretKey: Data(repeating: 7, count: 32), bcryptCost: 4, logRequests: false
            )
            config.useLoadIndependentLimits()
            server = try await InProcessLatchd.start(config, clock: clock.latchClock) { latch, router in
                // The embedding app's own route, added after Latch's (the example of docs/EMBEDDING.md).
                latch.routes(on: router).signedIn().post("withdrawals") { req in
                    let withdrawal = try req.decodeJSON(Withdrawal.self)
                    let proof = try await latch.redeemVerification(
                        withdrawal.verificationToken, action: "withdrawal",
                        parameters: ["amount": withdrawal.amount, "address": withdrawal.address], for: req)
                    return Response(
                        status: .created, body: .init(byteBuffer: ByteBuffer(string: proof.method.rawValue)))
                }
            }
            baseURL = server.baseURL
        }

        func stop() async throws { try await server.stop() }

        func send(_ method: HTTPMethod, _ path: String, json: [String: Any], bearer: String? = nil) async throws
            -> TestResponse
        {
            var headers = HTTPHeaders()
            if let bearer { headers.add(name: "Authorization", value: "Bearer \(bearer)") }
            headers.add(name: "Content-Type", value: "application/json")
            let body = try JSONSerialization.data(withJSONObject: json)
            let response = try await TestHTTP.send(
                method, baseURL + path, headers: headers, body: ByteBuffer(data: body))
            return TestResponse(
                status: response.status.code, headers: response.headers,
                data: response.body.map { Data(buffer: $0) } ?? Data())
        }
    }

    static func withMountedApp(_ database: TestDatabase, _ body: (MountedApp) async throws -> Void) async throws {
        let mounted = try await MountedApp(database)
        do {
            try await body(mounted)
        } catch {
            try? await mounted.stop()
            throw error
        }
        try await mounted.stop()
    }

    @Test(
        "D3 an app's own route calls redeemVerification: a matching proof once, other parameters refused",
        arguments: TestDatabase.all)
    func D3_mountingAppRedeemsInItsRoute(database: TestDatabase) async throws {
        try await Self.withMountedApp(database) { mounted in
            let registered = try await mounted.send(
                .POST, "/v1/registrations",
                json: ["email": "alice@example.com", "password": "Correct-Horse-9", "terms_accepted": true])
            let id = try registered.decode(RegistrationAccepted.self).registrationId
            let code = try #require(await mounted.app.latch.outbox?.messages(to: "alice@example.com").last?.code)
            let tokens = try await mounted.send(.POST, "/v1/registrations/\(id)/verify", json: ["code": code]).decode(
                TokenResponse.self)
            let bearer = tokens.accessToken
            #expect(
                try await mounted.send(
                    .PUT, "/v1/fund-password", json: ["fund_password": VerificationSamples.fundPassword], bearer: bearer
                ).status == 204)
            let started = try await mounted.send(
                .POST, "/v1/verifications",
                json: ["action": "withdrawal", "parameters": VerificationSamples.withdrawal],
                bearer: bearer)
            let verificationID = try started.decode(VerificationStarted.self).verificationId
            let passed = try await mounted.send(
                .POST, "/v1/verifications/\(verificationID)/attempts",
                json: ["method": "fund_password", "fund_password": VerificationSamples.fundPassword], bearer: bearer)
            let proof = try passed.decode(VerificationPassed.self).verificationToken
            let withdrawal = ["verification_token": proof, "amount": "100.00", "address": "TX1"]

            let tampered = try await mounted.send(
                .POST, "/withdrawals", json: ["verification_token": proof, "amount": "999.00", "address": "TX1"],
                bearer: bearer)
            let anonymous = try await mounted.send(.POST, "/withdrawals", json: withdrawal)
            let accepted = try await mounted.send(.POST, "/withdrawals", json: withdrawal, bearer: bearer)
            let replayed = try await mounted.send(.POST, "/withdrawals", json: withdrawal, bearer: bearer)

            #expect(tampered.status == 403 && tampered.errorCode == "VERIFICATION_INVALID", "\(tampered.text)")
            #expect(anonymous.status == 401 && anonymous.errorCode == "AUTH_004", "\(anonymous.text)")
            #expect(accepted.status == 201 && accepted.text == "fund_password", "\(accepted.text)")
            #expect(replayed.status == 409 && replayed.errorCode == "CONFLICT", "\(replayed.text)")
        }
    }
}
