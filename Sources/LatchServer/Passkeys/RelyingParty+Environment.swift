import Foundation

extension RelyingParty {
    /// Reads `LATCH_WEBAUTHN_RP_ID`, `LATCH_WEBAUTHN_RP_NAME` and `LATCH_WEBAUTHN_ORIGINS`.
    ///
    /// Defaults: the RP ID is the host of `issuer` when that is a domain name, else `localhost`; the
    /// name is `Latch`; the origins are the issuer's origin (when its host is the RP ID or under it)
    /// and, in development with RP ID `localhost`, `http://localhost:{LATCH_PORT}`.
    static func fromEnvironment(
        _ value: (String) -> String?, issuer: String?, port: Int, mode: LatchConfig.Mode
    ) throws -> RelyingParty {
        let issuerURL = issuer.flatMap { URLComponents(string: $0) }
        let issuerHost = issuerURL?.host?.lowercased()
        let id: String
        if let raw = value("LATCH_WEBAUTHN_RP_ID") {
            guard isDomain(raw) else {
                throw ConfigurationError(
                    "LATCH_WEBAUTHN_RP_ID", "must be a domain such as example.com (no scheme, port, path or IP address)"
                )
            }
            id = raw.lowercased()
        } else if let issuerHost, isDomain(issuerHost) {
            id = issuerHost
        } else {
            id = "localhost"
        }
        let name = value("LATCH_WEBAUTHN_RP_NAME") ?? "Latch"
        guard name.count <= 64, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw ConfigurationError(
                "LATCH_WEBAUTHN_RP_NAME", "must be at most 64 characters without control characters")
        }
        var origins: [String] = []
        if let list = value("LATCH_WEBAUTHN_ORIGINS") {
            for entry in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) })
            where !entry.isEmpty {
                guard let origin = normalizedOrigin(entry, rpID: id) else {
                    throw ConfigurationError(
                        "LATCH_WEBAUTHN_ORIGINS",
                        "each entry must be https://HOST[:PORT] with HOST \(id) or under it, http://localhost[:PORT], or android:apk-key-hash:… (got \(entry))"
                    )
                }
                origins.append(origin)
            }
            guard !origins.isEmpty else { throw ConfigurationError("LATCH_WEBAUTHN_ORIGINS", "names no origin") }
        } else {
            if let issuer, let origin = normalizedOrigin(issuer, rpID: id, allowPlainHTTP: true) {
                origins.append(origin)
            }
            let localhost = "http://localhost:\(port)"
            if mode == .development, id == "localhost", !origins.contains(localhost) { origins.append(localhost) }
        }
        return RelyingParty(id: id, name: name, origins: origins)
    }

    /// A lowercase host name of letters, digits and hyphens between dots; not an IP address.
    static func isDomain(_ raw: String) -> Bool {
        let labels = raw.lowercased().split(separator: ".", omittingEmptySubsequences: false)
        guard raw.count <= 253, !labels.isEmpty, !labels.allSatisfy({ $0.allSatisfy(\.isNumber) }) else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" }
        }
    }

    /// `raw` as a serialized origin (lowercase scheme and host, no default port, no path), when it is
    /// one WebAuthn can accept for `rpID`: https on the RP ID or a subdomain, http on localhost (or,
    /// with `allowPlainHTTP`, on the RP ID: the issuer default), or an Android app's key-hash origin.
    static func normalizedOrigin(_ raw: String, rpID: String, allowPlainHTTP: Bool = false) -> String? {
        if raw.hasPrefix("android:apk-key-hash:"), raw.count > "android:apk-key-hash:".count, !raw.contains(",") {
            return raw
        }
        guard let url = URLComponents(string: raw), let scheme = url.scheme?.lowercased(),
            let host = url.host?.lowercased(),
            !host.isEmpty, url.path.isEmpty || url.path == "/", url.query == nil, url.fragment == nil, url.user == nil
        else { return nil }
        let withinRPID = host == rpID || host.hasSuffix("." + rpID)
        switch scheme {
        case "https":
            guard withinRPID else { return nil }
        case "http":
            guard withinRPID, host == "localhost" || allowPlainHTTP else { return nil }
        default:
            return nil
        }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = url.port.flatMap { $0 == defaultPort ? nil : $0 }
        return "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }
}
