import Foundation
import LatchCore
import Testing

/// D1: recovery codes for a lost authenticator — ten one-time codes, easy to read and type.
@Suite("D1 recovery codes")
struct RecoveryCodeTests {
    @Test func D1_generatesTenDistinctCodesOfTheShapeXxxxxDashXxxxx() {
        // Act
        let codes = RecoveryCode.generate()

        // Check
        #expect(codes.count == 10)
        #expect(Set(codes).count == 10)
        for code in codes {
            let parts = code.split(separator: "-", omittingEmptySubsequences: false)
            #expect(parts.map(\.count) == [5, 5], "\(code)")
            #expect(code.replacingOccurrences(of: "-", with: "").allSatisfy { RecoveryCode.alphabet.contains($0) })
        }
    }

    @Test func D1_alphabetHasNoLookAlikes() {
        let alphabet = RecoveryCode.alphabet

        #expect(alphabet.count == 31)
        #expect(Set(alphabet).count == 31)
        for ambiguous in ["0", "o", "O", "1", "l", "I", "i"] {
            #expect(!alphabet.contains(ambiguous), "\(ambiguous)")
        }
    }

    @Test func D1_generationUsesTheGivenGeneratorAndEveryCharacter() {
        // Set-up
        var a = SeededGenerator(seed: 1)
        var b = SeededGenerator(seed: 1)

        // Act
        let first = RecoveryCode.generate(count: 200, using: &a)
        let second = RecoveryCode.generate(count: 200, using: &b)

        // Check: deterministic for a seed; 2,000 characters cover the whole alphabet.
        #expect(first == second)
        #expect(Set(first).count == 200)
        #expect(Set(first.joined().replacingOccurrences(of: "-", with: "")) == Set(RecoveryCode.alphabet))
    }

    @Test func D1_normalizeMakesTypedInputComparable() {
        let stored = RecoveryCode.normalize("7kq2m-x9fht")

        #expect(stored == "7kq2mx9fht")
        #expect(RecoveryCode.normalize("7KQ2M-X9FHT") == stored)
        #expect(RecoveryCode.normalize(" 7kq2m x9fht\n") == stored)
        #expect(RecoveryCode.normalize("7kq2mx9fht") == stored)
        #expect(RecoveryCode.normalize("7kq-2m-x9f-ht") == stored)
        // Full-width input from an East Asian keyboard, with an ideographic space and a full-width dash.
        #expect(RecoveryCode.normalize("７ＫＱ２Ｍ－Ｘ９ＦＨＴ") == stored)
        #expect(RecoveryCode.normalize("７ｋｑ２ｍ\u{3000}ｘ９ｆｈｔ") == stored)
        // A different code stays different.
        #expect(RecoveryCode.normalize("7kq2m-x9fhu") != stored)
    }
}
