import Foundation
import LatchCore

extension LatchConfig {
    /// Reads issue 31 §2's App Attest settings: `LATCH_APP_ATTEST` (`off`, the default, `optional` or
    /// `required`), `LATCH_APP_ATTEST_APP_IDS` (`TEAMID.bundle.id`, comma-separated; needed unless off),
    /// `LATCH_APP_ATTEST_ENVIRONMENT` (`production`, the default, or `development`) and
    /// `LATCH_APP_ATTEST_ROOT_CA_FILE` (PEM; default Apple's root). A bad value names its variable.
    mutating func readAppAttest(_ value: (String) -> String?) throws {
        if let raw = value("LATCH_APP_ATTEST") {
            guard let mode = AppAttestMode(rawValue: raw) else {
                throw ConfigurationError("LATCH_APP_ATTEST", "must be off, optional or required (got \(raw))")
            }
            appAttest.mode = mode
        }
        appAttest.appIDs = (value("LATCH_APP_ATTEST_APP_IDS") ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        if let bad = appAttest.appIDs.first(where: { !Self.isAppID($0) }) {
            throw ConfigurationError(
                "LATCH_APP_ATTEST_APP_IDS",
                "\(bad) is not TEAMID.bundle.id (a 10-character team id, a dot, the bundle id)")
        }
        if appAttest.mode != .off, appAttest.appIDs.isEmpty {
            throw ConfigurationError(
                "LATCH_APP_ATTEST_APP_IDS",
                "needs at least one TEAMID.bundle.id when LATCH_APP_ATTEST is \(appAttest.mode.rawValue)")
        }
        if let raw = value("LATCH_APP_ATTEST_ENVIRONMENT") {
            guard let environment = AppAttestEnvironment(rawValue: raw) else {
                throw ConfigurationError(
                    "LATCH_APP_ATTEST_ENVIRONMENT", "must be production or development (got \(raw))")
            }
            appAttest.environment = environment
        }
        if verificationPolicy.asksForAttestedDevices, appAttest.mode == .off {
            throw ConfigurationError(
                "LATCH_APP_ATTEST", "must be optional or required: the policy file asks for attested_device")
        }
        if let path = value("LATCH_APP_ATTEST_ROOT_CA_FILE") {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationError("LATCH_APP_ATTEST_ROOT_CA_FILE", "\(path): cannot be read")
            }
            let pem = String(decoding: data, as: UTF8.self)
            guard (try? AppAttestVerifier.roots(fromPEM: pem))?.isEmpty == false else {
                throw ConfigurationError("LATCH_APP_ATTEST_ROOT_CA_FILE", "\(path): holds no PEM certificate")
            }
            appAttest.rootCertificatesPEM = pem
        }
    }

    /// `TEAMID.bundle.id`: ten letters or digits, a dot, and a bundle id.
    static func isAppID(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, parts[0].count == 10 else { return false }
        return Validate.isASCIIWord(String(parts[0]), allowing: [])
            && Validate.isASCIIWord(String(parts[1]), allowing: [".", "-"])
    }
}
