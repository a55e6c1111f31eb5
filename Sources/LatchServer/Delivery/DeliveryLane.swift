/// Which lane of the durable queue a message waits in (issue 20 §2): one-time codes (sign-in,
/// registration, reset, link codes, and the mail that stands in for a registration code) and
/// notices (security notices, digests, lock warnings, the deletion mail).
///
/// Each lane of a channel has its own capacity (`LATCH_DELIVERY_QUEUE_CAPACITY` each) and its own
/// sends in flight (the carrier's concurrency each), so notices never fill the room of codes and a
/// code never waits behind notices for a free connection to the relay.
public enum DeliveryLane: String, Sendable, CaseIterable, Codable {
    case code
    case notice
}
