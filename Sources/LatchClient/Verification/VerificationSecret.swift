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

    /// Always `<redacted>`.
    public var description: String { "<redacted>" }
    /// Always `<redacted>`.
    public var debugDescription: String { description }
    /// No children: dumping shows nothing.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
