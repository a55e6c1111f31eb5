import LatchServer

extension LatchConfig {
    /// The configuration from the environment, for a latchd command: a bad value is a `LatchdFailure`
    /// (one line naming the variable, exit status 2).
    static func forCommand() throws -> LatchConfig {
        do {
            return try fromEnvironment()
        } catch let error as ConfigurationError {
            throw LatchdFailure.configuration(error)
        }
    }
}
