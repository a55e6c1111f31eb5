import Crypto
import Foundation
import LatchAttestSimulator
import LatchCore
import SwiftASN1
import Testing
import X509

@testable import LatchServer

/// Issue 31 §2: Apple's nine attestation checks and the assertion checks, each failing alone, against
/// the simulated attester's test CA (the same bytes Apple's service makes).
@Suite("App Attest: the attestation's nine checks and the assertion's (issue 31 §2)")
struct AppAttestVerifierTests {
    static let appID = "ABCDE12345.com.example.wallet"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    let ca: SimulatedAppAttestCA
    let verifier: AppAttestVerifier

    init() throws {
        ca = try SimulatedAppAttestCA()
        verifier = AppAttestVerifier(
            roots: [ca.root], appIDs: ["TEAM000000.com.example.other", Self.appID], environment: .development)
    }

    func attester(
        ca: SimulatedAppAttestCA? = nil, appID: String = Self.appID, environment: AppAttestEnvironment = .development,
        fault: SimulatedAppAttester.Fault? = nil
    ) -> SimulatedAppAttester {
        SimulatedAppAttester(ca: ca ?? self.ca, appID: appID, environment: environment, fault: fault, now: { Self.now })
    }

    static let clientData = AppAttestClientData.binding(challenge: "challenge-1", publicKey: "device-key")

    /// An attestation by `attester` of a new key over `clientData`; its key id and object.
    func attest(with attester: SimulatedAppAttester, over clientData: [UInt8] = Self.clientData) async throws
        -> (keyID: String, object: [UInt8])
    {
        let keyID = try await attester.generateKey()
        let object = try await attester.attestKey(keyID, clientDataHash: AppAttestClientData.hash(clientData))
        return (keyID, Array(object))
    }

    func verify(_ object: [UInt8], keyID: String, at date: Date = Self.now) async -> Result<
        AppAttestVerifier.AttestedKey, AppAttestFailure
    > {
        do {
            return .success(
                try await verifier.verifyAttestation(
                    object, keyID: keyID, clientDataHash: AppAttestClientData.hash(Self.clientData), now: date))
        } catch { return .failure(error) }
    }

    @Test("issue 31 §2 a good attestation vouches for its key, for the app id whose hash it carries")
    func test_31_2_goodAttestation() async throws {
        let (keyID, object) = try await attest(with: attester())
        let key = try await verify(object, keyID: keyID).get()
        #expect(Data(SHA256.hash(data: key.publicKey)).base64EncodedString() == keyID)
        #expect(key.appID == Self.appID && key.bundleID == "com.example.wallet")
        #expect(!key.receipt.isEmpty)
    }

    @Test("issue 31 §2 step 1: a chain to a root latchd does not trust is refused (untrusted_chain)")
    func test_31_2_step1UntrustedRoot() async throws {
        let (keyID, object) = try await attest(with: attester(ca: try SimulatedAppAttestCA()))
        #expect(await verify(object, keyID: keyID) == .failure(.untrustedChain))
    }

    @Test("issue 31 §2 step 1: a credential certificate out of date is refused (untrusted_chain)")
    func test_31_2_step1ExpiredCertificate() async throws {
        let (keyID, object) = try await attest(with: attester())
        #expect(await verify(object, keyID: keyID, at: Self.now + 400 * 86_400) == .failure(.untrustedChain))
    }

    @Test("issue 31 §2 step 2: an attestation over other client data (another challenge or key) is refused")
    func test_31_2_step2OtherClientData() async throws {
        let other = AppAttestClientData.binding(challenge: "challenge-1", publicKey: "another-device-key")
        let (keyID, object) = try await attest(with: attester(), over: other)
        #expect(await verify(object, keyID: keyID) == .failure(.nonceMismatch))
    }

    @Test("issue 31 §2 steps 3–4: a nonce extension that is not SHA-256(authData ‖ clientDataHash) is refused")
    func test_31_2_step4NonceExtension() async throws {
        let (keyID, object) = try await attest(with: attester(fault: .nonce))
        #expect(await verify(object, keyID: keyID) == .failure(.nonceMismatch))
    }

    @Test("issue 31 §2 step 5: a key id that is not the hash of the certified key is refused")
    func test_31_2_step5KeyID() async throws {
        let (_, object) = try await attest(with: attester())
        let otherKeyID = Data(SHA256.hash(data: Data("other key".utf8))).base64EncodedString()
        #expect(await verify(object, keyID: otherKeyID) == .failure(.keyIDMismatch))
    }

