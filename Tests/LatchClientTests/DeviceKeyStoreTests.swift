import Crypto
import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// B5, B6, A11: the software device key and the signature contract.
@Suite("B5 device keys")
struct DeviceKeyStoreTests {
    static let loginMessage = try! SignedMessage.login(challengeID: "chl_1", challenge: "abc-_XYZ")

    // MARK: - Create, sign, verify

    @Test func B5_createdKeySignsWhatTheServerVerifies() async throws {
        // Set-up
        let store = SoftwareDeviceKeyStore(vault: TestVault())

        // Act
        let key = try await store.createKey()
        let signature = try await store.sign(Self.loginMessage)

        // Check: the server's own check (DeviceSignature.verify) accepts it.
        #expect(key.reference == "device-key")
        #expect(Base64URL.decode(key.publicKey)?.count == 65)
        #expect(Base64URL.decode(key.publicKey)?.first == 0x04)
        #expect(!key.publicKey.contains("="))
        #expect(DeviceSignature.publicKey(fromBase64URL: key.publicKey) != nil)
        #expect(
            DeviceSignature.verify(
                publicKeyX963Base64URL: key.publicKey, signatureDERBase64URL: signature, message: Self.loginMessage))
        _ = try P256.Signing.ECDSASignature(derRepresentation: try #require(Base64URL.decode(signature)))
    }

