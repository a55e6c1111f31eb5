import Foundation
import LatchCore
import Testing

/// A11, B5: device public keys and signatures travel as base64url (RFC 4648 §5), without padding.
@Suite("A11 base64url")
struct Base64URLTests {
    @Test func A11_encodesWithTheURLAlphabetAndNoPadding() {
        #expect(Base64URL.encode([]) == "")
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(Base64URL.encode([0xfb, 0xef, 0xbe]) == "----")
        #expect(Base64URL.encode([0xff, 0xff, 0xff]) == "____")
        #expect(Base64URL.encode(Array("f".utf8)) == "Zg")
        #expect(Base64URL.encode(Array("fo".utf8)) == "Zm8")
        #expect(Base64URL.encode(Array("foo".utf8)) == "Zm9v")
    }

    @Test func A11_decodesWithOrWithoutPadding() {
        #expect(Base64URL.decode("-_8") == [0xfb, 0xff])
        #expect(Base64URL.decode("-_8=") == [0xfb, 0xff])
        #expect(Base64URL.decode("Zg") == Array("f".utf8))
        #expect(Base64URL.decode("Zg==") == Array("f".utf8))
        #expect(Base64URL.decode("") == [])
    }

    @Test func A11_roundTripsEveryLengthUpToSeventyBytes() {
        var generator = SeededGenerator(seed: 4648)
        for length in 0...70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }

            let encoded = Base64URL.encode(bytes)

            #expect(Base64URL.decode(encoded) == bytes)
            #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
        }
    }

    @Test func A11_encodesAsFoundationDoesInTheURLAlphabet() {
        var generator = SeededGenerator(seed: 21)
        let samples = (0...70).map { length in
            (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        }
        for bytes in samples + [Array(0...255), Array((0...255).reversed())] {
            var expected = Data(bytes).base64EncodedString()
            expected = expected.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            while expected.hasSuffix("=") { expected.removeLast() }

            #expect(Base64URL.encode(bytes) == expected, "\(bytes.count) bytes")
        }
    }

    @Test func A11_refusesWhatIsNotBase64URL() {
        let refused = [
            "+/8", // standard alphabet
            "-_8 ", // whitespace
            "-_ 8",
            "Z", // impossible length
            "Zg=", // wrong amount of padding
            "Zg===",
            "Zm9v====",
            "Z=g", // padding before the end
            "Zm9v\n",
            "!!!!",
            "Zm9vü"
        ]

        for text in refused {
            #expect(Base64URL.decode(text) == nil, "\(text.debugDescription)")
        }
    }
}
