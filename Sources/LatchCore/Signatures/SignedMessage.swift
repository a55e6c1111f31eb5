import Foundation

/// The exact bytes a device key signs (A11, B6; contract in ARCHITECTURE.md):
///
///     latch-v1\n{purpose}\n{challenge_id}\n{challenge}
///
/// UTF-8, `\n` = U+000A, no trailing newline. `purpose` is `login`, or
/// `verify:{action}:{digest}` with `digest` from `CanonicalParameters.digest(_:)`.
///
///     let message = try SignedMessage.verification(
///         action: "withdrawal", parameters: ["amount": "100.00", "currency": "USDT", "address": "TXabc"],
///         challengeID: challenge.id, challenge: challenge.value)
///     let signature = try DeviceSignature.sign(message, with: deviceKey)
///
/// The format is line-based, so no field may contain a line feed: the initializers throw
/// `SignedMessage.InvalidField` rather than build bytes another message could share.
public struct SignedMessage: Sendable, Equatable {
    /// What the signature authorizes.
    public enum Purpose: Sendable, Equatable {
        /// Sign in with a bound device (B6).
        case login
        /// Verification of `action` with parameters whose canonical digest is `parametersDigest`.
        case verify(action: String, parametersDigest: String)

        /// The purpose line: `login` or `verify:{action}:{digest}`.
        public var text: String {
            switch self {
            case .login: return "login"
            case .verify(let action, let digest): return "verify:\(action):\(digest)"
            }
        }
    }

    /// A field that would make the message ambiguous.
    public struct InvalidField: Error, Sendable, Equatable, CustomStringConvertible {
        /// Which field (the stable code): `action`, `challenge_id` or `challenge`.
        public let field: String
        /// A human reason, naming the field.
        public var description: String { "\(field) must not contain a line feed (U+000A)" }

        public init(field: String) { self.field = field }
    }

    /// The version tag on the first line.
    public static let version = "latch-v1"

    /// What the signature authorizes.
    public let purpose: Purpose
    /// The server's id of the challenge (`challenge_id` in the API).
    public let challengeID: String
    /// The server's single-use random challenge, exactly as the server sent it.
    public let challenge: String

    /// A message for `purpose`; throws `InvalidField` if a field contains a line feed.
    public init(purpose: Purpose, challengeID: String, challenge: String) throws {
        if case .verify(let action, _) = purpose, action.utf8.contains(0x0a) {
            throw InvalidField(field: "action")
        }
        guard !challengeID.utf8.contains(0x0a) else { throw InvalidField(field: "challenge_id") }
        guard !challenge.utf8.contains(0x0a) else { throw InvalidField(field: "challenge") }
        self.purpose = purpose
        self.challengeID = challengeID
        self.challenge = challenge
    }

    /// The message a bound device signs to sign in.
    public static func login(challengeID: String, challenge: String) throws -> SignedMessage {
        try SignedMessage(purpose: .login, challengeID: challengeID, challenge: challenge)
    }

    /// The message a device signs to pass verification of `action` with `parameters`.
    public static func verification(
        action: String, parameters: [String: String], challengeID: String, challenge: String
    ) throws -> SignedMessage {
        let purpose = Purpose.verify(action: action, parametersDigest: CanonicalParameters.digest(parameters))
        return try SignedMessage(purpose: purpose, challengeID: challengeID, challenge: challenge)
    }

    /// The message text.
    public var text: String {
        [Self.version, purpose.text, challengeID, challenge].joined(separator: "\n")
    }

    /// The UTF-8 bytes that are signed.
    public var bytes: [UInt8] { Array(text.utf8) }

    /// The UTF-8 bytes that are signed, as `Data`.
    public var data: Data { Data(text.utf8) }
}