    @Test func B5_signatureDoesNotVerifyAnotherMessageOrKey() async throws {
        let store = SoftwareDeviceKeyStore(vault: TestVault())
        let key = try await store.createKey()
        let other = try SignedMessage.login(challengeID: "chl_1", challenge: "abc-_XYZ!")

        let signature = try await store.sign(Self.loginMessage)

        #expect(
            !DeviceSignature.verify(
                publicKeyX963Base64URL: key.publicKey, signatureDERBase64URL: signature, message: other))
        let stranger = DeviceSignature.publicKeyBase64URL(of: P256.Signing.PrivateKey().publicKey)
        #expect(
            !DeviceSignature.verify(
                publicKeyX963Base64URL: stranger, signatureDERBase64URL: signature, message: Self.loginMessage))
    }

    @Test func A11_verificationMessagesAreSignedToo() async throws {
        let store = SoftwareDeviceKeyStore(vault: TestVault())
        let key = try await store.createKey()
        let message = try SignedMessage.verification(
            action: "withdrawal", parameters: ["amount": "100.00", "currency": "USDT", "address": "TXabc"],
            challengeID: "chl_2", challenge: "c2")

        let signature = try await store.sign(message)

        #expect(
            DeviceSignature.verify(
                publicKeyX963Base64URL: key.publicKey, signatureDERBase64URL: signature, message: message))
    }

    // MARK: - Persistence

    @Test func B5_keyPersistsAcrossStoreInstancesThroughTheVault() async throws {
        // Set-up: one store creates the key.
        let vault = TestVault()
        let key = try await SoftwareDeviceKeyStore(vault: vault).createKey()

        // Act: a new store on the same vault (as after an app restart) signs.
        let again = SoftwareDeviceKeyStore(vault: vault)
        let signature = try await again.sign(Self.loginMessage)

        // Check
        #expect(try await again.publicKey() == key.publicKey)
        #expect(try await again.hasKey())
        #expect(
            DeviceSignature.verify(
                publicKeyX963Base64URL: key.publicKey, signatureDERBase64URL: signature, message: Self.loginMessage))
        #expect(await vault.items["device-key"]?.count == 32)
    }

    @Test func B5_createReplacesTheEarlierKey() async throws {
        let store = SoftwareDeviceKeyStore(vault: TestVault())
        let first = try await store.createKey()

        let second = try await store.createKey()

        #expect(first.publicKey != second.publicKey)
        #expect(try await store.publicKey() == second.publicKey)
    }

    @Test func B5_deleteRemovesTheKeyAndOnlyIt() async throws {
        // Set-up: the vault also holds the session.
        let vault = TestVault(items: ["session": Data("tokens".utf8)])
        let store = SoftwareDeviceKeyStore(vault: vault)
        _ = try await store.createKey()

        // Act
        try await store.deleteKey()
        try await store.deleteKey() // deleting nothing is fine

        // Check
        #expect(try await !store.hasKey())
        #expect(try await store.publicKey() == nil)
        #expect(await vault.keys == ["session"])
        await #expect(throws: DeviceKeyError.noKey) { try await store.sign(Self.loginMessage) }
    }

    @Test func B5_customVaultItem() async throws {
        let vault = TestVault()
        let store = SoftwareDeviceKeyStore(vault: vault, vaultKey: "acme-device-key")

        let key = try await store.createKey()

        #expect(key.reference == "acme-device-key")
        #expect(await vault.keys == ["acme-device-key"])
    }

    // MARK: - Failures

    @Test func B5_lockedVaultIsUnavailableNotAbsent() async throws {
        let vault = TestVault()
        let store = SoftwareDeviceKeyStore(vault: vault)
        _ = try await store.createKey()

        await vault.lock()

        await #expect(throws: DeviceKeyError.unavailable) { try await store.hasKey() }
        await #expect(throws: DeviceKeyError.unavailable) { try await store.sign(Self.loginMessage) }
        await vault.unlock()
        #expect(try await store.hasKey())
    }

    @Test func B5_damagedKeyIsUnusable() async throws {
        let vault = TestVault(items: ["device-key": Data([1, 2, 3])])
        let store = SoftwareDeviceKeyStore(vault: vault)

        await #expect(throws: DeviceKeyError.unusable) { try await store.sign(Self.loginMessage) }
        await #expect(throws: DeviceKeyError.unusable) { try await store.publicKey() }
    }

    @Test func B5_errorsHaveStableCodes() {
        let errors: [DeviceKeyError] = [
            .noKey, .unavailable, .unusable, .cancelled, .authenticationFailed, .platform(code: -25293)
        ]

        #expect(
            errors.map(\.code) == [
                "device_key_missing", "device_key_unavailable", "device_key_unusable", "device_key_cancelled",
                "device_key_authentication_failed", "device_key_platform_error"
            ])
        #expect(DeviceKeyError.platform(code: -25293).description.contains("-25293"))
    }

    @Test func B5_platformDefaultOnLinuxIsTheSoftwareStore() async throws {
        #if os(Linux)
            let vault = TestVault()

            let store = DeviceKeyStores.platformDefault(vault: vault, authenticator: SimulatedAuthenticator())

            #expect(store is SoftwareDeviceKeyStore)
            let key = try await store.createKey()
            #expect(await vault.keys == ["device-key"])
            #expect(try await store.publicKey() == key.publicKey)
        #endif
    }

    // MARK: - The published test vector (docs/signature-test-vector.json)

    struct Vector {
        let privateKey: [UInt8]
        let publicKey: String
        let verify: [String: Any]
        let login: [String: Any]

        static func load() throws -> Vector {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            let data = try Data(contentsOf: root.appendingPathComponent("docs/signature-test-vector.json"))
            let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let hex = try #require(json["private_key_hex"] as? String)
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                bytes.append(try #require(UInt8(hex[index..<next], radix: 16)))
                index = next
            }
            return Vector(
                privateKey: bytes, publicKey: try #require(json["public_key"] as? String),
                verify: try #require(json["verify"] as? [String: Any]),
                login: try #require(json["login"] as? [String: Any]))
        }

        func verifyMessage() throws -> SignedMessage {
            try SignedMessage.verification(
                action: try #require(verify["action"] as? String),
                parameters: try #require(verify["parameters"] as? [String: String]),
                challengeID: try #require(verify["challenge_id"] as? String),
                challenge: try #require(verify["challenge"] as? String))
        }

        func loginMessage() throws -> SignedMessage {
            try SignedMessage.login(
                challengeID: try #require(login["challenge_id"] as? String),
                challenge: try #require(login["challenge"] as? String))
        }
    }

    @Test func A11_vectorKeyInTheVaultGivesThePublishedPublicKey() async throws {
        // Set-up: the vector's private key where SoftwareDeviceKeyStore keeps its key.
        let vector = try Vector.load()
        let store = SoftwareDeviceKeyStore(vault: TestVault(items: ["device-key": Data(vector.privateKey)]))

        // Act
        let publicKey = try await store.publicKey()

        // Check
        #expect(publicKey == vector.publicKey)
    }

    @Test func A11_publishedSignaturesVerifyWithTheStoresPublicKey() async throws {
        // Set-up
        let vector = try Vector.load()
        let store = SoftwareDeviceKeyStore(vault: TestVault(items: ["device-key": Data(vector.privateKey)]))
        let publicKey = try #require(try await store.publicKey())

        // Act: the messages as this SDK builds them, and the signatures as published.
        let verifyMessage = try vector.verifyMessage()
        let loginMessage = try vector.loginMessage()
        let verifySignature = try #require(vector.verify["signature"] as? String)
        let loginSignature = try #require(vector.login["signature"] as? String)

        // Check: the bytes are the published ones, and the published signatures verify.
        #expect(verifyMessage.text == vector.verify["message"] as? String)
        #expect(loginMessage.text == vector.login["message"] as? String)
        #expect(
            DeviceSignature.verify(
                publicKeyX963Base64URL: publicKey, signatureDERBase64URL: verifySignature, message: verifyMessage))
        #expect(
            DeviceSignature.verify(
                publicKeyX963Base64URL: publicKey, signatureDERBase64URL: loginSignature, message: loginMessage))
        #expect(
            !DeviceSignature.verify(
                publicKeyX963Base64URL: publicKey, signatureDERBase64URL: loginSignature, message: verifyMessage))
    }

    @Test func A11_storeSignaturesVerifyWithThePublishedPublicKey() async throws {
        // Set-up
        let vector = try Vector.load()
        let store = SoftwareDeviceKeyStore(vault: TestVault(items: ["device-key": Data(vector.privateKey)]))

        // Act: what this device would send for the vector's challenges.
        let verifyMessage = try vector.verifyMessage()
        let loginMessage = try vector.loginMessage()
        let verifySignature = try await store.sign(verifyMessage)
        let loginSignature = try await store.sign(loginMessage)

        // Check: the server's check with the published key accepts both.
        #expect(
            DeviceSignature.verify(
                publicKeyX963Base64URL: vector.publicKey, signatureDERBase64URL: verifySignature, message: verifyMessage
            ))
        #expect(
            DeviceSignature.verify(
                publicKeyX963Base64URL: vector.publicKey, signatureDERBase64URL: loginSignature, message: loginMessage))
    }
}
