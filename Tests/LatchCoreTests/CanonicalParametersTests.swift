import Foundation
import LatchCore
import Testing

/// D3: a step-up proof is bound to the action's parameters through the digest of their RFC 8785
/// canonical JSON. Expected digests were computed independently (Python, scripts/interop/signature_vector.py).
@Suite("D3 canonical parameters (RFC 8785)")
struct CanonicalParametersTests {
    let withdrawal = ["amount": "100.00", "currency": "USDT", "address": "TXabc"]

    @Test func D3_canonicalJSONSortsKeysAndHasNoWhitespace() {
        let json = CanonicalParameters.json(withdrawal)

        #expect(Array(json.utf8) == Array(#"{"address":"TXabc","amount":"100.00","currency":"USDT"}"#.utf8))
    }

    @Test func D3_canonicalDigestIsLowercaseHexSHA256OfTheCanonicalBytes() {
        let digest = CanonicalParameters.digest(withdrawal)

        #expect(digest == "45793ebe5811dee761d9c8cf3c7cbecc3c0c4ba17d677d31e56335a38af3c7e9")
        #expect(digest.count == 64)
        #expect(digest.allSatisfy { "0123456789abcdef".contains($0) })
    }

    @Test func D3_emptyObject() {
        #expect(CanonicalParameters.json([:]) == "{}")
        #expect(CanonicalParameters.digest([:]) == "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a")
    }

    @Test func D3_canonicalDigestIgnoresInsertionOrder() {
        var reordered: [String: String] = [:]
        for key in ["currency", "address", "amount"] { reordered[key] = withdrawal[key] }

        #expect(CanonicalParameters.digest(reordered) == CanonicalParameters.digest(withdrawal))
    }

    @Test func D3_canonicalDigestChangesWithAnyParameter() {
        // A proof for one withdrawal must not authorize another.
        let variants = [
            ["amount": "100.01", "currency": "USDT", "address": "TXabc"],
            ["amount": "100.00", "currency": "USDC", "address": "TXabc"],
            ["amount": "100.00", "currency": "USDT", "address": "TXabd"],
            ["amount": "100.00", "currency": "USDT"],
            ["amount": "100.00", "currency": "USDT", "address": "TXabc", "memo": ""],
            ["amount": "100.0", "currency": "USDT", "address": "TXabc"]
        ]

        let digests = Set(([withdrawal] + variants).map(CanonicalParameters.digest))

        #expect(digests.count == variants.count + 1)
    }

