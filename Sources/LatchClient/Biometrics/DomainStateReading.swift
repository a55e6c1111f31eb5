import Foundation

/// A biometric domain state with where it came from (B4). iOS 17 offers only
/// `LAContext.evaluatedPolicyDomainState`; iOS 18 adds `LAContext.domainState.biometry.stateHash`, and the
/// two are different values for the same enrollment. A state kept on iOS 17 therefore differs from the one
/// read after an update to iOS 18 although nobody enrolled anything: comparing bytes alone would turn
/// biometric login off after every such update. Kept with its provenance, such a difference is only
/// `.unconfirmed`, and the device key (invalidated by the enclave on a real change, `.biometryCurrentSet`)
/// decides.
///
///     let reading = DomainStateReading(state: hash, source: .init(api: .domainState, systemVersion: "18.1"))
public struct DomainStateReading: Sendable, Hashable {
    /// The opaque state.
    public var state: Data
    /// Which API and OS version produced it; `nil` when unknown (kept by an older SDK, or a simulator).
    public var source: Source?

    public init(state: Data, source: Source? = nil) {
        self.state = state
        self.source = source
    }

    /// The API that produced a domain state.
    public enum API: String, Codable, Sendable, Hashable {
        /// `LAContext.evaluatedPolicyDomainState` (iOS 17, deprecated from iOS 18).
        case evaluatedPolicyDomainState = "evaluated_policy_domain_state"
        /// `LAContext.domainState.biometry.stateHash` (iOS 18 and later).
        case domainState = "domain_state"
    }

    /// Which API on which OS version produced a state.
    public struct Source: Codable, Sendable, Hashable {
        public var api: API
        /// The OS version, e.g. "18.1.1" (`ProcessInfo.operatingSystemVersion`).
        public var systemVersion: String

        public init(api: API, systemVersion: String) {
            self.api = api
            self.systemVersion = systemVersion
        }

        enum CodingKeys: String, CodingKey {
            case api
            case systemVersion = "system_version"
        }
    }
}
