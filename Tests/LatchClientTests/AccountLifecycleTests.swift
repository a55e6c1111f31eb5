import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Issue 12 §1 in the SDK: `deleteAccount(verification:)` and `exportAccountData()`.
@Suite("Account deletion and export (issue 12 §1)")
struct AccountLifecycleTests {
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

    @Test func test_20_4_exportNeedsVerificationAfterTenMinutes() async throws {
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
