#if canImport(DeviceCheck) && (os(iOS) || os(macOS) || os(tvOS) || os(visionOS))
    import DeviceCheck
    import Foundation

    /// App Attest on a real device (issue 31 §3): `DCAppAttestService.shared`, call for call. Thin on purpose:
    /// what to attest and assert, and what to do with the answers, is decided by tested code
    /// (`AppAttestSession`, `AppAttestClientData`). Not available in the simulator (`isSupported` is false
    /// there, and the SDK then binds without App Attest).
    ///
    ///     let client = LatchClient(
    ///         serverURL: url, vault: KeychainVault(), appAttester: DeviceCheckAppAttester(),
    ///         app: AppIdentity(bundleId: Bundle.main.bundleIdentifier ?? "", version: "2.4.1"))
    @available(iOS 14.0, macOS 11.0, tvOS 15.0, *)
    public struct DeviceCheckAppAttester: AppAttester {
        public init() {}

        public var isSupported: Bool { DCAppAttestService.shared.isSupported }

        public func generateKey() async throws -> String {
            try await DCAppAttestService.shared.generateKey()
        }

        public func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data {
            try await DCAppAttestService.shared.attestKey(keyID, clientDataHash: clientDataHash)
        }

        public func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data {
            try await DCAppAttestService.shared.generateAssertion(keyID, clientDataHash: clientDataHash)
        }
    }
#endif
