import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the CLI talks with the person: results on standard output, errors, prompts and progress on
/// standard error, answers from standard input. Colour only when standard output is a terminal
/// (and `NO_COLOR` is unset); spinners only when standard error is one.
struct Terminal: Sendable {
    static let standard = Terminal()

    /// Colour and bold on standard output.
    let usesColor: Bool
    /// Standard error is a terminal: prompts and spinners can draw there.
    let errorIsTerminal: Bool
    /// Standard input is a terminal: answers are typed by a person (echo can be turned off).
    let inputIsTerminal: Bool

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        usesColor = isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
        errorIsTerminal = isatty(STDERR_FILENO) == 1
        inputIsTerminal = isatty(STDIN_FILENO) == 1
    }

    enum Style: String, Sendable {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
    }

    /// `text` in `style` when colour is on, else as it is.
    func paint(_ text: String, _ style: Style) -> String {
        usesColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// A line on standard output.
    func line(_ text: String = "") {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// A line on standard error (an error, or a prompt's own line).
    func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// A prompt on standard error, without a line break, so the answer is typed after it.
    func prompt(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Asks `question` and reads one line; `nil` at the end of input. With `secret`, typing is not
    /// echoed (when standard input is a terminal).
    func ask(_ question: String, secret: Bool = false) async -> String? {
        prompt(question)
        let answer = await StandardInput.shared.readLine(secret: secret && inputIsTerminal)
        if answer == nil { error("") }
        return answer
    }
}
