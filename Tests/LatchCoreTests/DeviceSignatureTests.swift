import Crypto
import Foundation
import LatchCore
import Testing

/// A11: biometric success is proven by a signature from a device key, never by a bare flag.
/// B5, B6: the server checks P-256 ECDSA/SHA-256 signatures (DER, base64url) against the bound
/// X9.63 public key — and answers `false`, never a crash, to anything malformed.
@Suite("A11 device signatures")
struct DeviceSignatureTests {
    let key = P256.Signing.PrivateKey()
    var publicKey: String { DeviceSignature.publicKeyBase64URL(of: key.publicKey) }
    let message = try! SignedMessage.verification(
        action: "withdrawal", parameters: ["amount": "100.00", "currency": "USDT", "address": "TXabc"],
        challengeID: "chl_1", challenge: "c2lnbi1tZQ")

    // MARK: - Round trip

    @Test func A11_signatureFromTheDeviceKeyVerifies() throws {
        let signature = try DeviceSignature.sign(message, with: key)

        let valid = DeviceSignature.verify(
            publicKeyX963Base64URL: publicKey, signatureDERBase64URL: signature, message: message)

        #expect(valid)
    }

    @Test func A11_publicKeyIsTheSixtyFiveByteUncompressedPoint() throws {
        let bytes = try #require(Base64URL.decode(publicKey))

        #expect(bytes.count == 65)
        #expect(bytes.first == 0x04)
        #expect(bytes == Array(key.publicKey.x963Representation))
        #expect(!publicKey.contains("="))
    }

    @Test func A11_signatureIsDERWithSHA256AsAppleMakesIt() throws {
        // Set-up: what the Secure Enclave's .ecdsaSignatureMessageX962SHA256 produces is a DER
        // signature over SHA-256(message); make one the long way and check it verifies.
        let digest = SHA256.hash(data: message.bytes)
        let signature = try key.signature(for: digest)
        let encoded = Base64URL.encode(signature.derRepresentation)

        let valid = DeviceSignature.verify(
            publicKeyX963Base64URL: publicKey, signatureDERBase64URL: encoded, message: message)

        #expect(valid)
        #expect(Base64URL.decode(encoded)?.first == 0x30) // DER SEQUENCE
    }

    @Test func A11_paddedBase64URLIsAccepted() throws {
        let signature = try DeviceSignature.sign(message, with: key)
        func padded(_ text: String) -> String { text + String(repeating: "=", count: (4 - text.count % 4) % 4) }

        let valid = DeviceSignature.verify(
            publicKeyX963Base64URL: padded(publicKey), signatureDERBase64URL: padded(signature), message: message)

        #expect(valid)
    }

