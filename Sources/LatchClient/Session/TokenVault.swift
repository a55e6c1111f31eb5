import Foundation

/// Where the SDK keeps its secrets (the session's tokens, the software device key): the Keychain on
/// Apple platforms (`KeychainVault`), a `0600` file elsewhere (`FileVault`), memory in tests
/// (`InMemoryVault`).
///
/// A read says whether the item was found, is absent, or cannot be read right now (a locked
/// Keychain before first unlock). "Unavailable" must never be taken for "signed out".
///
///     switch await vault.read("session") {
///     case .found(let data): restore(from: data)
///     case .notFound: showSignIn()
///     case .unavailable: retryLater()  // never wipe the session here
///     }
public protocol TokenVault: Sendable {
    func read(_ key: String) async -> VaultRead
    func write(_ data: Data, for key: String) async throws
    func delete(_ key: String) async throws
}

/// The result of reading a vault item.
public enum VaultRead: Sendable, Equatable {
    case found(Data)
    case notFound
    /// The store exists but cannot be read now (e.g. the device is locked); try again later.
    case unavailable
}
