/// A code or fund password the user typed, on its way to the server. Printing, interpolating or
/// dumping it never shows the value (actions are logged).
public struct VerificationSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The value to send.
    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    public var description: String { "<redacted>" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
