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

extension BiometryKind {
    /// Whether the app needs the user's permission to use the sensor (`NSFaceIDUsageDescription`, which
    /// the seed calls the camera permission): Face ID and Optic ID do; Touch ID does not (A6).
    public var asksAppPermission: Bool {
        switch self {
        case .faceID, .opticID: true
        case .touchID: false
        }
    }
}
