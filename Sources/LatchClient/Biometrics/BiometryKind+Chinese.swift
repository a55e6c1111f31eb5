extension BiometryKind {
    /// The sensor's name inside Chinese sentences: "指纹" (seed 001), "Face ID" (seed 000), "Optic ID".
    public var chineseName: String {
        switch self {
        case .faceID: "Face ID"
        case .touchID: "指纹"
        case .opticID: "Optic ID"
        }
    }

    /// Biometric sign-in's one name in Chinese texts, as seed 002 names its switch ("点击开启“指纹登录”"):
    /// "面容登录", "指纹登录" ("Optic ID登录": no seed names it). Every zh text of the SDK and the CLI that
    /// names the sign-in uses this (issue 28 §3); ``BiometricStrings/signInName(_:in:)`` adds the unknown sensor.
    public var chineseSignInName: String {
        switch self {
        case .faceID: "面容登录"
        case .touchID: "指纹登录"
        case .opticID: "Optic ID登录"
        }
    }
}
