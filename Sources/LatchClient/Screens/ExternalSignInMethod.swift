/// A sign-in the app runs outside the form (the system's Apple sheet, the WeChat app, the biometric
/// prompt) before the SDK call that finishes it.
public enum ExternalSignInMethod: Sendable, Hashable {
    case apple
    case weChat
    case biometrics(BiometryKind)
}
