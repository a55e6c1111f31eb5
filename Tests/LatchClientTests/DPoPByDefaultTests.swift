import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Issue 41 §2: LatchClient binds its sessions to a DPoP key unless the app opts out, and a device whose
/// clock is wrong still signs proofs latchd accepts.
@Suite("Issue 41 §2: DPoP on by default in LatchClient")
struct DPoPByDefaultTests {
    static let serverURL = URL(string: "https://auth.example.com")!
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(
        "41 §2 DPoP41 without dpopKeys a client signs its grants with the platform's key (on Linux, kept in the vault)")
    func test_41_2_onByDefault() async throws {
        let transport = ScriptedTransport([HTTPResponse(status: 401, body: Data(#"{"error":"AUTH_001"}"#.utf8))])
        let vault = InMemoryVault()
        let client = LatchClient(
            serverURL: Self.serverURL, vault: vault, transport: transport, clock: { Self.now })

        _ = try? await client.signIn(email: "alice@example.com", password: "Correct-Horse-9")

        let grant = try #require(transport.requests.first)
        let proof = try #require(grant.headers["DPoP"])
        #expect(try Self.claims(of: proof)["htu"] as? String == "https://auth.example.com/v1/token")
        #if !(canImport(Security) && canImport(CryptoKit) && (os(iOS) || os(macOS) || os(visionOS)))
            guard case .found = await vault.read(SoftwareDPoPKeyStore.defaultVaultKey) else {
                Issue.record("the software key is kept in the vault")
                return
            }
        #endif
    }

    @Test("41 §2 DPoP41 dpopKeys: .none opts out: bearer sessions, no proof, no key")
    func test_41_2_optOut() async throws {
        let transport = ScriptedTransport([HTTPResponse(status: 401, body: Data(#"{"error":"AUTH_001"}"#.utf8))])
        let vault = InMemoryVault()
        let client = LatchClient(
            serverURL: Self.serverURL, vault: vault, transport: transport, clock: { Self.now }, dpopKeys: .none)

        _ = try? await client.signIn(email: "alice@example.com", password: "Correct-Horse-9")

        #expect(client.api.dpop == nil)
        #expect(transport.requests.first?.headers["DPoP"] == nil)
        guard case .notFound = await vault.read(SoftwareDPoPKeyStore.defaultVaultKey) else {
            Issue.record("no key was made")
            return
        }
    }

    @Test(
        "41 §2 DPoP41 a proof refused as stale_iat is dated again by the server's Date, once, and so are the next ones")
    func test_41_2_wrongDeviceClock() async throws {
        // The device's clock is two hours behind the server's.
        let serverTime = Self.now.addingTimeInterval(7200)
        let stale = HTTPResponse(
            status: 400, headers: ["Date": Self.httpDate(serverTime)],
            body: Data(#"{"error":"DPOP_INVALID","message":"stale","reasons":["stale_iat"]}"#.utf8))
        let transport = ScriptedTransport([stale, HTTPResponse(status: 200), HTTPResponse(status: 200), stale])
        let api = LatchAPI(
            serverURL: Self.serverURL, transport: transport,
            dpop: DPoPSigner(keys: SoftwareDPoPKeyStore(vault: InMemoryVault()), clock: { Self.now }))
        let request = HTTPRequest(method: "POST", url: Self.serverURL.appendingPathComponent("v1/token"))

        let first = try await api.send(request)
        let second = try await api.send(request)
        // Refused as stale again by a server whose time it already uses: answered as is, never a loop.
        let third = try await api.send(request)

        #expect(first.status == 200 && second.status == 200 && third.status == 400)
        let iats = try transport.requests.map { try Self.claims(of: try #require($0.headers["DPoP"]))["iat"] as? Int }
        #expect(iats == [1_800_000_000, 1_800_007_200, 1_800_007_200, 1_800_007_200])
        #expect(DPoPSigner.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
    }

    static func claims(of proof: String) throws -> [String: Any] {
        let parts = proof.split(separator: ".")
        let bytes = try #require(Base64URL.decode(String(parts[1])))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

@Suite("Issue 41 §2: the platform's DPoP key store falls back only where the enclave can never be used")
struct FallbackDPoPKeyStoreTests {
    @Test("41 §2 DPoP41 errSecMissingEntitlement: the software key, the same one every time; discard forgets it")
    func test_41_2_missingEntitlementFallsBack() async throws {
        let vault = InMemoryVault()
        let keys = FallbackDPoPKeyStore(
            preferred: FailingDPoPKeyStore(code: -34018), fallback: SoftwareDPoPKeyStore(vault: vault))

        let first = try await keys.key()
        let second = try await keys.key()

        #expect(first.publicCoordinates == second.publicCoordinates)
        try await keys.discard()
        #expect(await vault.read(SoftwareDPoPKeyStore.defaultVaultKey) == .notFound)
    }

    @Test("41 §2 DPoP41 a locked device (errSecInteractionNotAllowed) is thrown: no session is bound to a stand-in key")
    func test_41_2_otherFailuresAreThrown() async throws {
        let vault = InMemoryVault()
        let keys = FallbackDPoPKeyStore(
            preferred: FailingDPoPKeyStore(code: -25308), fallback: SoftwareDPoPKeyStore(vault: vault))

        await #expect(throws: DeviceKeyError.platform(code: -25308)) { try await keys.key() }
        #expect(await vault.read(SoftwareDPoPKeyStore.defaultVaultKey) == .notFound)
    }
}
