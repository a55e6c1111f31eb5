/// A configuration value latchd cannot run with; its description is the one line latchd prints.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    /// The environment variable at fault.
    public let variable: String
    public let reason: String

    public init(_ variable: String, _ reason: String) {
        self.variable = variable
        self.reason = reason
    }

    public var description: String { "\(variable): \(reason)" }
}
