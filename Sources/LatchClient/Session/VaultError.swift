/// A vault could not store or delete an item.
public struct VaultError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the vault was doing.
    public enum Operation: String, Sendable {
        case write
        case delete
    }

    public var operation: Operation
    /// The item's key.
    public var key: String
    /// The platform's code: `errno` for `FileVault`, an `OSStatus` for `KeychainVault`, 0 otherwise.
    public var status: Int32
    /// A human explanation.
    public var reason: String

    public init(_ operation: Operation, key: String, status: Int32, reason: String) {
        self.operation = operation
        self.key = key
        self.status = status
        self.reason = reason
    }

    public var description: String { "vault \(operation.rawValue) of \"\(key)\" failed (\(status)): \(reason)" }
}
