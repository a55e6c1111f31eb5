import Foundation
import LatchCore
import LatchServer

/// Runs one `latchd admin` subcommand: the configured application (`ConsoleApplication`), the admin
/// service acting as `console` in the language of `LANG`; prints what the action returns. A refusal
/// (`LatchError`) is one line with its code and exit status 1.
enum AdminConsole {
    static func run(_ action: (AdminService) async throws -> String) async throws {
        let language = language(ProcessInfo.processInfo.environment)
        do {
            print(try await ConsoleApplication.run { app in try await action(.console(on: app, language: language)) })
        } catch let failure as LatchdFailure {
            throw failure
        } catch let error as LatchError {
            throw LatchdFailure.failed("latchd admin: \(error.code.rawValue) \(error.code.message(in: .en))")
        } catch {
            throw LatchdFailure.failed("latchd admin: \(String(describing: error))")
        }
    }

    /// The language of the mails to the user: `LANG`'s (`zh…` → Simplified Chinese, else English).
    static func language(_ environment: [String: String]) -> LatchLanguage {
        let tag = (environment["LANG"] ?? "").replacingOccurrences(of: "_", with: "-")
        return LatchLanguage(acceptLanguage: tag.split(separator: ".").first.map(String.init))
    }

    /// `value` as the console prints it: pretty, sorted JSON with ISO 8601 dates.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
