import Foundation
import LatchClient
import LatchCore
import LatchServer
import Testing

/// Issue 31 §3: LatchClient with a DPoP key (a software key here; the Secure Enclave on iOS) against a real
/// latchd: every session it starts is bound, every request carries a proof, a stolen refresh token is useless,
/// a server nonce costs one retry, and signing out discards the key.
@Suite("Issue 31 §3: DPoP-bound sessions (end to end)", .timeLimit(.minutes(10)))
struct DPoPJourneyTests {
    static let email = "dora@example.com"
    static let password = "Correct-Horse-9"

    static func signUp(_ client: LatchClient, on server: LiveServer) async throws -> UserInfo {
        let registration = try await client.signUp(
            email: email, password: password, nickname: "Dora", acceptTerms: true)
        return try await client.verifyRegistration(id: registration, code: try await server.latestCode(to: email))
    }

    @Test("31 §3 the SDK binds its sessions, refreshes with its key, and a copied refresh token is refused")
    func test_31_3_boundSessionJourney() async throws {
        try await withLiveServer { server in
            let vault = InMemoryVault()
            let client = server.client(vault: vault, dpop: true)
            _ = try await Self.signUp(client, on: server)
            let sessions = try await client.sessions()
            #expect(sessions.first { $0.current }?.bound == true)
            // A request the app sends by its own means: the bound token goes as DPoP, with a proof, never as Bearer.
            let own = try await client.authorizedRequest(
                HTTPRequest(method: "GET", url: server.serverURL.appendingPathComponent("v1/me")))
            #expect(own.headers["Authorization"]?.hasPrefix("DPoP ") == true)
            #expect(own.headers["DPoP"] != nil)
            #expect(try await URLSessionTransport().send(own).status == 200)
            guard case .found(let stored) = await vault.read("session"),
                let session = try JSONSerialization.jsonObject(with: stored) as? [String: Any],
                let refreshToken = session["refresh_token"] as? String
            else { Issue.record("no stored session"); return }

            // The thief copies the refresh token out of a backup and has no key.
            let thief = LatchAPI(serverURL: server.serverURL, transport: URLSessionTransport())
            do {
                _ = try await thief.refreshGrant(refreshToken: refreshToken)
                Issue.record("a copied refresh token refreshed")
            } catch let LatchClientError.server(error) {
                #expect(error.code == .dpopInvalid)
            }

            // The owner's app goes on: two hours later it refreshes with its key.
            server.advance(by: 2 * 3600 + 60)
            let me = try await client.refreshSession()
            #expect(me.email == Self.email)
            #expect(try await client.sessions().count == 1)

            await client.signOut()
            #expect(
                await vault.read(SoftwareDPoPKeyStore.defaultVaultKey) == .notFound, "the key went with the session")
        }
    }

    @Test("31 §3 with server nonces on, the SDK signs again once with the nonce it was given")
    func test_31_3_nonceRetry() async throws {
        try await withLiveServer(adjust: { $0.dpopNonces = true }) { server in
            let client = server.client(dpop: true)
            let user = try await Self.signUp(client, on: server)
            #expect(user.email == Self.email)
            #expect(try await client.sessions().first?.bound == true)
        }
    }

    @Test("DPoP41 LatchClient with its defaults binds its sessions: it works where latchd requires DPoP and nonces")
    func DPoP41_defaultClientAgainstRequiredDPoP() async throws {
        try await withLiveServer(adjust: {
            $0.dpop = .required
            $0.dpopNonces = true
        }) { server in
            let vault = InMemoryVault()
            let client = LatchClient(serverURL: server.serverURL, vault: vault, clock: { [server] in server.now })

            let user = try await Self.signUp(client, on: server)
            let me = try await client.me()

            #expect(me.id == user.id)
            #expect(try await client.sessions().first { $0.current }?.bound == true)
            guard case .found = await vault.read(SoftwareDPoPKeyStore.defaultVaultKey) else {
                Issue.record("no Secure Enclave here: the key is the software store's, in the vault")
                return
            }
        }
    }

    @Test("31 §3 without a key the SDK keeps bearer sessions, as before")
    func test_31_3_withoutAKeyBearerSessions() async throws {
        try await withLiveServer { server in
            let client = server.client()
            _ = try await Self.signUp(client, on: server)
            #expect(try await client.sessions().first?.bound == false)
        }
    }
}
