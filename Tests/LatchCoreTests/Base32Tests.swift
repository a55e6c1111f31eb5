import LatchCore
import Testing

/// D1: the TOTP secret travels as Base32 (RFC 4648 §6) in the otpauth:// URI and for manual entry.
@Suite("D1 Base32 secrets")
struct Base32Tests {
    /// RFC 4648 §10 test vectors (padding removed: Latch encodes without it).
    static let rfc4648: [(text: String, encoded: String)] = [
        ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"),
        ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI")
    ]

    @Test func D1_encodesRFC4648VectorsWithoutPadding() {
        for vector in Self.rfc4648 {
            #expect(Base32.encode(Array(vector.text.utf8)) == vector.encoded)
        }
    }

    @Test func D1_decodesRFC4648VectorsWithAndWithoutPadding() {
        // Set-up: the RFC's own padded forms, e.g. "MY======".
        for vector in Self.rfc4648 {
            let padded = vector.encoded + String(repeating: "=", count: (8 - vector.encoded.count % 8) % 8)

            // Act and check
            #expect(Base32.decode(vector.encoded) == Array(vector.text.utf8))
            #expect(Base32.decode(padded) == Array(vector.text.utf8), "\(padded)")
        }
    }

    @Test func D1_roundTripsEveryLengthUpToFortyBytes() {
        var generator = SeededGenerator(seed: 4648)
        for length in 0...40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }

            let encoded = Base32.encode(bytes)

            #expect(Base32.decode(encoded) == bytes)
            #expect(encoded.count == (length * 8 + 4) / 5)
            #expect(encoded.allSatisfy { "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".contains($0) })
        }
    }

    @Test func D1_decodingToleratesLowerCaseSpacesAndPadding() {
        // Set-up: Google's example key, as people type or apps show it.
        let bytes = Base32.decode("JBSWY3DPEHPK3PXP")!

        // Act and check
        #expect(Base32.decode("jbswy3dpehpk3pxp") == bytes)
        #expect(Base32.decode("jbsw y3dp ehpk 3pxp") == bytes)
        #expect(Base32.decode(" JBSW\tY3DP\nEHPK\r\n3PXP ") == bytes)
        #expect(Base32.decode("MZXW6YQ=") == Array("foob".utf8))
        #expect(Base32.decode("mzxw 6yq =") == Array("foob".utf8))
        #expect(bytes == [0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x21, 0xde, 0xad, 0xbe, 0xef])
    }

    @Test func D1_decodingRefusesWhatIsNotBase32() {
        let refused = [
            "JBSWY3DPEHPK3PX0", // 0 is not in the alphabet
            "JBSWY3DPEHPK3PX1", // nor 1
            "JBSWY3DPEHPK3PX8", // nor 8
            "JBSW-Y3DP", // dashes are not tolerated, only spaces
            "MZ=XW6YQ", // padding before the end
            "M", // 1, 3 or 6 characters past a multiple of 8 cannot come from an encoder
            "MZX",
            "MZXW6Y",
            "MZXW6YTBM",
            "ＭＺＸＷ６" // full-width letters
        ]

        for text in refused {
            #expect(Base32.decode(text) == nil, "\(text)")
        }
    }

    @Test func D1_generatedSecretIsTwentyRandomBytes() {
        // Act
        let first = TOTPSecret.generate()
        let second = TOTPSecret.generate()

        // Check: 160 bits, and two draws differ (a collision has probability 2^-160).
        #expect(first.count == 20)
        #expect(second.count == 20)
        #expect(first != second)
        #expect(Base32.encode(first).count == 32)
    }

    @Test func D1_generatedSecretComesFromTheGivenGenerator() {
        var a = SeededGenerator(seed: 6238)
        var b = SeededGenerator(seed: 6238)

        #expect(TOTPSecret.generate(using: &a) == TOTPSecret.generate(using: &b))
    }
}
