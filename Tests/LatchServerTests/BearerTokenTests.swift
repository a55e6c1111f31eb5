import Testing
import Vapor

@testable import LatchServer

/// C5 (issue 21): latchd reads the access token of `Authorization` over the header's bytes; it must accept and
/// refuse exactly what Vapor's `bearerAuthorization` does, since apps mounting LatchServer may use either.
@Suite("C5 bearer token parsing")
struct BearerTokenTests {
    static let values: [String?] = [
        nil, "", " ", "Bearer", "Bearer ", "Bearer abc", "bearer abc", "BEARER abc", "BeArEr abc", "  Bearer   abc  ",
        "Bearer abc def", "Bearer\tabc", "Basic abc", "Bearerabc", "Bearer a.b.c", "Bearer ünïcode", "Bearers abc",
        "Bearer " + String(repeating: "x", count: 600), "Bearer abc ", "Bearer  abc"
    ]

    @Test("C5 the bearer token is Vapor's for every header value", arguments: values)
    func C5_bearerTokenIsVaporsAnswer(value: String?) {
        var headers = HTTPHeaders()
        if let value { headers.add(name: .authorization, value: value) }

        #expect(headers.bearerToken == headers.bearerAuthorization?.token)
    }
}
