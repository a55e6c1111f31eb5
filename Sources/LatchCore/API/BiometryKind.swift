/// The biometric sensor a device has, as the API names it (`biometry` of a bound device key). The
/// verification and sign-in screens name it in their titles (A10, `displayName` in LatchClient), and
/// binding sends it to the server as the credential's `biometry`.
public enum BiometryKind: String, Sendable, Hashable, CaseIterable, Codable {
    case faceID = "face_id"
    case touchID = "touch_id"
    case opticID = "optic_id"

    /// The value of the API's `biometry` field: `face_id`, `touch_id` or `optic_id`.
    public var apiValue: String { rawValue }

    /// Throws `UnknownWireValue` for a sensor this version does not know (latchd: 422 `unknown`).
    public init(from decoder: any Decoder) throws {
        self = try Self.decodeKnown(from: decoder)
    }
}
