extension LatchConfig {
    /// Reads issue 42's settings: `LATCH_EVENT_STREAMS_ALLOW_HTTP` and `LATCH_EVENT_STREAMS_ALLOW_PRIVATE`
    /// (`1` or `0`). A bad value names its variable.
    mutating func readEventStreams(_ value: (String) -> String?) throws {
        func flag(_ name: String) throws -> Bool? {
            switch value(name) {
            case nil: nil
            case "0", "false", "no": false
            case "1", "true", "yes": true
            case let raw?: throw ConfigurationError(name, "must be 1 or 0 (got \(raw))")
            }
        }
        eventStreamsAllowHTTP = try flag("LATCH_EVENT_STREAMS_ALLOW_HTTP")
        eventStreamsAllowPrivate = try flag("LATCH_EVENT_STREAMS_ALLOW_PRIVATE") ?? false
    }

    /// The receiver URL rules these settings make: `http` in development unless turned off.
    var eventReceiverSettings: EventReceiverSettings {
        EventReceiverSettings(
            allowsPlainHTTP: eventStreamsAllowHTTP ?? (mode == .development),
            allowsPrivateAddresses: eventStreamsAllowPrivate)
    }
}

/// What receiver URLs an event stream may name (issue 42 §3).
struct EventReceiverSettings: Sendable, Equatable {
    /// Plain `http` as well as `https`.
    var allowsPlainHTTP: Bool
    /// Loopback, private, link-local and other non-public addresses.
    var allowsPrivateAddresses: Bool
}
