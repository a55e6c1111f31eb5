import FluentKit
import Foundation

/// Issue 42's parts as latchd runs them: the stores, the rules a receiver URL must meet, and the worker
/// (nil where no background tasks run; `deliverDue` is then nobody's).
struct EventStreamServices: Sendable {
    let streams: EventStreamStore
    let deliveries: EventDeliveryStore
    let rules: ReceiverAddressRules
    let worker: EventDeliveryWorker?
    /// The SETs of SSF streams (nil until the signing key ring is there, in tests without one).
    let tokens: (any SecurityEventTokenSigner)?
}
