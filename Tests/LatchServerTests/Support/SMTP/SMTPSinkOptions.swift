/// What a test SMTP server does, in the flags of `scripts/test/smtp_sink.py` (the aiosmtpd sink), so
/// a test reads the same with either server: `--auth USER:PASS` (AUTH required; PLAIN and LOGIN
/// offered, `--only-login` LOGIN alone), `--fail-first N --fail-code C` (answer C to the first N DATA
/// commands), `--starttls` (offered, and required before MAIL), `--implicit-tls`, `--san NAMES` (the
/// certificate's subjectAltNames), `--stall-data` (never answer the end of DATA), `--silent` (accept
/// connections, never say anything).
struct SMTPSinkOptions: Sendable {
    var auth: (user: String, password: String)?
    var onlyLogin = false
    var failFirst = 0
    var failCode = 451
    var startTLS = false
    var implicitTLS = false
    var subjectAltNames = "IP:127.0.0.1,DNS:localhost"
    var stallData = false
    var silent = false

    struct UnknownOption: Error, CustomStringConvertible {
        let option: String
        var description: String { "unknown or incomplete SMTP sink option: \(option)" }
    }

    init(arguments: [String]) throws {
        var rest = arguments[...]
        func value(of option: String) throws -> String {
            guard let value = rest.popFirst() else { throw UnknownOption(option: option) }
            return value
        }
        while let option = rest.popFirst() {
            switch option {
            case "--auth":
                let pair = try value(of: option).split(separator: ":", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { throw UnknownOption(option: option) }
                auth = (pair[0], pair[1])
            case "--only-login": onlyLogin = true
            case "--fail-first":
                guard let count = Int(try value(of: option)) else { throw UnknownOption(option: option) }
                failFirst = count
            case "--fail-code":
                guard let code = Int(try value(of: option)) else { throw UnknownOption(option: option) }
                failCode = code
            case "--starttls": startTLS = true
            case "--implicit-tls": implicitTLS = true
            case "--san": subjectAltNames = try value(of: option)
            case "--stall-data": stallData = true
            case "--silent": silent = true
            default: throw UnknownOption(option: option)
            }
        }
    }

    var usesTLS: Bool { startTLS || implicitTLS }
}
