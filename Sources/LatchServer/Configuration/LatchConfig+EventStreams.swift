extension LatchConfig {
    /// Reads issue 42's settings: `LATCH_EVENT_STREAMS_ALLOW_HTTP` and `LATCH_EVENT_STREAMS_ALLOW_PRIVATE`
    /// (`1` or `0`), and the receiver client's timeouts (`LATCH_EVENT_STREAMS_CONNECT_TIMEOUT_SECONDS`,
    /// `LATCH_EVENT_STREAMS_ANSWER_TIMEOUT_SECONDS`). A bad value names its variable.
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
        receiverClient = try ReceiverClientSettings.fromEnvironment(value)
        importLegacyHashes = try flag("LATCH_IMPORT_LEGACY_HASHES") ?? false
    }

    /// The receiver URL rules these settings make: `http` in development unless turned off.
    var receiverAddressRules: ReceiverAddressRules {
        ReceiverAddressRules(
            allowsPlainHTTP: eventStreamsAllowHTTP ?? (mode == .development),
            allowsPrivateAddresses: eventStreamsAllowPrivate)
    }
}