    @Test func D3_nonASCIIKeysAndValuesAreWrittenAsUTF8() {
        let parameters = ["金额": "100.00", "币种": "USDT", "地址": "TXabc"]

        let json = CanonicalParameters.json(parameters)

        // 地 U+5730 < 币 U+5E01 < 金 U+91D1
        #expect(Array(json.utf8) == Array(#"{"地址":"TXabc","币种":"USDT","金额":"100.00"}"#.utf8))
        #expect(
            CanonicalParameters.digest(parameters) == "85bdd98744f0fa0bd81ad906f0946f2e384468be9750870f3f2dece0b32d8eb9"
        )
    }

    @Test func D3_keysSortByUTF16CodeUnitsNotByScalars() {
        // Set-up: U+E000 < U+1F600 as scalars, but U+1F600 is the surrogate pair D83D DE00 in
        // UTF-16, and 0xD83D < 0xE000 — so RFC 8785 puts the emoji first.
        let parameters = ["\u{E000}": "private use", "\u{1F600}": "grinning face"]

        // Act
        let json = CanonicalParameters.json(parameters)

        // Check
        #expect(Array(json.utf8) == Array("{\"\u{1F600}\":\"grinning face\",\"\u{E000}\":\"private use\"}".utf8))
        #expect(
            CanonicalParameters.digest(parameters) == "d6e8b774089cbbc38821d1af04f916cd78c8ade06dbd06bb6ab0e5a7382f202b"
        )
    }

    @Test func D3_rfc8785SortingExample() {
        // Set-up: RFC 8785 §3.2.3.
        let parameters = [
            "\u{20AC}": "Euro Sign",
            "\r": "Carriage Return",
            "\u{FB33}": "Hebrew Letter Dalet With Dagesh",
            "1": "One",
            "\u{1F600}": "Emoji: Grinning Face",
            "\u{0080}": "Control",
            "\u{00F6}": "Latin Small Letter O With Diaeresis"
        ]

        // Act
        let json = CanonicalParameters.json(parameters)

        // Check: the order the RFC gives, and U+FB33 kept as is (no Unicode normalization: bytes are
        // compared, because Swift's == would also accept its decomposed form).
        #expect(
            Array(json.utf8)
                == Array(
                    "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u{0080}\":\"Control\",\"\u{00F6}\":\"Latin Small Letter O With Diaeresis\",\"\u{20AC}\":\"Euro Sign\",\"\u{1F600}\":\"Emoji: Grinning Face\",\"\u{FB33}\":\"Hebrew Letter Dalet With Dagesh\"}"
                        .utf8))
        #expect(
            CanonicalParameters.digest(parameters) == "5e321556d22018a9656991a9e94f77ec175fa193e52a2429d312f8419ec8b08c"
        )
    }

    @Test func D3_controlCharactersQuoteAndBackslashAreEscapedLikeJSONStringify() {
        // Set-up: every kind of character JSON.stringify treats specially, and some it leaves alone.
        let value = "\u{0}\u{1}\u{8}\t\n\u{B}\u{C}\r\u{1F}\"\\/\u{7F}\u{2028}"

        // Act
        let json = CanonicalParameters.json(["note": value])

        // Check: short forms for \b \t \n \f \r, \u00xx in lower case for the rest below U+0020;
        // "/" , DEL and U+2028 are not escaped.
        #expect(
            Array(json.utf8)
                == Array("{\"note\":\"\\u0000\\u0001\\b\\t\\n\\u000b\\f\\r\\u001f\\\"\\\\/\u{7F}\u{2028}\"}".utf8))
        #expect(
            CanonicalParameters.digest(["note": value])
                == "e876ecb636f70b762297fd86de5bb98755c95288a249f868e46c4c8b5328b4be")
    }

    @Test func D3_rfc8785StringEscapingExample() {
        // Set-up: RFC 8785 §3.2.2.2: "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/"
        let value = "\u{20AC}$\u{F}\nA'B\"\\\\\"/"

        let json = CanonicalParameters.json(["string": value])

        #expect(Array(json.utf8) == Array(#"{"string":"€$\u000f\nA'B\"\\\\\"/"}"#.utf8))
    }

    @Test func D3_escapesEveryControlCharacterAndNothingElseBelow0x80() {
        for scalar in (0x00...0x7F).compactMap(Unicode.Scalar.init) {
            let json = CanonicalParameters.json(["k": String(Character(scalar))])
            let body = String(json.dropFirst(#"{"k":""#.count).dropLast(2))
            switch scalar.value {
            case 0x08: #expect(body == "\\b")
            case 0x09: #expect(body == "\\t")
            case 0x0A: #expect(body == "\\n")
            case 0x0C: #expect(body == "\\f")
            case 0x0D: #expect(body == "\\r")
            case 0x00..<0x20: #expect(body == String(format: "\\u%04x", scalar.value))
            case 0x22: #expect(body == "\\\"")
            case 0x5C: #expect(body == "\\\\")
            default: #expect(body == String(Character(scalar)))
            }
        }
    }

    @Test func D3_canonicalJSONParsesBackToTheSameParameters() throws {
        // Set-up: random keys and values from a mix of ASCII, controls, BMP and astral characters.
        var generator = SeededGenerator(seed: 8785)
        let pool: [Unicode.Scalar] =
            (0x00...0x7F).compactMap(Unicode.Scalar.init)
            + [
                "\u{80}", "\u{E9}", "\u{2028}", "\u{4E2D}", "\u{E000}", "\u{FB33}", "\u{FFFD}", "\u{1F600}",
                "\u{10FFFF}"
            ]
        func randomString() -> String {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                scalars.append(pool.randomElement(using: &generator)!)
            }
            return String(scalars)
        }

        for _ in 0..<200 {
            var parameters: [String: String] = [:]
            for _ in 0..<Int.random(in: 0...6, using: &generator) { parameters[randomString()] = randomString() }

            // Act
            let data = Data(CanonicalParameters.utf8(parameters))
            let parsed = try JSONDecoder().decode([String: String].self, from: data)

            // Check
            #expect(parsed == parameters)
            #expect(!CanonicalParameters.json(parameters).contains("\n"))
        }
    }

    @Test func D3_canonicalJSONDoesNotNormalizeUnicode() {
        // RFC 8785 §3.1: strings are taken as they are. "é" precomposed and decomposed are
        // different parameters to the digest (Swift's String == would call them equal).
        let precomposed = CanonicalParameters.json(["\u{E9}": "x"])
        let decomposed = CanonicalParameters.json(["e\u{301}": "x"])

        #expect(Array(precomposed.utf8) == Array("{\"\u{E9}\":\"x\"}".utf8))
        #expect(Array(precomposed.utf8) != Array(decomposed.utf8))
        #expect(CanonicalParameters.digest(["\u{E9}": "x"]) != CanonicalParameters.digest(["e\u{301}": "x"]))
    }

    @Test func D3_utf8IsTheBytesOfJSON() {
        #expect(CanonicalParameters.utf8(withdrawal) == Array(CanonicalParameters.json(withdrawal).utf8))
    }
}
