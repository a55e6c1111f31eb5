import Crypto
import Foundation

/// The Sign in with Apple private key of the developer team (`LATCH_APPLE_TEAM_ID`, `LATCH_APPLE_KEY_ID`,
/// `LATCH_APPLE_PRIVATE_KEY` or `LATCH_APPLE_PRIVATE_KEY_FILE`): it signs the client secret latchd
/// presents at Apple's token and revoke endpoints (see `AppleClientSecret`).
public struct AppleTeamKey: Sendable {
    /// The 10-character Team ID (the client secret's `iss`).
    public var teamID: String
    /// The key's 10-character Key ID (the client secret's header `kid`).
    public var keyID: String
    /// The P-256 private key of the `.p8` file Apple gave.
    public var privateKey: P256.Signing.PrivateKey

    public init(teamID: String, keyID: String, privateKey: P256.Signing.PrivateKey) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKey = privateKey
    }

    /// Reads the key from its PEM text (`-----BEGIN PRIVATE KEY-----`, as in Apple's `.p8` file;
    /// `\n` written as two characters, as environment files often hold it, is accepted too).
    public init(teamID: String, keyID: String, privateKeyPEM: String) throws {
        let pem = privateKeyPEM.replacingOccurrences(of: "\\n", with: "\n").trimmingCharacters(
            in: .whitespacesAndNewlines)
        self.init(teamID: teamID, keyID: keyID, privateKey: try P256.Signing.PrivateKey(pemRepresentation: pem))
    }

    /// Reads the team key from the environment; nil when none of its variables is set.
    /// Errors name the variable and never repeat the key.
    static func fromEnvironment(_ value: (String) -> String?, readFile: (String) throws -> String) throws
        -> AppleTeamKey?
    {
        let teamID = value("LATCH_APPLE_TEAM_ID"), keyID = value("LATCH_APPLE_KEY_ID")
        let inline = value("LATCH_APPLE_PRIVATE_KEY"), file = value("LATCH_APPLE_PRIVATE_KEY_FILE")
        if teamID == nil, keyID == nil, inline == nil, file == nil { return nil }
        guard let teamID else {
            throw ConfigurationError(
                "LATCH_APPLE_TEAM_ID", "is required with the other LATCH_APPLE_* team key variables")
        }
        guard let keyID else {
            throw ConfigurationError(
                "LATCH_APPLE_KEY_ID", "is required with the other LATCH_APPLE_* team key variables")
        }
        for (name, identifier) in [("LATCH_APPLE_TEAM_ID", teamID), ("LATCH_APPLE_KEY_ID", keyID)] {
            guard (1...64).contains(identifier.count),
                identifier.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            else {
                throw ConfigurationError(
                    name, "must be Apple's identifier, letters and digits such as ABCDE12345 (got \(identifier))")
            }
        }
        let pem: String
        switch (inline, file) {
        case (let inline?, nil):
            pem = inline
        case (nil, let path?):
            do {
                pem = try readFile(path)
            } catch {
                throw ConfigurationError("LATCH_APPLE_PRIVATE_KEY_FILE", "cannot be read (\(path))")
            }
        case (nil, nil):
            throw ConfigurationError(
                "LATCH_APPLE_PRIVATE_KEY", "is required with LATCH_APPLE_TEAM_ID (or LATCH_APPLE_PRIVATE_KEY_FILE)")
        case (_?, _?):
            throw ConfigurationError(
                "LATCH_APPLE_PRIVATE_KEY_FILE",
                "set either LATCH_APPLE_PRIVATE_KEY or LATCH_APPLE_PRIVATE_KEY_FILE, not both")
        }
        do {
            return try AppleTeamKey(teamID: teamID, keyID: keyID, privateKeyPEM: pem)
        } catch {
            let variable = file == nil ? "LATCH_APPLE_PRIVATE_KEY" : "LATCH_APPLE_PRIVATE_KEY_FILE"
            throw ConfigurationError(variable, "is not a P-256 private key in PEM form (Apple's .p8 file)")
        }
    }
}