    @Test func A11_rawBytesOverloadAgreesWithTheMessage() throws {
        let signature = try DeviceSignature.sign(message, with: key)

        #expect(
            DeviceSignature.verify(
                publicKeyX963Base64URL: publicKey, signatureDERBase64URL: signature, message: message.bytes))
    }

    // MARK: - Wrong key, wrong message

    @Test func A11_signatureByAnotherKeyIsRefused() throws {
        let other = P256.Signing.PrivateKey()
        let signature = try DeviceSignature.sign(message, with: other)

        let valid = DeviceSignature.verify(
            publicKeyX963Base64URL: publicKey, signatureDERBase64URL: signature, message: message)

        #expect(!valid)
    }

    @Test func D3_signatureForOneActionOrAmountDoesNotVerifyAnother() throws {
        // Set-up: the device signed a withdrawal of 100.00.
        let signature = try DeviceSignature.sign(message, with: key)
        let others = [
            try SignedMessage.verification(
                action: "withdrawal", parameters: ["amount": "100000.00", "currency": "USDT", "address": "TXabc"],
                challengeID: "chl_1", challenge: "c2lnbi1tZQ"),
            try SignedMessage.verification(
                action: "withdrawal", parameters: ["amount": "100.00", "currency": "USDT", "address": "TXevil"],
                challengeID: "chl_1", challenge: "c2lnbi1tZQ"),
            try SignedMessage.verification(
                action: "transfer", parameters: ["amount": "100.00", "currency": "USDT", "address": "TXabc"],
                challengeID: "chl_1", challenge: "c2lnbi1tZQ"),
            try SignedMessage.login(challengeID: "chl_1", challenge: "c2lnbi1tZQ"),
            try SignedMessage.verification(
                action: "withdrawal", parameters: ["amount": "100.00", "currency": "USDT", "address": "TXabc"],
                challengeID: "chl_2", challenge: "c2lnbi1tZQ")
        ]

        // Act and check
        for other in others {
            #expect(
                !DeviceSignature.verify(
                    publicKeyX963Base64URL: publicKey, signatureDERBase64URL: signature, message: other))
        }
    }

    @Test func A11_everySingleBitFlipOfTheMessageIsRefused() throws {
        let signature = try DeviceSignature.sign(message, with: key)
        let bytes = message.bytes

        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x01
            #expect(
                !DeviceSignature.verify(
                    publicKeyX963Base64URL: publicKey, signatureDERBase64URL: signature, message: changed))
        }
    }

    @Test func A11_everySingleByteChangeOfTheSignatureIsRefused() throws {
        let signature = try #require(Base64URL.decode(try DeviceSignature.sign(message, with: key)))

        for index in signature.indices {
            var changed = signature
            changed[index] &+= 1
            let encoded = Base64URL.encode(changed)
            #expect(
                !DeviceSignature.verify(
                    publicKeyX963Base64URL: publicKey, signatureDERBase64URL: encoded, message: message))
        }
    }

    // MARK: - Malformed input: false, never a crash

    @Test func A11_malformedPublicKeysAreRefused() throws {
        // Set-up
        let signature = try DeviceSignature.sign(message, with: key)
        let point = Array(key.publicKey.x963Representation)
        var offCurve = point
        offCurve[64] ^= 0x01
        let badKeys: [(String, String)] = [
            ("empty", ""),
            ("not base64url", "not a key!"),
            // The published vector's key (docs/signature-test-vector.json) in the standard alphabet.
            (
                "standard alphabet",
                "BCl+UbKUFJ165Akj7rwaY5oB0IMAtCW08I++s3BOyWuQdcLU+xDRYSGDGv4PmX4NJNVLEIzS8gr9o9MwgINzOcQ"
            ),
            ("raw X‖Y without 04", Base64URL.encode(point.dropFirst())),
            ("compressed point", Base64URL.encode(key.publicKey.compressedRepresentation)),
            ("DER SubjectPublicKeyInfo", Base64URL.encode(key.publicKey.derRepresentation)),
            ("one byte short", Base64URL.encode(point.dropLast())),
            ("one byte long", Base64URL.encode(point + [0])),
            ("hybrid-form prefix 06", Base64URL.encode([0x06] + point.dropFirst())),
            ("not on the curve", Base64URL.encode(offCurve)),
            (
                "x = y = 1",
                Base64URL.encode(
                    [0x04] + [UInt8](repeating: 0, count: 31) + [1] + [UInt8](repeating: 0, count: 31) + [1])
            ),
            ("all zero (infinity)", Base64URL.encode([0x04] + [UInt8](repeating: 0, count: 64))),
            ("coordinates ≥ p", Base64URL.encode([0x04] + [UInt8](repeating: 0xff, count: 64)))
        ]

        // Act and check
        for (name, badKey) in badKeys {
            #expect(DeviceSignature.publicKey(fromBase64URL: badKey) == nil, "\(name)")
            #expect(
                !DeviceSignature.verify(
                    publicKeyX963Base64URL: badKey, signatureDERBase64URL: signature, message: message), "\(name)")
        }
        #expect(DeviceSignature.publicKey(fromBase64URL: publicKey) != nil)
    }

    @Test func A11_malformedSignaturesAreRefused() throws {
        // Set-up
        let der = try #require(Base64URL.decode(try DeviceSignature.sign(message, with: key)))
        let raw = try Array(key.signature(for: message.bytes).rawRepresentation)
        let badSignatures: [(String, String)] = [
            ("empty", ""),
            ("not base64url", "***"),
            ("raw r‖s instead of DER", Base64URL.encode(raw)),
            ("DER with a trailing byte", Base64URL.encode(der + [0])),
            ("truncated DER", Base64URL.encode(der.dropLast())),
            ("only the SEQUENCE header", Base64URL.encode(der.prefix(2))),
            ("r = s = 0", Base64URL.encode([0x30, 0x06, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00])),
            ("r = s = 1", Base64URL.encode([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01])),
            ("random bytes", Base64URL.encode((0..<72).map { UInt8($0) })),
            ("a single byte", "AA")
        ]

        // Act and check
        for (name, badSignature) in badSignatures {
            #expect(
                !DeviceSignature.verify(
                    publicKeyX963Base64URL: publicKey, signatureDERBase64URL: badSignature, message: message), "\(name)"
            )
        }
    }

    @Test func A11_randomGarbageNeverCrashes() {
        // Fuzz the decoders and parsers with random text and random bytes: the only answer is false.
        var generator = SeededGenerator(seed: 11)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ ")
        for _ in 0..<500 {
            let keyLength = Int.random(in: 0...100, using: &generator)
            let signatureLength = Int.random(in: 0...100, using: &generator)
            let randomKey = String((0..<keyLength).map { _ in alphabet.randomElement(using: &generator)! })
            let randomSignature = Base64URL.encode(
                (0..<signatureLength).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let prefixedKey = Base64URL.encode(
                [0x04] + (0..<64).map { _ in UInt8.random(in: 0...255, using: &generator) })

            #expect(
                !DeviceSignature.verify(
                    publicKeyX963Base64URL: randomKey, signatureDERBase64URL: randomSignature, message: message))
            #expect(
                !DeviceSignature.verify(
                    publicKeyX963Base64URL: prefixedKey, signatureDERBase64URL: randomSignature, message: message))
        }
    }
}
