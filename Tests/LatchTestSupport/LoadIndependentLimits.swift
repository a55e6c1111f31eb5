import LatchServer

extension LatchConfig {
    /// The bounds whose outcome would otherwise depend on how busy the machine is, raised far above
    /// anything a test reaches, so a test's answer is the same on an idle laptop and on a 2-core CI
    /// machine running the whole suite (issue 22 §8). The limiters themselves still run; the tests
    /// that prove a bound (the bcrypt queue, the guess wait, the readiness timeout) set it back in
    /// their own `adjust`, and hold the bound's places themselves instead of racing for them.
    ///
    /// - bcrypt queue: the lockout tests send dozens of sign-ins at once on purpose.
    /// - guess wait: sign-ins beyond the ladder's allowance wait for the checks in flight; on a loaded
    ///   machine 16 concurrent right passwords took longer than the standard 10 s and got 429.
    /// - readiness timeout: a database busy with the rest of the suite may take over 2 s for `SELECT 1`.
    /// - PostgreSQL pool timeout: with the whole suite on both databases, a request may wait longer than
    ///   Fluent's 10 s for one of its pool's connections (seen as `connectionRequestTimeout`).
    /// - PostgreSQL connect timeout: opening a connection (through the readiness test's forwarder, too)
    ///   took over PostgresNIO's 10 s while the suite's servers all started at once.
    /// - metrics idle timeout: a scrape answered after the listener's 10 s of silence on a loaded machine
    ///   found its connection closed (`remoteConnectionClosed`); the idle tests set their own.
    /// - provider timeout: Apple's key set fetched from the tests' stand-in took over 5 s while the whole
    ///   suite ran, and a link answered 503 `keys_unavailable`.
    public mutating func useLoadIndependentLimits() {
        bcryptQueueLimit = 1000
        guessWaitLimit = .seconds(600)
        readinessTimeout = .seconds(120)
        databasePoolTimeoutSeconds = 600
        databaseConnectTimeoutSeconds = 120
        metricsIdleTimeoutSeconds = 600
        providerTimeoutSeconds = 120
    }
}
