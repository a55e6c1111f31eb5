import HTTPTypes
import Testing

@testable import LatchServer

/// C5 (issue 21): latchd reads the access token of `Authorization` over the header's bytes; it must accept and
/// refuse exactly what the plain rule (`bearerRule`: two space-separated parts, the first `bearer` in any case)
/// does, the rule apps and clients were written against.
@Suite("C5 bearer token parsing")
struct BearerTokenTests {
    static let values: [String?] = [
        nil, "", " ", "Bearer", "Bearer ", "Bearer abc", "bearer abc", "BEARER abc", "BeArEr abc", "  Bearer   abc  ",
        "Bearer abc def", "Bearer\tabc", "Basic abc", "Bearerabc", "Bearer a.b.c", "Bearer ünïcode", "Bearers abc",
        "Bearer " + String(repeating: "x", count: 600), "Bearer abc ", "Bearer  abc"
    ]

    /// The rule, written plainly.
    static func bearerRule(_ value: String?) -> String? {
        guard let parts = value?.split(separator: " "), parts.count == 2, parts[0].lowercased() == "bearer" else {
            return nil
        }
        return String(parts[1])
    }

    @Test("C5 the bearer token follows the plain rule for every header value", arguments: values)
    func C5_bearerTokenFollowsThePlainRule(value: String?) {
        var headers = HTTPFields()
        if let value { headers.append(HTTPField(name: .authorization, value: value)) }

        #expect(headers.bearerToken == Self.bearerRule(value))
    }

    @Test("C5 of two Authorization lines, the first counts")
    func C5_theFirstAuthorizationLineCounts() {
        let headers: HTTPFields = [.authorization: "Bearer first", .authorization: "Bearer second"]
        #expect(headers.bearerToken == "first")
    }
}