    @Test("issue 31 §2 step 6: an RP ID hash of an app latchd was not given is refused")
    func test_31_2_step6AppID() async throws {
        let (keyID, object) = try await attest(with: attester(appID: "ZZZZZ99999.com.example.wallet"))
        #expect(await verify(object, keyID: keyID) == .failure(.appIDMismatch))
    }

    @Test("issue 31 §2 step 7: an attestation whose counter is not 0 is refused")
    func test_31_2_step7Counter() async throws {
        let (keyID, object) = try await attest(with: attester(fault: .counter))
        #expect(await verify(object, keyID: keyID) == .failure(.counterNotZero))
    }

    @Test("issue 31 §2 step 8: a production aaguid where development is configured is refused")
    func test_31_2_step8Environment() async throws {
        let (keyID, object) = try await attest(with: attester(environment: .production))
        #expect(await verify(object, keyID: keyID) == .failure(.wrongEnvironment))
    }

    @Test("issue 31 §2 step 9: a credential id that is not the key id is refused")
    func test_31_2_step9CredentialID() async throws {
        let (keyID, object) = try await attest(with: attester(fault: .credentialID))
        #expect(await verify(object, keyID: keyID) == .failure(.credentialIDMismatch))
    }

    @Test("issue 31 §2 another format, or bytes that are not an attestation, are refused")
    func test_31_2_formatAndGarbage() async throws {
        let (keyID, object) = try await attest(with: attester(fault: .format))
        #expect(await verify(object, keyID: keyID) == .failure(.wrongFormat))
        #expect(await verify([0xa0], keyID: keyID) == .failure(.malformed))
        #expect(await verify(Array(object.dropLast(5)), keyID: keyID) == .failure(.malformed))
        let (goodKeyID, good) = try await attest(with: attester())
        #expect(try await verify(good, keyID: goodKeyID).get().appID == Self.appID)
        let notBase64 = await verify(good, keyID: "not base64!")
        #expect(notBase64 == .failure(.malformed), "\(notBase64)")
    }

    @Test("issue 31 §2 an assertion verifies with the attested key, and only with a counter that grew")
    func test_31_2_assertions() async throws {
        let attester = attester()
        let (keyID, object) = try await attest(with: attester)
        let key = try await verify(object, keyID: keyID).get()
        let message = try SignedMessage.login(challengeID: "c-1", challenge: "login challenge")
        let hash = AppAttestClientData.hash(AppAttestClientData.assertion(over: message))
        let first = Array(try await attester.generateAssertion(keyID, clientDataHash: hash))

        let counter = try verifier.verifyAssertion(
            first, clientDataHash: hash, publicKey: key.publicKey, appID: key.appID, previousCounter: 0)
        #expect(counter == 1)

        func check(_ bytes: [UInt8], over hash: Data, previous: UInt32, appID: String = Self.appID) -> AppAttestFailure?
        {
            do {
                _ = try verifier.verifyAssertion(
                    bytes, clientDataHash: hash, publicKey: key.publicKey, appID: appID, previousCounter: previous)
                return nil
            } catch { return error }
        }
        #expect(check(first, over: hash, previous: 1) == .counterNotIncreased, "the same assertion again")
        let otherMessage = try SignedMessage.login(challengeID: "c-2", challenge: "another challenge")
        #expect(check(first, over: AppAttestClientData.hash(otherMessage.bytes), previous: 0) == .badSignature)
        #expect(check(first, over: hash, previous: 0, appID: "TEAM000000.com.example.other") == .appIDMismatch)
        #expect(check([0x01, 0x02], over: hash, previous: 0) == .malformed)
        let second = Array(try await attester.generateAssertion(keyID, clientDataHash: hash))
        #expect(check(second, over: hash, previous: 1) == nil, "the next assertion's counter grew")
    }

    @Test("issue 31 §2 Apple's App Attest root is built in and pinned by its SHA-256 fingerprint")
    func test_31_2_appleRootPinned() throws {
        let roots = try AppAttestVerifier.roots(fromPEM: AppleAppAttestRoot.pem)
        #expect(roots.count == 1)
        var serializer = DER.Serializer()
        try serializer.serialize(roots[0])
        let fingerprint = SHA256.hash(data: serializer.serializedBytes).map { String(format: "%02x", $0) }.joined()
        #expect(fingerprint == "1cb9823ba28ba6ad2d33a006941de2ae4f513ef1d4e831b9f7e0fa7b6242c932")
        #expect(roots[0].subject.description.contains("Apple App Attestation Root CA"))
        let settings = AppAttestSettings()
        #expect(try AppAttestVerifier(settings).roots == roots, "without a root file, Apple's root is the one")
    }
}
