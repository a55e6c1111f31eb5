/// The biometric sensor a device has. The verification and sign-in screens name it in their titles
/// (A10), and binding sends it to the server as the credential's `biometry`.
public enum BiometryKind: String, Sendable, Hashable, CaseIterable, Codable {
    case faceID = "face_id"
    case touchID = "touch_id"
    case opticID = "optic_id"

    /// The value of the API's `biometry` field: `face_id`, `touch_id` or `optic_id`.
    public var apiValue: String { rawValue }

    /// The product name, the same in every language: "Face ID", "Touch ID", "Optic ID" (A10).
    public var displayName: String {
        switch self {
        case .faceID: "Face ID"
        case .touchID: "Touch ID"
        case .opticID: "Optic ID"
        }
    }
}
