import LatchCore
import Testing

/// C2: email registration checks the email format. Addresses are trimmed and lower-cased.
@Suite("C2 email address")
struct EmailAddressTests {
    @Test func C2_trimsAndLowerCases() {
        let raw = "  Alice@Example.COM \n"

        let email = EmailAddress(raw)

        #expect(email?.value == "alice@example.com")
        #expect(email?.description == "alice@example.com")
    }

    @Test func C2_equalAfterNormalisation() {
        let first = EmailAddress("Bob@Example.com")
        let second = EmailAddress(" bob@example.COM")

        #expect(first != nil)
        #expect(first == second)
    }

    @Test(arguments: [
        "alice.example.com", // no @
        "alice@@example.com", // two @
        "al@ice@example.com", // two @
        "@example.com", // empty local part
        "alice@", // empty domain
        "alice@localhost", // no dot in domain
        "al ice@example.com", // space in local part
        "alice@exa mple.com", // space in domain
        ".alice@example.com", // leading dot
        "alice.@example.com", // trailing dot in local part
        "al..ice@example.com", // consecutive dots
        "alice@.example.com", // domain starts with a dot
        "alice@example..com", // empty domain label
        "alice@-example.com", // label starts with a hyphen
        "alice@example.c", // one-letter top-level domain
        "alice@example.123", // numeric top-level domain
        "", // empty
        "   " // only whitespace
    ])
    func C2_rejectsImplausibleAddress(raw: String) {
        let email = EmailAddress(raw)

        #expect(email == nil)
    }

    @Test func C2_rejectsAddressLongerThan254Characters() {
        // 64 + 1 + 190 = 255 characters, each part within its own limit.
        let local = String(repeating: "a", count: 64)
        let domain = [63, 63, 58].map { String(repeating: "b", count: $0) }.joined(separator: ".") + ".com"
        let raw = local + "@" + domain

        let email = EmailAddress(raw)

        #expect(raw.count == 255)
        #expect(email == nil)
    }

    @Test func C2_accepts254Characters() {
        let local = String(repeating: "a", count: 64)
        let domain = [63, 63, 57].map { String(repeating: "b", count: $0) }.joined(separator: ".") + ".com"
        let raw = local + "@" + domain

        let email = EmailAddress(raw)

        #expect(raw.count == 254)
        #expect(email?.value == raw)
    }

    @Test func C2_rejectsLocalPartLongerThan64Characters() {
        let raw = String(repeating: "a", count: 65) + "@example.com"

        let email = EmailAddress(raw)

        #expect(email == nil)
    }

    @Test func C2_acceptsPlusAddressing() {
        let raw = "Alice+Latch@example.com"

        let email = EmailAddress(raw)

        #expect(email?.value == "alice+latch@example.com")
    }

    @Test(arguments: ["bob@mail.example.com", "bob@a.b.example.co.uk", "first.last@sub-domain.example.org"])
    func C2_acceptsSubdomains(raw: String) {
        let email = EmailAddress(raw)

        #expect(email?.value == raw)
    }
}
