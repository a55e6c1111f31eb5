import NIOCore

/// How long `ReceiverClient` waits and how much it reads (issue 42 §3).
struct ReceiverClientSettings: Sendable, Hashable {
    /// The longest wait for a connection (TCP and TLS).
    var connectTimeout: TimeAmount = .seconds(5)
    /// The longest an attempt takes in all: resolving, connecting, sending, and reading the answer's head
    /// and the start of its body.
    var answerTimeout: TimeAmount = .seconds(10)
    /// The most bytes of an answer's body read; the rest is never read (the connection is then closed).
    var answerBodyLimit: Int = 4_096
    /// The most HTTP clients (one per host and pinned address) kept with their open connections.
    var cachedClients: Int = 64

    init(
        connectTimeout: TimeAmount = .seconds(5), answerTimeout: TimeAmount = .seconds(10),
        answerBodyLimit: Int = 4_096, cachedClients: Int = 64
    ) {
        self.connectTimeout = connectTimeout
        self.answerTimeout = answerTimeout
        self.answerBodyLimit = answerBodyLimit
        self.cachedClients = cachedClients
    }

    /// Reads `LATCH_EVENT_STREAMS_CONNECT_TIMEOUT_SECONDS` (1–60, default 5) and
    /// `LATCH_EVENT_STREAMS_ANSWER_TIMEOUT_SECONDS` (1–300, default 10); a bad value names its variable.
    ///
    ///     let settings = try ReceiverClientSettings.fromEnvironment { ProcessInfo.processInfo.environment[$0] }
    static func fromEnvironment(_ value: (String) -> String?) throws -> ReceiverClientSettings {
        let connect = try LatchConfig.parseInteger(
            "LATCH_EVENT_STREAMS_CONNECT_TIMEOUT_SECONDS", value("LATCH_EVENT_STREAMS_CONNECT_TIMEOUT_SECONDS"),
            default: 5, range: 1...60)
        let answer = try LatchConfig.parseInteger(
            "LATCH_EVENT_STREAMS_ANSWER_TIMEOUT_SECONDS", value("LATCH_EVENT_STREAMS_ANSWER_TIMEOUT_SECONDS"),
            default: 10, range: 1...300)
        return ReceiverClientSettings(connectTimeout: .seconds(Int64(connect)), answerTimeout: .seconds(Int64(answer)))
    }
}
