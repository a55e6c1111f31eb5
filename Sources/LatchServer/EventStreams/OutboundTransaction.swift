import Foundation
import LatchCore

/// The id of the change being made (issue 42 §1): every outbound event one change emits carries it, so a
/// backend sees that a freeze, the sessions it ended and the hold it started are one thing.
///
/// `tracedTransaction` sets it for the closure it runs (an inner transaction keeps the outer id); an
/// event recorded outside any transaction is a change of its own, with a new id.
enum OutboundTransaction {
    @TaskLocal static var current: String?

    /// A new id: `txn_` and 32 hex digits.
    static func newID() -> String { "txn_" + Hex.lowercase(RandomSecrets.bytes(16)) }
}
