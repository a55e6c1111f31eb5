extension BiometryKind {
    /// The sensor's name inside Chinese sentences: "指纹" (seed 001), "Face ID" (seed 000), "Optic ID".
    public var chineseName: String {
        switch self {
        case .faceID: "Face ID"
        case .touchID: "指纹"
        case .opticID: "Optic ID"
        }
    }
}
