import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard input, read one line at a time on its own serial queue, so that waiting for a person
/// never blocks Swift's cooperative threads.
final class StandardInput: Sendable {
    static let shared = StandardInput()
    private let queue = DispatchQueue(label: "latch.standard-input")

    /// The next line without its line break, or `nil` at the end of input.
    func readLine(secret: Bool) async -> String? {
        await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: secret ? Self.readWithoutEcho() : Swift.readLine(strippingNewline: true))
            }
        }
    }

    private static func readWithoutEcho() -> String? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return Swift.readLine(strippingNewline: true) }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        let line = Swift.readLine(strippingNewline: true)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        FileHandle.standardError.write(Data("\n".utf8))
        return line
    }
}
