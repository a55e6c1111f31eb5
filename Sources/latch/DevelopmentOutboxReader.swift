import Foundation
import LatchClient

/// Reads mailed codes from a development latchd's outbox (`GET /dev/outbox?to=ADDRESS`), for
/// `--code-from-outbox`: take a count before the request that mails a code, then wait for a new one.
struct DevelopmentOutboxReader {
    let context: CLIContext

    private struct Message: Decodable {
        var code: String?
    }

    /// The codes mailed to `email` so far, oldest first.
    func codes(to email: String) async throws -> [String] {
        var components = URLComponents(
            url: context.serverURL.appendingPathComponent("dev/outbox"), resolvingAgainstBaseURL: false)
        // Every byte but letters and digits percent-encoded: a phone number's "+" would read as a space.
        components?.percentEncodedQuery =
            "to=" + (email.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        guard let url = components?.url else { throw CLIFailure.failed(context.text.noOutbox) }
        let response = try await context.client.api.send(
            HTTPRequest(method: "GET", url: url, headers: ["Accept": "application/json"]))
        guard response.status == 200, let messages = try? JSONDecoder().decode([Message].self, from: response.body)
        else {
            throw CLIFailure.failed(context.text.noOutbox)
        }
        return messages.compactMap(\.code)
    }

    /// The newest code mailed to `email` after `known` codes had been; waits up to five seconds for it.
    func newCode(to email: String, after known: Int) async throws -> String {
        for _ in 0..<50 {
            let all = try await codes(to: email)
            if all.count > known, let newest = all.last { return newest }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CLIFailure.failed(context.text.noCodeInOutbox(email))
    }
}
