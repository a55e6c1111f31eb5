import Foundation
import LatchCore
import Testing

/// D1: 2FA is TOTP (RFC 6238, SHA-1, 6 digits, 30 s), as every common authenticator app computes it.
@Suite("D1 TOTP (RFC 6238)")
struct TOTPTests {
    /// RFC 6238 Appendix B seeds: the ASCII digits repeated to the hash's block-friendly length.
    static let sha1Seed = Array("12345678901234567890".utf8)
    static let sha256Seed = Array("12345678901234567890123456789012".utf8)
    static let sha512Seed = Array("1234567890123456789012345678901234567890123456789012345678901234".utf8)

    /// One row of RFC 6238 Appendix B.
    struct AppendixBRow: Sendable, CustomTestStringConvertible {
        let time: TimeInterval
        let counter: Int64
        let sha1: String
        let sha256: String
        let sha512: String
        var testDescription: String { "T=\(Int64(time))" }
    }

    static let appendixB = [
        AppendixBRow(time: 59, counter: 0x1, sha1: "94287082", sha256: "46119246", sha512: "90693936"),
        AppendixBRow(time: 1_111_111_109, counter: 0x23523EC, sha1: "07081804", sha256: "68084774", sha512: "25091201"),
        AppendixBRow(time: 1_111_111_111, counter: 0x23523ED, sha1: "14050471", sha256: "67062674", sha512: "99943326"),
        AppendixBRow(time: 1_234_567_890, counter: 0x273EF07, sha1: "89005924", sha256: "91819424", sha512: "93441116"),
        AppendixBRow(time: 2_000_000_000, counter: 0x3F940AA, sha1: "69279037", sha256: "90698825", sha512: "38618901"),
        AppendixBRow(
            time: 20_000_000_000, counter: 0x27BC86AA, sha1: "65353130", sha256: "77737706", sha512: "47863826")
    ]

    let totp = TOTP(secret: TOTPTests.sha1Seed)
    /// The middle of time step 55_555_556 (1_666_666_680 s … 1_666_666_709 s).
    let now = Date(timeIntervalSince1970: 1_666_666_695)

    // MARK: - RFC 6238 Appendix B

    @Test(arguments: appendixB)
    func D1_rfc6238AppendixBVectors(_ row: AppendixBRow) {
        // Set-up: Appendix B uses 8 digits.
        let date = Date(timeIntervalSince1970: row.time)
        let sha1 = TOTP(secret: Self.sha1Seed, digits: 8)
        let sha256 = TOTP(secret: Self.sha256Seed, digits: 8, algorithm: .sha256)
        let sha512 = TOTP(secret: Self.sha512Seed, digits: 8, algorithm: .sha512)

        // Act and check
        #expect(sha1.counter(at: date) == row.counter)
        #expect(sha1.code(at: date) == row.sha1)
        #expect(sha256.code(at: date) == row.sha256)
        #expect(sha512.code(at: date) == row.sha512)
    }

    @Test(arguments: appendixB)
    func D1_rfc6238AppendixBSixDigitCodesAreTheLastSixDigits(_ row: AppendixBRow) {
        let date = Date(timeIntervalSince1970: row.time)

        let code = totp.code(at: date)

        #expect(code == String(row.sha1.suffix(6)))
        #expect(totp.match(code, at: date) == row.counter)
    }

    @Test func D1_defaultsAreSHA1SixDigitsThirtySeconds() {
        #expect(totp.algorithm == .sha1)
        #expect(totp.digits == 6)
        #expect(totp.period == 30)
    }

    @Test func D1_dataAndByteSecretsGiveTheSameCodes() {
        let fromData = TOTP(secret: Data(Self.sha1Seed))

        #expect(fromData.code(at: now) == totp.code(at: now))
    }

    // MARK: - Counter

    @Test func D1_counterChangesExactlyAtStepBoundaries() {
        #expect(totp.counter(at: Date(timeIntervalSince1970: 0)) == 0)
        #expect(totp.counter(at: Date(timeIntervalSince1970: 29.999)) == 0)
        #expect(totp.counter(at: Date(timeIntervalSince1970: 30)) == 1)
        #expect(totp.counter(at: Date(timeIntervalSince1970: 59.999)) == 1)
        #expect(totp.counter(at: Date(timeIntervalSince1970: 60)) == 2)
        #expect(TOTP(secret: Self.sha1Seed, period: 60).counter(at: Date(timeIntervalSince1970: 119)) == 1)
    }

