import LatchCore
import Testing

/// C3: at least 8 characters with upper case, lower case and digits; special characters optional;
/// at most 128 characters; not a commonly used password.
@Suite("C3 password policy")
struct PasswordPolicyTests {
    let policy = PasswordPolicy.standard

    @Test func C3_rejectsSevenCharacterPassword() {
        // Set-up
        let password = "Xk7mQp2"

        // Act
        let violations = policy.violations(of: password)

        // Check
        #expect(password.count == 7)
        #expect(violations == [.tooShort])
        #expect(!policy.accepts(password))
    }

    @Test func C3_acceptsExactlyEightCharacters() {
        let password = "Xk7mQp2z"

        let violations = policy.violations(of: password)

        #expect(password.count == 8)
        #expect(violations.isEmpty)
        #expect(policy.accepts(password))
    }

    @Test func C3_acceptsExactly128Characters() {
        let password = "Xk7m" + String(repeating: "q", count: 124)

        let violations = policy.violations(of: password)

        #expect(password.count == 128)
        #expect(violations.isEmpty)
    }

    @Test func C3_rejects129Characters() {
        let password = "Xk7m" + String(repeating: "q", count: 125)

        let violations = policy.violations(of: password)

        #expect(password.count == 129)
        #expect(violations == [.tooLong])
    }

    @Test func C3_rejectsPasswordWithoutUppercase() {
        let password = "xk7mqp2z"

        let violations = policy.violations(of: password)

        #expect(violations == [.missingUppercase])
    }

    @Test func C3_rejectsPasswordWithoutLowercase() {
        let password = "XK7MQP2Z"

        let violations = policy.violations(of: password)

        #expect(violations == [.missingLowercase])
    }

    @Test func C3_rejectsPasswordWithoutDigit() {
        let password = "XkzmQpwz"

        let violations = policy.violations(of: password)

        #expect(violations == [.missingDigit])
    }

    @Test func C3_reportsEveryBrokenRuleInStableOrder() {
        let password = "!!!"

        let violations = policy.violations(of: password)

        #expect(violations == [.tooShort, .missingUppercase, .missingLowercase, .missingDigit])
    }

    @Test func C3_specialCharactersAreOptional() {
        let withoutSpecial = "Xk7mQp2z"
        let withSpecial = "Xk7m!Qp2z#"

        let acceptsWithout = policy.accepts(withoutSpecial)
        let acceptsWith = policy.accepts(withSpecial)

        #expect(acceptsWithout)
        #expect(acceptsWith)
    }

    @Test(arguments: ["Password1", "PASSword1", "Qwerty123", "QWERTy123", "Letmein1", "Welcome1"])
    func C3_rejectsCommonPasswordInAnyLetterCase(password: String) {
        // Set-up: the password meets the composition rules, so only the blocklist can reject it.
        #expect(CommonPasswords.shipped.contains(password.lowercased()))

        let violations = policy.violations(of: password)

        #expect(violations == [.common])
    }

    @Test func C3_shippedCommonPasswordListHasAtLeastAThousandEntries() {
        let list = CommonPasswords.shipped

        let count = list.count

        #expect(count >= 1000)
    }

    @Test func C3_commonPasswordListMatchesCaseInsensitively() {
        let list = CommonPasswords(["Password1", "qwerty123"])

        let containsUpper = list.contains("PASSWORD1")
        let containsMixed = list.contains("QwErTy123")
        let containsOther = list.contains("Xk7mQp2z")

        #expect(containsUpper)
        #expect(containsMixed)
        #expect(!containsOther)
    }

    @Test func C3_shippedListSkipsItsCommentHeader() {
        let header =
            "# The 2,000 most common passwords (by frequency rank) that contain letters and digits and are at least"

        let contained = CommonPasswords.shipped.contains(header)

        #expect(!contained)
    }

    @Test func C3_customBlocklistIsHonoured() {
        let custom = PasswordPolicy(blocklist: CommonPasswords(["Xk7mQp2z"]))

        let violations = custom.violations(of: "XK7mqp2z")

        #expect(violations == [.common])
    }

    @Test func C3_acceptsMultiByteLongerThan72BytesButShorterThan128Characters() {
        // Set-up: bcrypt only reads 72 bytes, but the policy counts characters, not bytes.
        let password = "Aa1" + String(repeating: "密", count: 30)

        let violations = policy.violations(of: password)

        #expect(password.utf8.count > 72)
        #expect(password.count < 128)
        #expect(violations.isEmpty)
    }

    @Test func C3_countsCharactersNotBytesForTheMaximum() {
        // 128 characters of 3 bytes each is 384 bytes, still within the limit.
        let password = "Aa1" + String(repeating: "密", count: 125)

        let violations = policy.violations(of: password)

        #expect(password.count == 128)
        #expect(violations.isEmpty)
    }
}
