import LatchCore
import Testing

/// C3: weak (digits only or letters only), medium (letters + digits), strong (upper + lower + digits),
/// very strong (+ special).
@Suite("C3 password strength")
struct PasswordStrengthTests {
    @Test(arguments: ["12345678", "98765432109"])
    func C3_digitsOnlyIsWeak(password: String) {
        let strength = PasswordStrength(of: password)

        #expect(strength == .weak)
    }

    @Test(arguments: ["abcdefgh", "ABCDEFGH", "AbcdEfgh"])
    func C3_lettersOnlyIsWeak(password: String) {
        let strength = PasswordStrength(of: password)

        #expect(strength == .weak)
    }

    @Test(arguments: ["Ab1!", "Ab1!xyz", ""])
    func C3_shorterThanEightIsWeak(password: String) {
        let strength = PasswordStrength(of: password)

        #expect(password.count < 8)
        #expect(strength == .weak)
    }

    @Test(arguments: ["abcd1234", "ABCD1234", "abcd1234!"])
    func C3_lettersAndDigitsIsMedium(password: String) {
        let strength = PasswordStrength(of: password)

        #expect(strength == .medium)
    }

    @Test func C3_upperLowerAndDigitsIsStrong() {
        let password = "Abcd1234"

        let strength = PasswordStrength(of: password)

        #expect(strength == .strong)
    }

    @Test(arguments: ["Abcd123!", "Abcd 1234", "Ab_cd1234"])
    func C3_upperLowerDigitsAndSpecialIsVeryStrong(password: String) {
        let strength = PasswordStrength(of: password)

        #expect(strength == .veryStrong)
    }

    @Test func C3_strengthLevelsAreOrdered() {
        let levels: [PasswordStrength] = [.veryStrong, .weak, .strong, .medium]

        let sorted = levels.sorted()

        #expect(sorted == [.weak, .medium, .strong, .veryStrong])
        #expect(PasswordStrength.weak < .medium)
        #expect(PasswordStrength.medium < .strong)
        #expect(PasswordStrength.strong < .veryStrong)
        #expect(PasswordStrength.allCases == sorted)
    }

    @Test func C3_zhHansLabels() {
        let labels = PasswordStrength.allCases.map { $0.label(in: .zhHans) }

        #expect(labels == ["弱", "中等", "强", "很强"])
    }

    @Test func C3_englishLabels() {
        let labels = PasswordStrength.allCases.map { $0.label(in: .en) }

        #expect(labels == ["Weak", "Medium", "Strong", "Very strong"])
    }
}
