/// The `otpauth://` enrolment URI of D1 (Google Authenticator's Key URI Format), shown as a QR code:
///
///     otpauth://totp/{issuer}:{account}?secret=…&issuer=…&algorithm=SHA1&digits=6&period=30
///
/// Issuer and account are UTF-8 percent-encoded, leaving only RFC 3986 unreserved characters
/// (`A–Z a–z 0–9 - . _ ~`) as they are: a colon, space, `@`, `/`, `?`, `&`, `#` or `%` inside
/// them is encoded, so it cannot be mistaken for the label separator or the query.
///
///     OTPAuthURI(secret: secret, issuer: "Latch", account: "alice@example.com").string
///     // "otpauth://totp/Latch:alice%40example.com?secret=…&issuer=Latch&algorithm=SHA1&digits=6&period=30"
public struct OTPAuthURI: Sendable, Equatable {
    /// The raw secret; the URI carries it as upper-case Base32 without padding.
    public let secret: [UInt8]
    /// Who issued the key (the service name the app shows), e.g. "Latch".
    public let issuer: String
    /// Whose key it is, e.g. the user's email address.
    public let account: String
    /// The HMAC hash (`algorithm=` in the URI).
    public let algorithm: OTPAlgorithm
    /// Digits per code (`digits=`).
    public let digits: Int
    /// Seconds per time step (`period=`).
    public let period: Int

    /// The URI of a TOTP key; the defaults are D1's SHA-1, 6 digits, 30 s.

    public init(
        secret: [UInt8], issuer: String, account: String,
        algorithm: OTPAlgorithm = .sha1, digits: Int = 6, period: Int = 30
    ) {
        self.secret = secret
        self.issuer = issuer
        self.account = account
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
    }

    /// The URI text.
    public var string: String {
        let label = Self.percentEncoded(issuer) + ":" + Self.percentEncoded(account)
        let query = [
            "secret=" + Base32.encode(secret),
            "issuer=" + Self.percentEncoded(issuer),
            "algorithm=" + algorithm.rawValue,
            "digits=" + String(digits),
            "period=" + String(period)
        ]
        return "otpauth://totp/" + label + "?" + query.joined(separator: "&")
    }

    /// `text` as UTF-8 with every byte outside the RFC 3986 unreserved set written as `%XX`.
    static func percentEncoded(_ text: String) -> String {
        let hexDigits = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.append(byte)
            default:
                output += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0f)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension OTPAuthURI: CustomStringConvertible, CustomReflectable {
    /// The settings without the secret, safe to log (`string` carries the secret).
    public var description: String {
        "OTPAuthURI(issuer: \(issuer), account: \(account), algorithm: \(algorithm.rawValue), digits: \(digits), period: \(period), secret: <redacted>)"
    }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "issuer": issuer, "account": account, "algorithm": algorithm, "digits": digits, "period": period
            ],
            displayStyle: .struct)
    }
}
