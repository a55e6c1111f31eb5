import Crypto
import Foundation
import LatchCore
import Testing

/// A11, B6, D3: the published test vector of the signed-message contract (ARCHITECTURE.md,
/// "Contract: tokens and signatures"), also in docs/signature-test-vector.json for outside clients.
///
/// Produced once by `scripts/interop/signature_vector.py --generate` (Python `cryptography`, i.e.
/// OpenSSL — an implementation independent of swift-crypto). ECDSA is randomized, so the vector holds
/// one valid signature per message: the test checks that it verifies and that any change fails.
/// The other direction (Python checks signatures made here):
///
///     LATCH_SIGNATURE_INTEROP_OUT=/tmp/latch-signature.json swift test --filter SignatureVectorTests
///     python3 scripts/interop/signature_vector.py --check /tmp/latch-signature.json
@Suite("A11 signature test vector")
struct SignatureVectorTests {
    /// The device key: raw 32-byte P-256 scalar, SHA-256("latch-v1 signature test vector device key").
    static let privateKeyHex = "73f48bbe8bd0d8f599e47a8aaff65bd30204642c8667e502af6d01e3cafa1b43"
    /// base64url (no padding) of the 65-byte X9.63 uncompressed point.
    static let publicKey = "BCl-UbKUFJ165Akj7rwaY5oB0IMAtCW08I--s3BOyWuQdcLU-xDRYSGDGv4PmX4NJNVLEIzS8gr9o9MwgINzOcQ"
    static let publicKeyX963Hex =
        "04297e51b294149d7ae40923eebc1a639a01d08300b425b4f08fbeb3704ec96b9075c2d4fb10d16121831afe0f997e0d24d54b108cd2f20afda3d33080837339c4"

    static let challengeID = "chl_01J9Z7Q4XKD3M8V2W6T5R0HBNA"
    static let challenge = "m2Xo9vB6yR0aK8sTqL4eWz1JcN7uH3pGfD5iYtE_-Ug"
    static let action = "withdrawal"
    static let parameters = ["amount": "100.00", "currency": "USDT", "address": "TXabc"]
    static let canonicalParameters = #"{"address":"TXabc","amount":"100.00","currency":"USDT"}"#
    static let digest = "45793ebe5811dee761d9c8cf3c7cbecc3c0c4ba17d677d31e56335a38af3c7e9"
    static let message =
        "latch-v1\nverify:withdrawal:45793ebe5811dee761d9c8cf3c7cbecc3c0c4ba17d677d31e56335a38af3c7e9\nchl_01J9Z7Q4XKD3M8V2W6T5R0HBNA\nm2Xo9vB6yR0aK8sTqL4eWz1JcN7uH3pGfD5iYtE_-Ug"
    /// One DER signature of `message` by the key, base64url.
    static let signature =
        "MEUCIDigjXm5kiPlEujT6lPC4BAvrLh4iESmpz4eyyCuNlNRAiEAtxDZ0mLMOfvVKpga8BmgNxZjVn4FosGVdUpzxVt4Ki8"

    static let loginChallengeID = "chl_01J9Z7RB3F6T2W8K4M9X0QPVCE"
    static let loginChallenge = "Tq8Rz2Kc7Lm4Vx9Nb1Hs6Jd3Fg5Wp0Ya-_EiUoQtXrM"
    static let loginMessage =
        "latch-v1\nlogin\nchl_01J9Z7RB3F6T2W8K4M9X0QPVCE\nTq8Rz2Kc7Lm4Vx9Nb1Hs6Jd3Fg5Wp0Ya-_EiUoQtXrM"
    static let loginSignature =
        "MEQCIFW5lZj9x925HrWBlVLzEKGGsTyhLqFbCZF5zCO3A-vFAiBERpYYrBQ1k688KkE3jsmP8jaO0O1jIuqOEp2hG6bY5w"

    static func bytes(hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    // MARK: - Every intermediate value

    @Test func A11_vectorPublicKeyComesFromThePrivateKey() throws {
        let key = try P256.Signing.PrivateKey(rawRepresentation: Self.bytes(hex: Self.privateKeyHex))

        let publicKey = DeviceSignature.publicKeyBase64URL(of: key.publicKey)

        #expect(publicKey == Self.publicKey)
        #expect(Base64URL.decode(publicKey) == Self.bytes(hex: Self.publicKeyX963Hex))
    }

    @Test func D3_vectorCanonicalParametersAndDigest() {
        #expect(Array(CanonicalParameters.json(Self.parameters).utf8) == Array(Self.canonicalParameters.utf8))
        #expect(CanonicalParameters.digest(Self.parameters) == Self.digest)
    }

    @Test func A11_vectorMessageText() throws {
        let message = try SignedMessage.verification(
            action: Self.action, parameters: Self.parameters, challengeID: Self.challengeID, challenge: Self.challenge)

        #expect(message.bytes == Array(Self.message.utf8))
        #expect(message.purpose.text == "verify:withdrawal:" + Self.digest)
    }

    @Test func B6_vectorLoginMessageText() throws {
        let message = try SignedMessage.login(challengeID: Self.loginChallengeID, challenge: Self.loginChallenge)

        #expect(message.bytes == Array(Self.loginMessage.utf8))
    }

    // MARK: - The signatures

    @Test func A11_vectorSignatureVerifies() throws {
        let message = try SignedMessage.verification(
            action: Self.action, parameters: Self.parameters, challengeID: Self.challengeID, challenge: Self.challenge)

        #expect(
            DeviceSignature.verify(
                publicKeyX963Base64URL: Self.publicKey, signatureDERBase64URL: Self.signature, message: message))
    }

