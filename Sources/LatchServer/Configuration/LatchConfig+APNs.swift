import Crypto
import Foundation
import LatchCore
import NIOSSL

extension LatchConfig {
    /// Reads issue 43 §2's APNs settings: `LATCH_APNS_KEY_FILE` (the `.p8` PEM), `LATCH_APNS_KEY_ID`,
    /// `LATCH_APNS_TEAM_ID`, `LATCH_APNS_TOPIC` (all four, or none: pushes off), and optionally
    /// `LATCH_APNS_HOST`, `LATCH_APNS_SANDBOX_HOST` (`host[:port]`) and `LATCH_APNS_CA_FILE` (PEM, an extra
    /// trust root). A partial or bad configuration names its variable and never repeats the key.
    mutating func readAPNs(_ value: (String) -> String?) throws {
        let required = ["LATCH_APNS_KEY_FILE", "LATCH_APNS_KEY_ID", "LATCH_APNS_TEAM_ID", "LATCH_APNS_TOPIC"]
        let optional = ["LATCH_APNS_HOST", "LATCH_APNS_SANDBOX_HOST", "LATCH_APNS_CA_FILE"]
        let given = (required + optional).filter { value($0) != nil }
        guard !given.isEmpty else {
            apns = nil
            return
        }
        if let missing = required.first(where: { value($0) == nil }) {
            throw ConfigurationError(
                missing,
                "is required with \(given.joined(separator: ", ")) (APNs needs all of \(required.joined(separator: ", ")))"
            )
        }
        let path = value("LATCH_APNS_KEY_FILE") ?? "", keyID = value("LATCH_APNS_KEY_ID") ?? ""
        let teamID = value("LATCH_APNS_TEAM_ID") ?? "", topic = value("LATCH_APNS_TOPIC") ?? ""
        for (name, identifier) in [("LATCH_APNS_KEY_ID", keyID), ("LATCH_APNS_TEAM_ID", teamID)] {
            guard identifier.count == 10, Validate.isASCIIWord(identifier, allowing: []) else {
                throw ConfigurationError(
                    name,
                    "must be Apple's 10-character identifier, letters and digits such as ABCDE12345 (got \(identifier))"
                )
            }
        }
        guard (1...155).contains(topic.count), Validate.isASCIIWord(topic, allowing: [".", "-"]) else {
            throw ConfigurationError(
                "LATCH_APNS_TOPIC", "must be the app's bundle id, e.g. com.example.app (got \(topic))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("LATCH_APNS_KEY_FILE", "\(path): cannot be read")
        }
        let pem = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) else {
            throw ConfigurationError(
                "LATCH_APNS_KEY_FILE", "\(path): is not a P-256 private key in PEM form (Apple's .p8 file)")
        }
        var settings = APNsSettings(keyID: keyID, teamID: teamID, privateKey: key, topic: topic)
        for (name, keyPath) in [
            ("LATCH_APNS_HOST", \APNsSettings.host), ("LATCH_APNS_SANDBOX_HOST", \APNsSettings.sandboxHost)
        ] {
            guard let host = value(name) else { continue }
            guard Self.isHostAndPort(host) else {
                throw ConfigurationError(name, "must be host or host:port, e.g. api.push.apple.com (got \(host))")
            }
            settings[keyPath: keyPath] = host
        }
        if let caPath = value("LATCH_APNS_CA_FILE") {
            guard let caData = FileManager.default.contents(atPath: caPath) else {
                throw ConfigurationError("LATCH_APNS_CA_FILE", "\(caPath): cannot be read")
            }
            guard (try? NIOSSLCertificate.fromPEMBytes(Array(caData)))?.isEmpty == false else {
                throw ConfigurationError("LATCH_APNS_CA_FILE", "\(caPath): holds no PEM certificate")
            }
            settings.extraTrustRootsPEM = String(decoding: caData, as: UTF8.self)
        }
        apns = settings
    }

    /// `host` or `host:port` (port 1–65535), the host of letters, digits, dots and hyphens.
    static func isHostAndPort(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].count <= 253,
            Validate.isASCIIWord(String(parts[0]), allowing: [".", "-"])
        else { return false }
        if parts.count == 2 {
            guard let port = Int(parts[1]), (1...65535).contains(port) else { return false }
        }
        return true
    }
}
