import Foundation

/// Where the account page's sign-up links the two documents a new user agrees to (issue 23 §1):
/// 《用户协议》 "Terms of Service" (`LATCH_TERMS_URL`) and 《隐私政策》 "Privacy Policy"
/// (`LATCH_PRIVACY_URL`). Each is an absolute `https://` or `http://` URL, or a path on the page's own
/// origin; unset, `/terms` and `/privacy` on that origin (where a site that serves latchd under its own
/// domain keeps them).
public struct AccountPageLinks: Sendable, Equatable {
    public var termsURL: String
    public var privacyURL: String

    public init(termsURL: String = "/terms", privacyURL: String = "/privacy") {
        self.termsURL = termsURL
        self.privacyURL = privacyURL
    }

    /// Reads `LATCH_TERMS_URL` and `LATCH_PRIVACY_URL`; a value that is neither an http(s) URL nor an
    /// origin-relative path (e.g. `javascript:…`, `//host`) names its variable.
    static func fromEnvironment(_ value: (String) -> String?) throws -> AccountPageLinks {
        var links = AccountPageLinks()
        if let terms = value("LATCH_TERMS_URL") { links.termsURL = try validated("LATCH_TERMS_URL", terms) }
        if let privacy = value("LATCH_PRIVACY_URL") { links.privacyURL = try validated("LATCH_PRIVACY_URL", privacy) }
        return links
    }

    static func validated(_ name: String, _ raw: String) throws -> String {
        let visible = raw.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F }
        if visible, raw.hasPrefix("/"), !raw.hasPrefix("//"), !raw.hasPrefix("/\\") { return raw }
        if visible, let url = URLComponents(string: raw), ["https", "http"].contains(url.scheme?.lowercased() ?? ""),
            let host = url.host, !host.isEmpty
        {
            return raw
        }
        // Says exactly what is accepted (issue 28 §3: it named https only, and http is accepted too).
        throw ConfigurationError(
            name,
            "must be an http:// or https:// URL with a host (such as https://example.com/terms) or a path on the account page's own origin starting with one / (such as /terms), without spaces or control characters"
        )
    }

    /// The page's HTML with the `{{LATCH_TERMS_URL}}` and `{{LATCH_PRIVACY_URL}}` placeholders filled
    /// (escaped for the double-quoted `href` attributes they stand in).
    func filling(_ html: String) -> String {
        html.replacingOccurrences(of: "{{LATCH_TERMS_URL}}", with: MailHTML.escape(termsURL))
            .replacingOccurrences(of: "{{LATCH_PRIVACY_URL}}", with: MailHTML.escape(privacyURL))
    }
}
