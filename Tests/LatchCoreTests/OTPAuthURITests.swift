import Foundation
import LatchCore
import Testing

/// D1: enrolment with an `otpauth://` URI (Google Authenticator's Key URI Format).
@Suite("D1 otpauth:// URI")
struct OTPAuthURITests {
    /// "Hello!\u{DE}\u{AD}\u{BE}\u{EF}" — Base32 "JBSWY3DPEHPK3PXP", Google's example key.
    let secret: [UInt8] = [0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x21, 0xde, 0xad, 0xbe, 0xef]

    @Test func D1_uriHasTheDocumentedShape() {
        let uri = OTPAuthURI(secret: secret, issuer: "Latch", account: "alice@example.com")

        #expect(
            uri.string
                == "otpauth://totp/Latch:alice%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Latch&algorithm=SHA1&digits=6&period=30"
        )
    }

    @Test func D1_colonAndSpaceInIssuerOrAccountAreEncoded() {
        // Set-up: a colon would otherwise look like the issuer:account separator.
        let uri = OTPAuthURI(secret: secret, issuer: "ACME Co: Pay", account: "bob:smith jr")

        // Act
        let text = uri.string

        // Check: exactly one literal colon in the label, none in the query.
        #expect(
            text
                == "otpauth://totp/ACME%20Co%3A%20Pay:bob%3Asmith%20jr?secret=JBSWY3DPEHPK3PXP&issuer=ACME%20Co%3A%20Pay&algorithm=SHA1&digits=6&period=30"
        )
        let label = text.dropFirst("otpauth://totp/".count).prefix { $0 != "?" }
        #expect(label.filter { $0 == ":" }.count == 1)
    }

    @Test func D1_reservedCharactersAndNonASCIIAreEncoded() {
        let uri = OTPAuthURI(secret: secret, issuer: "A&B=C?D#E%F+G/H", account: "张三@例子.cn")

        let text = uri.string

        #expect(
            text.hasPrefix("otpauth://totp/A%26B%3DC%3FD%23E%25F%2BG%2FH:%E5%BC%A0%E4%B8%89%40%E4%BE%8B%E5%AD%90.cn?"))
        #expect(text.contains("&issuer=A%26B%3DC%3FD%23E%25F%2BG%2FH&"))
        #expect(text.allSatisfy { $0.isASCII })
    }

    @Test func D1_foundationParsesTheFieldsBack() throws {
        // Set-up
        let uri = OTPAuthURI(
            secret: secret, issuer: "Latch 钱包: Pay", account: "alice+test@example.com",
            algorithm: .sha256, digits: 8, period: 60)

        // Act
        let components = try #require(URLComponents(string: uri.string))
        let query = Dictionary(uniqueKeysWithValues: (components.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        let label = components.percentEncodedPath.dropFirst()
        let parts = label.split(separator: ":", maxSplits: 1).map { String($0).removingPercentEncoding }

        // Check
        #expect(components.scheme == "otpauth")
        #expect(components.host == "totp")
        #expect(parts == ["Latch 钱包: Pay", "alice+test@example.com"])
        #expect(
            query == [
                "secret": "JBSWY3DPEHPK3PXP", "issuer": "Latch 钱包: Pay", "algorithm": "SHA256", "digits": "8",
                "period": "60"
            ])
    }

    @Test func D1_descriptionHidesTheSecret() {
        let uri = OTPAuthURI(secret: secret, issuer: "Latch", account: "alice@example.com")
        var dumped = ""
        dump(uri, to: &dumped)

        #expect(!"\(uri)".contains("JBSWY3DPEHPK3PXP"))
        #expect(!dumped.contains("72"))
        #expect("\(uri)".contains("alice@example.com"))
    }
}
