/// Which sign-in methods the screen offers besides email + password (seed 004 §2.1, C1). The app
/// decides: Apple when the server has it configured, WeChat when the WeChat app is installed, Face ID /
/// Touch ID when this device has biometric sign-in enabled (`BiometricEnrollment.binding()` and the
/// sensor available), phone when the server sends texts.
public struct SignInAvailability: Sendable, Equatable {
    /// Sign in with Apple (推荐, recommended).
    public var apple: Bool
    /// WeChat OAuth (可选, optional).
    public var weChat: Bool
    /// The sensor of an enabled biometric sign-in on this device; `nil` hides the button.
    public var biometry: BiometryKind?
    /// Phone + SMS code (可选, optional).
    public var phone: Bool

    public init(apple: Bool = false, weChat: Bool = false, biometry: BiometryKind? = nil, phone: Bool = false) {
        self.apple = apple
        self.weChat = weChat
        self.biometry = biometry
        self.phone = phone
    }

    /// The buttons under the form, in the seed's order of preference: Apple, WeChat, then biometrics.
    public var externalMethods: [ExternalSignInMethod] {
        var methods: [ExternalSignInMethod] = []
        if apple { methods.append(.apple) }
        if weChat { methods.append(.weChat) }
        if let biometry { methods.append(.biometrics(biometry)) }
        return methods
    }
}
