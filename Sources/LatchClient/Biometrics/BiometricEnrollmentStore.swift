import Foundation

/// What enabling biometric login leaves on the device (B4, B5), in the `TokenVault`: the domain state
/// at enabling time, the binding (credential id and sensor), and the ids of credentials this device gave
/// up but could not yet remove on the server (it was signed out or offline).
///
/// Biometric login counts as enabled while the domain state is kept. It is written last on enabling and
/// deleted first on disabling, so an interrupted enable or disable leaves it off, never half on.
/// The store touches only its own vault items — never the session's tokens.
///
///     let store = BiometricEnrollmentStore(vault: vault)
///     try await store.remember(binding, domainState: state)
///     switch await store.check(current: await authenticator.domainState()) { … }
public struct BiometricEnrollmentStore: Sendable {
    /// The vault item holding the domain state.
    public static let domainStateKey = "biometric-domain-state"
    /// The vault item holding where the domain state came from (`DomainStateReading.Source`, JSON).
    public static let domainStateSourceKey = "biometric-domain-state-source"
    /// The vault item holding the `BiometricBinding` (JSON).
    public static let bindingKey = "biometric-binding"
    /// The vault item holding credential ids still to remove on the server (JSON array).
    public static let staleCredentialsKey = "biometric-stale-credentials"

    public let vault: any TokenVault

    public init(vault: any TokenVault) {
        self.vault = vault
    }

    /// Keeps a new binding: first the binding, then the domain state (which turns it on).
    public func remember(_ binding: BiometricBinding, domainState: Data) async throws {
        try await remember(binding, reading: DomainStateReading(state: domainState))
    }

    /// Keeps a new binding: first the binding and the state's provenance, then the state (which turns it on).
    public func remember(_ binding: BiometricBinding, reading: DomainStateReading) async throws {
        try await vault.write(try JSONEncoder().encode(binding), for: Self.bindingKey)
        try await writeSource(reading.source)
        try await vault.write(reading.state, for: Self.domainStateKey)
    }

    /// Makes `reading` the new baseline after an `.unconfirmed` check whose device key still signed (an
    /// OS update changed the state's API or value, not the enrollment). Does nothing while biometric
    /// login is off.
    public func rebaseline(to reading: DomainStateReading) async throws {
        guard await storedDomainState() != nil else { return }
        try await writeSource(reading.source)
        try await vault.write(reading.state, for: Self.domainStateKey)
    }

    /// The kept state with its provenance, or `nil` when none is kept or the vault cannot be read now.
    public func storedReading() async -> DomainStateReading? {
        guard let state = await storedDomainState() else { return nil }
        guard case .found(let data) = await vault.read(Self.domainStateSourceKey) else {
            return DomainStateReading(state: state)
        }
        return DomainStateReading(
            state: state, source: try? JSONDecoder().decode(DomainStateReading.Source.self, from: data))
    }

    private func writeSource(_ source: DomainStateReading.Source?) async throws {
        if let source {
            try await vault.write(try JSONEncoder().encode(source), for: Self.domainStateSourceKey)
        } else {
            try await Self.deleteIfPresent(Self.domainStateSourceKey, in: vault)
        }
    }

    /// The kept domain state, or `nil` when none is kept or the vault cannot be read now.
    public func storedDomainState() async -> Data? {
        guard case .found(let data) = await vault.read(Self.domainStateKey) else { return nil }
        return data
    }

    /// The binding while biometric login is enabled, else `nil` — also when the vault cannot be read now:
    /// a locked device shows no biometric option and loses nothing.
    public func binding() async -> BiometricBinding? {
        guard await storedDomainState() != nil else { return nil }
        return await storedBinding()
    }

    /// B4 against the kept state. A vault that cannot be read now counts as `.notEnabled` for this use;
    /// `.notEnabled` deletes nothing, so nothing is lost.
    public func check(current: Data?) async -> EnrollmentCheck {
        await check(reading: current.map { DomainStateReading(state: $0) })
    }

    /// B4 against the kept reading, minding the provenance of both (see `EnrollmentCheck.unconfirmed`).
    public func check(reading current: DomainStateReading?) async -> EnrollmentCheck {
        EnrollmentCheck.evaluate(kept: await storedReading(), read: current)
    }

    /// Turns biometric login off on this device: deletes the domain state (first) and the binding, and
    /// remembers the credential id so that `BiometricEnrollment` can remove it on the server once signed
    /// in. Deletes nothing else — not the device key (the caller does), not the session, not app data.
    public func forget() async throws {
        try await Self.deleteIfPresent(Self.domainStateKey, in: vault)
        try await Self.deleteIfPresent(Self.domainStateSourceKey, in: vault)
        if let binding = await storedBinding() {
            try await markStale(binding.credentialID)
        }
        try await Self.deleteIfPresent(Self.bindingKey, in: vault)
    }

    /// Credential ids this device gave up that may still be bound on the server.
    public func staleCredentialIDs() async -> [String] {
        guard case .found(let data) = await vault.read(Self.staleCredentialsKey),
            let ids = try? JSONDecoder().decode([String].self, from: data)
        else { return [] }
        return ids
    }

    /// Adds `credentialID` to the ids to remove on the server.
    public func markStale(_ credentialID: String) async throws {
        var ids = await staleCredentialIDs()
        guard !ids.contains(credentialID) else { return }
        ids.append(credentialID)
        try await vault.write(try JSONEncoder().encode(ids), for: Self.staleCredentialsKey)
    }

    /// Drops `credentialID` from the ids to remove on the server (it is gone there).
    public func removeStale(_ credentialID: String) async throws {
        let ids = await staleCredentialIDs().filter { $0 != credentialID }
        if ids.isEmpty {
            try await Self.deleteIfPresent(Self.staleCredentialsKey, in: vault)
        } else {
            try await vault.write(try JSONEncoder().encode(ids), for: Self.staleCredentialsKey)
        }
    }

    private func storedBinding() async -> BiometricBinding? {
        guard case .found(let data) = await vault.read(Self.bindingKey) else { return nil }
        return try? JSONDecoder().decode(BiometricBinding.self, from: data)
    }
}

extension BiometricEnrollmentStore {
    /// Deletes `key` from `vault` unless the vault says it is absent (the protocol leaves open whether
    /// deleting a missing item throws).
    static func deleteIfPresent(_ key: String, in vault: any TokenVault) async throws {
        if case .notFound = await vault.read(key) { return }
        try await vault.delete(key)
    }
}
