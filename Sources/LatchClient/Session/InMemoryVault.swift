import Foundation

/// A vault that keeps its items in memory, for tests, previews and command-line runs that must leave
/// nothing behind. It can be locked to behave like a Keychain before first unlock.
///
///     let vault = InMemoryVault()
///     try await vault.write(Data("x".utf8), for: "settings")
///     await vault.lock()                       // reads now answer .unavailable, writes throw
public actor InMemoryVault: TokenVault {
    private var items: [String: Data]
    private var locked = false

    public init(items: [String: Data] = [:]) {
        self.items = items
    }

    public func read(_ key: String) -> VaultRead {
        if locked { return .unavailable }
        return items[key].map(VaultRead.found) ?? .notFound
    }

    public func write(_ data: Data, for key: String) throws {
        if locked { throw VaultError(.write, key: key, status: 0, reason: "the in-memory vault is locked") }
        items[key] = data
    }

    public func delete(_ key: String) throws {
        if locked { throw VaultError(.delete, key: key, status: 0, reason: "the in-memory vault is locked") }
        items[key] = nil
    }

    /// Makes every read answer `.unavailable` and every write or delete throw, like a locked device.
    public func lock() { locked = true }

    /// Ends `lock()`.
    public func unlock() { locked = false }

    /// The keys stored now, sorted (for tests).
    public var keys: [String] { items.keys.sorted() }
}
