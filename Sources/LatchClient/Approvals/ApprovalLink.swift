import Foundation

/// The URL a sign-in QR code carries (issue 43 §1): `{issuer}/approve/{approval_id}#s={scan secret}`,
/// a universal link the app claims. Only a link under the configured issuer is read: a code that points
/// elsewhere is someone else's page, and its secret is never sent.
///
///     let link = try ApprovalLink(URL(string: scanned)!, issuer: URL(string: "https://auth.example.com")!)
///     let details = try await client.signInApproval(link)
public struct ApprovalLink: Sendable, Equatable {
    /// The approval the code names.
    public let approvalID: String
    /// The secret that proves this phone scanned the code (never logged, sent only to the issuer).
    public let scanSecret: String

    public init(approvalID: String, scanSecret: String) {
        self.approvalID = approvalID
        self.scanSecret = scanSecret
    }

    /// Reads `url`; throws ``ApprovalLinkError`` when it is not an approval link of `issuer`: another
    /// scheme, host or port, a path outside the issuer's, or a missing id or secret.
    public init(_ url: URL, issuer: URL) throws {
        guard let parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let base = URLComponents(url: issuer, resolvingAgainstBaseURL: false)
        else { throw ApprovalLinkError.notAnApprovalLink }
        guard parts.scheme != nil, parts.host != nil else { throw ApprovalLinkError.notAnApprovalLink }
        guard parts.scheme?.lowercased() == base.scheme?.lowercased(),
            parts.host?.lowercased() == base.host?.lowercased(), parts.host?.isEmpty == false,
            Self.port(of: parts) == Self.port(of: base), parts.user == nil, parts.password == nil
        else { throw ApprovalLinkError.otherServer }
        let prefix = base.path.hasSuffix("/") ? String(base.path.dropLast()) : base.path
        let path = parts.path
        guard path.hasPrefix(prefix + "/approve/") else { throw ApprovalLinkError.notAnApprovalLink }
        let id = String(path.dropFirst(prefix.count + "/approve/".count))
        guard !id.isEmpty, !id.contains("/"), parts.query == nil else { throw ApprovalLinkError.notAnApprovalLink }
        let fragment = parts.fragment ?? ""
        guard fragment.hasPrefix("s="), fragment.count > 2, !fragment.contains("&") else {
            throw ApprovalLinkError.notAnApprovalLink
        }
        approvalID = id
        scanSecret = String(fragment.dropFirst(2))
    }

    /// Reads `text` (what the camera decoded) as in ``init(_:issuer:)``.
    public init(_ text: String, issuer: URL) throws {
        guard let url = URL(string: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ApprovalLinkError.notAnApprovalLink
        }
        try self.init(url, issuer: issuer)
    }

    private static func port(of parts: URLComponents) -> Int? {
        if let port = parts.port { return port }
        switch parts.scheme?.lowercased() {
        case "https": return 443
        case "http": return 80
        default: return nil
        }
    }
}

/// Why a scanned URL is not read as an approval link.
public enum ApprovalLinkError: Error, Sendable, Equatable, CaseIterable {
    /// The URL is on another server than the configured issuer: it is not Latch's, and nothing is sent.
    case otherServer
    /// The URL is the issuer's but not `/approve/{id}#s={secret}`.
    case notAnApprovalLink
}
