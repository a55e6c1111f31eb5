import Crypto
import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// A vault for these tests: items in memory, a lock like a Keychain before first unlock, and deletes of
/// missing items that throw (the strictest a `TokenVault` may be).
actor TestVault: TokenVault {
    struct Refused: Error {}

    private(set) var items: [String: Data]
    private var locked = false

    init(items: [String: Data] = [:]) {
        self.items = items
    }

    func read(_ key: String) -> VaultRead {
        if locked { return .unavailable }
        return items[key].map(VaultRead.found) ?? .notFound
    }

    func write(_ data: Data, for key: String) throws {
        if locked { throw Refused() }
        items[key] = data
    }

    func delete(_ key: String) throws {
        guard !locked, items[key] != nil else { throw Refused() }
        items[key] = nil
    }

    func lock() { locked = true }
    func unlock() { locked = false }
    var keys: [String] { items.keys.sorted() }
}