    @Test func B6_vectorLoginSignatureVerifies() throws {
        let message = try SignedMessage.login(challengeID: Self.loginChallengeID, challenge: Self.loginChallenge)

        #expect(
            DeviceSignature.verify(
                publicKeyX963Base64URL: Self.publicKey, signatureDERBase64URL: Self.loginSignature, message: message))
    }

    @Test func A11_vectorSignatureFailsAfterAOneByteChange() throws {
        // Set-up
        let message = Array(Self.message.utf8)
        let signature = try #require(Base64URL.decode(Self.signature))
        var changedMessage = message
        changedMessage[changedMessage.count - 1] ^= 0x01
        var changedSignature = signature
        changedSignature[changedSignature.count - 1] ^= 0x01

        // Act and check
        #expect(
            DeviceSignature.verify(
                publicKeyX963Base64URL: Self.publicKey, signatureDERBase64URL: Self.signature, message: message))
        #expect(
            !DeviceSignature.verify(
                publicKeyX963Base64URL: Self.publicKey, signatureDERBase64URL: Self.signature, message: changedMessage))
        #expect(
            !DeviceSignature.verify(
                publicKeyX963Base64URL: Self.publicKey, signatureDERBase64URL: Base64URL.encode(changedSignature),
                message: message))
        // The login signature does not verify the withdrawal message, nor the other way round.
        #expect(
            !DeviceSignature.verify(
                publicKeyX963Base64URL: Self.publicKey, signatureDERBase64URL: Self.loginSignature, message: message))
        #expect(
            !DeviceSignature.verify(
                publicKeyX963Base64URL: Self.publicKey, signatureDERBase64URL: Self.signature,
                message: Array(Self.loginMessage.utf8)))
    }

    @Test func A11_swiftSignaturesWithTheVectorKeyVerify() throws {
        // What a software device key (LatchClient on Linux) would send for the same challenge.
        let key = try P256.Signing.PrivateKey(rawRepresentation: Self.bytes(hex: Self.privateKeyHex))
        let message = try SignedMessage.verification(
            action: Self.action, parameters: Self.parameters, challengeID: Self.challengeID, challenge: Self.challenge)

        let signature = try DeviceSignature.sign(message, with: key)

        #expect(
            DeviceSignature.verify(
                publicKeyX963Base64URL: Self.publicKey, signatureDERBase64URL: signature, message: message))
    }

    // MARK: - The published file

    @Test func A11_publishedJSONAgreesWithThisFile() throws {
        // Set-up: docs/signature-test-vector.json, three levels above this source file.
        let source = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
        let file = source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/signature-test-vector.json")
        let data = try Data(contentsOf: file)

        // Act
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let verify = try #require(json["verify"] as? [String: Any])
        let login = try #require(json["login"] as? [String: Any])

        // Check
        #expect(json["private_key_hex"] as? String == Self.privateKeyHex)
        #expect(json["public_key"] as? String == Self.publicKey)
        #expect(verify["parameters"] as? [String: String] == Self.parameters)
        #expect(verify["canonical_parameters"] as? String == Self.canonicalParameters)
        #expect(verify["digest"] as? String == Self.digest)
        #expect(verify["challenge_id"] as? String == Self.challengeID)
        #expect(verify["challenge"] as? String == Self.challenge)
        #expect(verify["message"] as? String == Self.message)
        #expect(verify["signature"] as? String == Self.signature)
        #expect(login["message"] as? String == Self.loginMessage)
        #expect(login["signature"] as? String == Self.loginSignature)
    }

    /// Writes the vector with fresh swift-crypto signatures for `scripts/interop/signature_vector.py --check`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LATCH_SIGNATURE_INTEROP_OUT"] != nil))
    func A11_writesSwiftSignaturesForPythonToCheck() throws {
        // Set-up: the vector's inputs, plus parameters that exercise the canonical form.
        let path = try #require(ProcessInfo.processInfo.environment["LATCH_SIGNATURE_INTEROP_OUT"])
        let key = try P256.Signing.PrivateKey(rawRepresentation: Self.bytes(hex: Self.privateKeyHex))
        let parameters = Self.parameters.merging(
            ["备注": "给\u{1F600}\n\"朋友\"\\", "\u{E000}": "\u{7F}\u{1F}/", "\u{1F600}": "", "note": "tab\there"]) { a, _ in
                a
            }

        // Act
        let verify = try SignedMessage.verification(
            action: Self.action, parameters: parameters, challengeID: Self.challengeID, challenge: Self.challenge)
        let login = try SignedMessage.login(challengeID: Self.loginChallengeID, challenge: Self.loginChallenge)
        let document: [String: Any] = [
            "public_key": DeviceSignature.publicKeyBase64URL(of: key.publicKey),
            "verify": [
                "action": Self.action, "parameters": parameters,
                "canonical_parameters": CanonicalParameters.json(parameters),
                "digest": CanonicalParameters.digest(parameters),
                "challenge_id": Self.challengeID, "challenge": Self.challenge,
                "purpose": verify.purpose.text, "message": verify.text,
                "signature": try DeviceSignature.sign(verify, with: key)
            ],
            "login": [
                "challenge_id": Self.loginChallengeID, "challenge": Self.loginChallenge,
                "purpose": login.purpose.text, "message": login.text,
                "signature": try DeviceSignature.sign(login, with: key)
            ]
        ]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path))

        // Check
        #expect(parameters.count == 7)
    }
}
