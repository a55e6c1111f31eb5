import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Issue 12 §1 in the SDK: `deleteAccount(verification:)` and `exportAccountData()`.
@Suite("Account deletion and export (issue 12 §1)")
struct AccountLifecycleTests {
    /// `SessionFakeServer` plus `DELETE /v1/me` and `GET /v1/me/export`, answered as latchd does:
    /// without a proof the deletion needs a recent sign-in (here: `recentSignIn`), else 403
    /// VERIFICATION_REQUIRED; a deletion ends the access token.
    actor LifecycleServer: HTTPTransport {
        let inner = SessionFakeServer()
        var recentSignIn = true
        var appleRevocation = AppleRevocation.notPossible
        private(set) var deleteBodies: [Data?] = []
        private(set) var exportProofs: [String?] = []

        func set(recentSignIn: Bool) { self.recentSignIn = recentSignIn }

        static let export = AccountExport(
            exportedAt: Date(timeIntervalSince1970: 1_800_000_000), user: SessionFakeServer.alice,
            securitySettings: SecuritySettings(verifyUnusualSignIns: true), sessions: [], deviceCredentials: [],
            knownDevices: [.init(deviceId: "install-1", firstSeenAt: Date(timeIntervalSince1970: 1_700_000_000))],
            factors: .init(totp: false, fundPassword: true, biometric: false, recoveryCodesRemaining: 0),
            securityEvents: [
                SecurityEventInfo(
                    id: "e-1", type: "registered", sessionId: nil, ip: "127.0.0.1",
                    createdAt: Date(timeIntervalSince1970: 1_700_000_000))
            ])

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let path = SessionFakeServer.path(of: request)
            let exporting = request.method == "GET" && (path == "/v1/me/export" || path.hasPrefix("/v1/me/export?"))
            guard (request.method, path) == ("DELETE", "/v1/me") || exporting
            else {
                return try await inner.send(request)
            }
            // Whether the bearer token is live, as the inner server sees it.
            var probe = request
            probe.method = "GET"
            probe.url = URL(string: "https://auth.example.com/v1/me")!
            probe.body = nil
            guard try await inner.send(probe).status == 200, let token = SessionFakeServer.bearer(of: request) else {
                return SessionFakeServer.sessionExpired
            }
            if request.method == "GET" {
                // Issue 20 §4: the export is guarded like the deletion; its proof comes as a query parameter.
                let query = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
                let proof = query.first { $0.name == "verification_token" }?.value
                exportProofs.append(proof)
                guard recentSignIn || proof == "proof+/1" else {
                    return SessionFakeServer.json(
                        403,
                        #"{"error":"VERIFICATION_REQUIRED","message":"Please verify it is you before doing this.","field":"verification_token"}"#
                    )
                }
                return try SessionFakeServer.json(200, Self.export)
            }
            deleteBodies.append(request.body)
            let proof = request.body.flatMap { try? JSONDecoder().decode(DeleteAccountRequest.self, from: $0) }?
                .verificationToken
            guard recentSignIn || proof == "proof-1" else {
                return SessionFakeServer.json(
                    403,
                    #"{"error":"VERIFICATION_REQUIRED","message":"Please verify it is you before doing this.","field":"verification_token"}"#
                )
            }
            await inner.refuse(accessToken: token)
            return try SessionFakeServer.json(200, AccountDeleted(appleRevocation: appleRevocation))
        }
    }

    static func client(_ server: LifecycleServer, vault: InMemoryVault = InMemoryVault()) -> LatchClient {
        LatchClient(serverURL: URL(string: "https://auth.example.com")!, vault: vault, transport: server)
    }

    @Test func test_12_deleteAccountReturnsAppleRevocationAndSignsOut() async throws {
        let server = LifecycleServer()
        let vault = InMemoryVault()
        let client = Self.client(server, vault: vault)
        _ = try await client.signIn(with: await server.inner.issueTokens())

        let apple = try await client.deleteAccount()

        #expect(apple == .notPossible)
        #expect(apple.needsUserAction)
        #expect(apple.guidance(in: .zhHans)?.contains("停止使用 Apple ID") == true)
        #expect(apple.guidance(in: .en)?.contains("Stop Using Apple ID") == true)
        #expect(client.currentState == .signedOut)
        #expect(await vault.read("session") == .notFound)
        #expect(await server.deleteBodies == [nil], "no proof: no body")
    }

    @Test func test_12_deleteAccountNeedsVerificationAfterTenMinutes() async throws {
        let server = LifecycleServer()
        await server.set(recentSignIn: false)
        let client = Self.client(server)
        _ = try await client.signIn(with: await server.inner.issueTokens())

        var refused: LatchClientError?
        do { _ = try await client.deleteAccount() } catch let error as LatchClientError { refused = error }
        let proof = VerificationProof(
            token: "proof-1", expiresIn: 300,
            context: VerificationContext(action: LatchClient.deleteAccountAction, parameters: [:]),
            method: .fundPassword)
        let apple = try await client.deleteAccount(verification: proof)

        #expect(refused?.code == .verificationRequired)
        #expect(LatchClient.deleteAccountAction == "delete_account")
        #expect(apple == .notPossible)
        let sent = try #require(await server.deleteBodies.last ?? nil)
        #expect(String(decoding: sent, as: UTF8.self) == #"{"verification_token":"proof-1"}"#)
        #expect(client.currentState == .signedOut)
    }

    @Test func test_12_appleRevocationGuidanceOnlyWhenNotPossible() {
        #expect(AppleRevocation.revoked.guidance(in: .en) == nil && !AppleRevocation.revoked.needsUserAction)
        #expect(AppleRevocation.notLinked.guidance(in: .zhHans) == nil && !AppleRevocation.notLinked.needsUserAction)
        #expect(
            try! JSONDecoder().decode(AccountDeleted.self, from: Data(#"{"apple_revocation":"not_possible"}"#.utf8))
                .appleRevocation == .notPossible)
    }

    @Test func test_12_exportAccountDataDecodesTheDocument() async throws {
        let server = LifecycleServer()
        let client = Self.client(server)
        _ = try await client.signIn(with: await server.inner.issueTokens())

        let export = try await client.exportAccountData()

        #expect(export == LifecycleServer.export)
        #expect(client.currentState == .signedIn(SessionFakeServer.alice), "exporting keeps the session")
    }

    @Test func test_review_4_exportNeedsVerificationAfterTenMinutes() async throws {
        let server = LifecycleServer()
        await server.set(recentSignIn: false)
        let client = Self.client(server)
        _ = try await client.signIn(with: await server.inner.issueTokens())

        var refused: LatchClientError?
        do { _ = try await client.exportAccountData() } catch let error as LatchClientError { refused = error }
        let proof = VerificationProof(
            token: "proof+/1", expiresIn: 300,
            context: VerificationContext(action: LatchClient.exportAccountAction, parameters: [:]),
            method: .fundPassword)
        let export = try await client.exportAccountData(verification: proof)

        #expect(refused?.code == .verificationRequired)
        #expect(LatchClient.exportAccountAction == "export_account")
        #expect(export == LifecycleServer.export)
        #expect(await server.exportProofs == [nil, "proof+/1"], "the proof travels escaped in the query")
    }
}
