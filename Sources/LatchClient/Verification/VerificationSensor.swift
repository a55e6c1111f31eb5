/// The biometric sensor a verification uses; it names the screen's title (A10: "Face ID" or "Touch ID").
public enum VerificationSensor: String, Sendable, Equatable, CaseIterable {
    case faceID
    case touchID
}
