import LatchCore

/// `BiometryKind` (the shared vocabulary, in LatchCore) as the screens show it.
extension BiometryKind {
    /// The product name, the same in every language: "Face ID", "Touch ID", "Optic ID" (A10).
    public var displayName: String {
        switch self {
        case .faceID: "Face ID"
        case .touchID: "Touch ID"
        case .opticID: "Optic ID"
        }
    }
}
