import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// Issue 10 §3: no cross-site "simple" POSTs. Every route under `/v1` refuses a body that is not
/// `Content-Type: application/json` with 415, whether the route reads a body, accepts an empty one,
/// or ignores it, and before authentication or rate limits.
@Suite("JSON bodies only (issue 10 §3)")
struct ContentTypeTests {
    /// Every registered route under /v1 with a method that can carry a body, parameters filled in.
    static func bodyRoutes(of table: RouteTable) -> [(HTTPMethod, String)] {
        table.all.compactMap { route in
            let method = HTTPMethod(rawValue: route.method)
            guard [.POST, .PUT, .PATCH, .DELETE].contains(method) else { return nil }
            let path = "/" + route.segments.map { $0.hasPrefix(":") ? UUID().uuidString : $0 }.joined(separator: "/")
            return path.hasPrefix("/v1/") ? (method, path) : nil
        }
    }

    @Test(
        "issue 10 §3: text/plain, form-encoded and untyped bodies get 415 UNSUPPORTED_MEDIA_TYPE on every /v1 route",
        arguments: TestDatabase.all)
    func test_10_nonJSONBodiesAre415(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let routes = Self.bodyRoutes(of: server.app.routeTable)
            #expect(routes.count >= 20, "\(routes.count) routes")
            let json = #"{"email":"alice@example.com","password":"Correct-Horse-9","grant_type":"password"}"#
            for (method, path) in routes {
                // Every route: the three "simple" forms a web page can send cross-site, and no type at all;
                // the odder types on one route.
                var variants: [(String, String?)] = [
                    (json, "text/plain"), ("email=alice%40example.com&password=x", "application/x-www-form-urlencoded"),
                    (
                        "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--b--\r\n",
                        "multipart/form-data; boundary=b"
                    ),
                    (json, nil)
                ]
                if path == "/v1/token" {
                    variants += [(json, "text/plain; charset=utf-8"), (json, "*/*"), (json, "application/jsonp")]
                }
                for (body, contentType) in variants {
                    let response = try await server.send(method, path, body: body, contentType: contentType)

                    #expect(
                        response.status == 415 && response.errorCode == "UNSUPPORTED_MEDIA_TYPE",
                        "\(method.rawValue) \(path) [\(contentType ?? "no Content-Type")]: \(response.status) \(response.text)"
                    )
                }
            }
        }
    }

    @Test(
        "issue 10 §3: application/json (any case, with parameters) and empty bodies still pass",
        arguments: TestDatabase.all)
    func test_10_jsonAndEmptyBodiesPass(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            // From the account's own device (test-device-0): an unknown one would be screened (403).
            let signIn =
                #"{"grant_type":"password","email":"alice@example.com","password":"Correct-Horse-9","device":{"id":"test-device-0"}}"#
            for contentType in ["application/json", "application/json; charset=utf-8", "Application/JSON"] {
                let response = try await server.send(.POST, "/v1/token", body: signIn, contentType: contentType)
                #expect(response.status == 200, "\(contentType): \(response.text)")
            }
            // A route that takes an optional body, and one that takes none, with no body at all.
            let enroll = try await server.send(.POST, "/v1/mfa/totp", bearer: tokens.accessToken)
            #expect(enroll.status == 200, "\(enroll.text)")
            let logout = try await server.send(.POST, "/v1/logout", bearer: tokens.accessToken)
            #expect(logout.status == 204, "\(logout.text)")
        }
    }
}
