import Foundation
import LatchClient

/// The simulated sensor of this home, kept in its vault (`simulated-sensor`), so that enabling Face ID
/// and a later verification — separate processes — see the same sensor: its kind, its enrollment
/// (domain state, stable across runs) and whether it is unavailable (permission refused, locked out).
struct SimulatedSensorState: Codable, Sendable, Equatable {
    static let vaultKey = "simulated-sensor"

    var kind: BiometryKind
    var domainState: Data
    /// `nil` while usable.
    var unavailable: Unavailable?
    /// Failed scans or touches in a row, across runs (five lock the sensor out).
    var consecutiveFailures = 0

    enum Unavailable: String, Codable, Sendable {
        case notEnrolled = "not_enrolled"
        case passcodeNotSet = "passcode_not_set"
        case notAvailable = "not_available"
        case lockedOut = "locked_out"
        case notSupported = "not_supported"

        init(_ reason: BiometricUnavailableReason) {
            switch reason {
            case .notEnrolled: self = .notEnrolled
            case .passcodeNotSet: self = .passcodeNotSet
            case .notAvailable: self = .notAvailable
            case .lockedOut: self = .lockedOut
            case .notSupported: self = .notSupported
            }
        }

        var reason: BiometricUnavailableReason {
            switch self {
            case .notEnrolled: .notEnrolled
            case .passcodeNotSet: .passcodeNotSet
            case .notAvailable: .notAvailable
            case .lockedOut: .lockedOut
            case .notSupported: .notSupported
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case kind
        case domainState = "domain_state"
        case unavailable
        case consecutiveFailures = "consecutive_failures"
    }

    init(kind: BiometryKind, domainState: Data, unavailable: Unavailable?, consecutiveFailures: Int = 0) {
        self.kind = kind
        self.domainState = domainState
        self.unavailable = unavailable
        self.consecutiveFailures = consecutiveFailures
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        kind = try container.decode(BiometryKind.self, forKey: .kind)
        domainState = try container.decode(Data.self, forKey: .domainState)
        unavailable = try container.decodeIfPresent(Unavailable.self, forKey: .unavailable)
        // Homes from before the count was kept start at none.
        consecutiveFailures = try container.decodeIfPresent(Int.self, forKey: .consecutiveFailures) ?? 0
    }

    /// A Face ID sensor with one enrolled face.
    static func fresh() -> SimulatedSensorState {
        SimulatedSensorState(kind: .faceID, domainState: Self.newEnrollment(), unavailable: nil)
    }

    /// A new enrollment value, as when someone enrols another face or finger.
    static func newEnrollment() -> Data {
        Data("simulated-enrollment-\(UUID().uuidString.lowercased())".utf8)
    }

    /// The kept state, or a fresh Face ID sensor.
    static func load(from vault: any TokenVault) async -> SimulatedSensorState {
        guard case .found(let data) = await vault.read(vaultKey),
            let state = try? JSONDecoder().decode(SimulatedSensorState.self, from: data)
        else { return .fresh() }
        return state
    }

    func save(to vault: any TokenVault) async throws {
        try await vault.write(try JSONEncoder().encode(self), for: Self.vaultKey)
    }

    /// A `SimulatedAuthenticator` in this state, asking `decide` at each prompt.
    func authenticator(decide: @escaping @Sendable (SimulatedAuthenticator.Prompt) async -> SimulatedAuthenticator.Step)
        async -> SimulatedAuthenticator
    {
        let sensor = SimulatedAuthenticator(kind: kind, decide: decide)
        await sensor.setDomainState(domainState)
        await sensor.setUnavailable(unavailable?.reason)
        await sensor.setConsecutiveFailures(consecutiveFailures)
        return sensor
    }

    /// The state `sensor` is in now (a refused permission or a lockout stays for later runs).
    static func reading(_ sensor: SimulatedAuthenticator) async -> SimulatedSensorState {
        SimulatedSensorState(
            kind: await sensor.kind ?? .faceID, domainState: await sensor.enrolledState,
            unavailable: await sensor.unavailableReason.map(Unavailable.init),
            consecutiveFailures: await sensor.consecutiveFailures)
    }
}
