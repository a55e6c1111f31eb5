import LatchCore
import Testing

/// D1: TOTP is HOTP (RFC 4226) on a time-step counter; these are RFC 4226 Appendix D's values.
@Suite("D1 HOTP (RFC 4226)")
struct HOTPTests {
    /// Appendix D: secret "12345678901234567890" (ASCII), SHA-1.
    let hotp = HOTP(secret: Array("12345678901234567890".utf8))

    @Test func D1_rfc4226AppendixDSixDigitCodes() {
        // Set-up: the "HOTP" column of Appendix D, counters 0–9.
        let expected = [
            "755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"
        ]

        // Act
        let codes = (0..<10).map { hotp.code(counter: UInt64($0)) }

        // Check
        #expect(codes == expected)
    }

    @Test func D1_rfc4226AppendixDTruncatedValuesGiveEightDigitCodes() {
        // Set-up: Appendix D's "Decimal" column (the 31-bit truncation); 8 digits are its last 8.
        let truncated: [UInt32] = [
            1_284_755_224, 1_094_287_082, 137_359_152, 1_726_969_429, 1_640_338_314,
            868_254_676, 1_918_287_922, 82_162_583, 673_399_871, 645_520_489
        ]
        let eightDigits = HOTP(secret: Array("12345678901234567890".utf8), digits: 8)

        // Act
        let codes = (0..<10).map { eightDigits.code(counter: UInt64($0)) }

        // Check
        #expect(
            codes
                == truncated.map { value in
                    let text = String(value % 100_000_000)
                    return String(repeating: "0", count: 8 - text.count) + text
                })
        #expect(codes[7] == "82162583")
        #expect(codes[2] == "37359152")
    }

    @Test func D1_descriptionNeverShowsTheSecret() {
        let text = "\(hotp) \(String(reflecting: hotp))"

        #expect(!text.contains("49, 50, 51"))
        #expect(text.contains("<redacted>"))
    }
}
