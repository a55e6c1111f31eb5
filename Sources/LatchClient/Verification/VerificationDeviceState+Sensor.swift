import LatchCore

extension VerificationDeviceState.Biometry {
    /// The device's sensor, when it has one.
    public var sensor: BiometryKind? {
        switch self {
        case .available(let sensor, _), .notEnrolled(let sensor), .notAvailable(let sensor), .lockedOut(let sensor):
            sensor
        case .notSupported: nil
        }
    }
}
