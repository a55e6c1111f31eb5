/// The command line, in the Go server's style: `-db PATH -addr HOST:PORT -tokens FILE -count N`
/// (`-name value`, `-name=value` and `--name` all work), plus `-issuer` and `-nio-executor`.
struct Options {
    /// latchd's SQLite file: read for users and sessions, written for the bench sessions behind -tokens.
    var db = "latch.sqlite"
    var host = "127.0.0.1"
    var port = 18082
    /// When set: one signed access token per user (up to `count`) is written here, one a line, first.
    var tokens = ""
    var count = 40
    /// The `iss` of the tokens this server signs and accepts.
    var issuer = "hummingbird-bench"
    /// Runs Swift concurrency on NIO's event loops (off by default: Hummingbird's defaults).
    var nioExecutor = false

    static let usage = """
        usage: hbserver [-db latch.sqlite] [-addr 127.0.0.1:18082] [-tokens FILE] [-count 40]
                        [-issuer hummingbird-bench] [-nio-executor]
        """

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var index = 0
        while index < arguments.count {
            var name = Substring(arguments[index])
            index += 1
            guard name.hasPrefix("-") else { throw Failure(description: "unexpected argument \(name)\n\(usage)") }
            while name.hasPrefix("-") { name = name.dropFirst() }
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = name[..<equals]
            }
            if name == "nio-executor" {
                options.nioExecutor = value.map { $0 == "true" || $0 == "1" } ?? true
                continue
            }
            if name == "h" || name == "help" { throw Failure(description: usage) }
            if value == nil {
                guard index < arguments.count else { throw Failure(description: "-\(name) needs a value\n\(usage)") }
                value = arguments[index]
                index += 1
            }
            let text = value!
            switch name {
            case "db": options.db = text
            case "tokens": options.tokens = text
            case "issuer": options.issuer = text
            case "count":
                guard let count = Int(text), count >= 0 else { throw Failure(description: "-count: \(text)") }
                options.count = count
            case "addr":
                guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]) else {
                    throw Failure(description: "-addr wants HOST:PORT, not \(text)")
                }
                let host = String(text[..<colon])
                options.host = host.isEmpty ? "0.0.0.0" : host
                options.port = port
            default:
                throw Failure(description: "unknown flag -\(name)\n\(usage)")
            }
        }
        return options
    }
}
