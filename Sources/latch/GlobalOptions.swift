import ArgumentParser
import Foundation
import LatchClient
import LatchCore

/// The options every command takes: which server, which language, which home directory.
struct GlobalOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The latchd to talk to (env LATCH_SERVER).", valueName: "url"))
    var server: String?

    @Option(help: ArgumentHelp("zh-Hans or en (default: from LC_ALL / LC_MESSAGES / LANG).", valueName: "language"))
    var lang: LanguageArgument?

    @Option(
        help: ArgumentHelp(
            "Where the session, installation id, device key and simulated sensor live (env LATCH_HOME, default $XDG_CONFIG_HOME/latch).",
            valueName: "dir"))
    var home: String?

    func validate() throws {
        let url = serverURL
        guard let scheme = url?.scheme, ["http", "https"].contains(scheme), url?.host != nil else {
            throw ValidationError("--server must be an http:// or https:// URL (got \(serverText))")
        }
        // Seed 004 §8.1: the SDK speaks plain http only to this machine.
        guard let url, ServerURLPolicy.allows(url) else {
            throw ValidationError(
                "--server must be https:// (http:// only for localhost or 127.0.0.1; got \(serverText))")
        }
    }

    private var environment: [String: String] { ProcessInfo.processInfo.environment }

    var serverText: String {
        server ?? environment["LATCH_SERVER"].flatMap { $0.isEmpty ? nil : $0 } ?? "http://127.0.0.1:8080"
    }

    var serverURL: URL? { URL(string: serverText) }

    var language: LatchLanguage { lang?.language ?? Self.localeLanguage(environment) }

    var homeDirectory: URL {
        if let home { return URL(fileURLWithPath: home, isDirectory: true) }
        if let home = environment["LATCH_HOME"], !home.isEmpty { return URL(fileURLWithPath: home, isDirectory: true) }
        return FileVault.defaultDirectory(environment: environment)
    }

    /// The language of the locale: the first of LC_ALL, LC_MESSAGES, LANG that is set; any `zh…`
    /// is Simplified Chinese, everything else English.
    static func localeLanguage(_ environment: [String: String]) -> LatchLanguage {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        return locale.lowercased().hasPrefix("zh") ? .zhHans : .en
    }
}

/// `--lang`: `zh-Hans` (also `zh`, `zh-CN`, `zh_CN.UTF-8`) or `en` (also `en-US` …); anything else
/// is a usage error.
struct LanguageArgument: ExpressibleByArgument, Sendable {
    let language: LatchLanguage

    init?(argument: String) {
        let tag = argument.lowercased().replacingOccurrences(of: "_", with: "-")
        if tag == "zh" || tag.hasPrefix("zh-") {
            language = .zhHans
        } else if tag == "en" || tag.hasPrefix("en-") {
            language = .en
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { ["zh-Hans", "en"] }
}
