/// Who sends one channel's jobs: SMTP for `email`, the webhook gateway for `sms`. `send` makes one
/// attempt; it throws a `DeliveryFailure` (temporary or not) or any other error (taken as temporary).
struct DeliveryCarrier: Sendable {
    /// `OutgoingMessage.channel`.
    let channel: String
    /// Sends of this channel running at once, at most (per instance).
    var concurrency = 4
    let send: @Sendable (DeliveryJobPayload) async throws -> Void

    /// A job on a channel whose carrier cannot send its kind of payload (cannot happen: a job's channel
    /// is its payload's); permanent, so it is not tried again.
    struct WrongPayload: DeliveryFailure {
        let channel: String
        var isTemporary: Bool { false }
        var description: String { "a \(channel) job holds another channel's payload" }
    }
}