    @Test func D1_counterBefore1970IsFloored() {
        #expect(totp.counter(at: Date(timeIntervalSince1970: -0.5)) == -1)
        #expect(totp.counter(at: Date(timeIntervalSince1970: -30)) == -1)
        #expect(totp.counter(at: Date(timeIntervalSince1970: -31)) == -2)
    }

    @Test func D1_extremeDatesDoNotTrap() {
        // Act: dates no authenticator will ever show; only "no crash" and "6 digits" matter.
        let dates = [
            Date.distantPast, Date.distantFuture, Date(timeIntervalSince1970: .infinity),
            Date(timeIntervalSince1970: -.infinity), Date(timeIntervalSince1970: .nan)
        ]

        // Check
        for date in dates {
            #expect(totp.code(at: date).count == 6)
            _ = totp.match("000000", at: date, window: 2)
        }
    }

    @Test func D1_codesAreZeroPadded() {
        // Set-up: RFC 6238 row T=1111111109 has the 8-digit code 07081804.
        let date = Date(timeIntervalSince1970: 1_111_111_109)

        let code = TOTP(secret: Self.sha1Seed, digits: 8).code(at: date)

        #expect(code == "07081804")
    }

    // MARK: - Matching: the window

    @Test func D1_currentCodeMatchesItsStep() {
        let step = totp.counter(at: now)

        let matched = totp.match(totp.code(at: now), at: now)

        #expect(matched == step)
        #expect(step == 55_555_556)
    }

    @Test func D1_oneStepEitherSideIsAccepted() {
        // Set-up: codes of the previous and next step (a phone clock 30 s slow or fast).
        let step = totp.counter(at: now)
        let previous = totp.code(counter: step - 1)
        let next = totp.code(counter: step + 1)

        // Act and check
        #expect(totp.match(previous, at: now) == step - 1)
        #expect(totp.match(next, at: now) == step + 1)
    }

    @Test func D1_twoStepsEitherSideAreRefused() {
        let step = totp.counter(at: now)
        let twoBefore = totp.code(counter: step - 2)
        let twoAfter = totp.code(counter: step + 2)

        #expect(totp.match(twoBefore, at: now) == nil)
        #expect(totp.match(twoAfter, at: now) == nil)
        // … unless the window is widened on purpose.
        #expect(totp.match(twoBefore, at: now, window: 2) == step - 2)
        #expect(totp.match(twoAfter, at: now, window: 2) == step + 2)
    }

    @Test func D1_windowZeroAcceptsOnlyTheCurrentStep() {
        let step = totp.counter(at: now)

        #expect(totp.match(totp.code(counter: step), at: now, window: 0) == step)
        #expect(totp.match(totp.code(counter: step - 1), at: now, window: 0) == nil)
        #expect(totp.match(totp.code(counter: step + 1), at: now, window: 0) == nil)
    }

    @Test func D1_codeStaysValidUntilOneStepAfterItsOwn() {
        // Set-up: a code shown in the last second of its step.
        let shownAt = Date(timeIntervalSince1970: 1_666_666_709)
        let code = totp.code(at: shownAt)
        let step = totp.counter(at: shownAt)

        // Act and check: typed 30 s later it is the previous step; 60 s later it is too old.
        #expect(totp.match(code, at: shownAt.addingTimeInterval(30)) == step)
        #expect(totp.match(code, at: shownAt.addingTimeInterval(31)) == nil)
    }

    @Test func D1_wrongCodeIsRefused() {
        let step = totp.counter(at: now)
        let window = Set((-1...1).map { totp.code(counter: step + Int64($0)) })
        let wrong = (0..<1_000_000).lazy.map { String(format: "%06d", $0) }.first { !window.contains($0) }!

        #expect(totp.match(wrong, at: now) == nil)
    }

    // MARK: - Matching: replay (one use per step, RFC 6238 §5.2)

    @Test func D1_replayOfTheSameStepIsRefused() {
        // Set-up: the server accepted the current code and stored its step.
        let code = totp.code(at: now)
        let accepted = totp.match(code, at: now)!

        // Act: the same code again, ten seconds later.
        let replay = totp.match(code, at: now.addingTimeInterval(10), lastAcceptedCounter: accepted)

        // Check
        #expect(replay == nil)
    }

    @Test func D1_codeOfAnEarlierStepIsRefusedAfterALaterOneWasAccepted() {
        // Set-up: the next step's code was accepted (fast phone clock).
        let step = totp.counter(at: now)
        let accepted = totp.match(totp.code(counter: step + 1), at: now)!

        // Act: the current and previous codes arrive afterwards (a stolen, older code).
        let current = totp.match(totp.code(counter: step), at: now, lastAcceptedCounter: accepted)
        let previous = totp.match(totp.code(counter: step - 1), at: now, lastAcceptedCounter: accepted)

        // Check
        #expect(accepted == step + 1)
        #expect(current == nil)
        #expect(previous == nil)
    }

    @Test func D1_codeOfALaterStepIsAcceptedAfterAnEarlierOne() {
        let step = totp.counter(at: now)
        let accepted = totp.match(totp.code(counter: step - 1), at: now)!

        let later = totp.match(totp.code(counter: step), at: now, lastAcceptedCounter: accepted)

        #expect(later == step)
    }

    @Test func D1_whenTwoStepsShareACodeTheEarliestEligibleStepIsReturned() {
        // Set-up: with the RFC seed, steps 153_567 and 153_569 both have code 468457
        // (found by search; about one pair of steps in a million collides).
        let middle = Date(timeIntervalSince1970: 153_568 * 30 + 15)
        #expect(totp.code(counter: 153_567) == "468457")
        #expect(totp.code(counter: 153_569) == "468457")

        // Act
        let first = totp.match("468457", at: middle)
        let afterFirst = totp.match("468457", at: middle, lastAcceptedCounter: first)
        let afterSecond = totp.match("468457", at: middle, lastAcceptedCounter: afterFirst)

        // Check
        #expect(first == 153_567)
        #expect(afterFirst == 153_569)
        #expect(afterSecond == nil)
    }

    // MARK: - Matching: input format

    @Test func D1_codesThatAreNotExactlySixASCIIDigitsAreRefused() {
        // Set-up: the right code, dressed up in ways a server must not accept as-is.
        let code = totp.code(at: now)
        let fullWidth = String(code.map { Character(Unicode.Scalar(UInt32($0.asciiValue!) - 0x30 + 0xFF10)!) })
        let arabicIndic = String(code.map { Character(Unicode.Scalar(UInt32($0.asciiValue!) - 0x30 + 0x0660)!) })
        let malformed = [
            "", " " + code, code + " ", code + "\n", String(code.prefix(5)), code + "0", "0" + code,
            String(code.prefix(3)) + " " + String(code.suffix(3)), "+" + String(code.dropFirst()),
            "-" + String(code.dropFirst()), fullWidth, arabicIndic, "abcdef", "12345e"
        ]

        // Act and check
        #expect(totp.match(code, at: now) != nil)
        for input in malformed {
            #expect(totp.match(input, at: now) == nil, "\(input.debugDescription)")
        }
    }

    @Test func D1_eightDigitGeneratorRefusesSixDigitInput() {
        let eight = TOTP(secret: Self.sha1Seed, digits: 8)
        let code = eight.code(at: now)

        #expect(eight.match(code, at: now) == eight.counter(at: now))
        #expect(eight.match(String(code.suffix(6)), at: now) == nil)
    }

    // MARK: - Logging

    @Test func D1_descriptionNeverShowsTheSecret() {
        var dumped = ""
        dump(totp, to: &dumped)
        let texts = ["\(totp)", String(reflecting: totp), dumped]

        for text in texts {
            #expect(!text.contains("49"), "\(text)")
            #expect(!text.contains("secret:") || text.contains("<redacted>"), "\(text)")
        }
    }
}
