import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Testing

/// C11 errors for bad input: every refusal is a 4xx in the API's error format, names the field at
/// fault, speaks the caller's language, and nothing a client sends can make the server answer 5xx.
@Suite("Bad input (C11)")
struct BadInputTests {
    /// The public JSON endpoints, each with a valid body to break.
    static var endpoints: [(path: String, valid: [String: Any])] {
        [
            ("/v1/token", ["grant_type": "password", "email": "alice@example.com", "password": "Correct-Horse-9"]),
            (
                "/v1/registrations",
                ["email": "alice@example.com", "password": "Correct-Horse-9", "terms_accepted": true]
            ),
            ("/v1/password/reset", ["email": "alice@example.com", "code": "123456", "new_password": "Brand-New-Pass-7"])
        ]
    }

    @Test(
        "C11 a known path asked with another method is 405 METHOD_NOT_ALLOWED with Allow; an unknown path is 404",
        arguments: TestDatabase.all)
    func C11_wrongMethodIs405(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let onMe = try await server.send(.PUT, "/v1/me")
            let onSession = try await server.send(.PUT, "/v1/sessions/\(UUID().uuidString)")
            let onToken = try await server.send(.GET, "/v1/token")
            let unknown = try await server.send(.GET, "/v1/nothing-here")
            let deeper = try await server.send(.GET, "/v1/me/nothing/here")

            #expect(onMe.status == 405 && onMe.errorCode == "METHOD_NOT_ALLOWED", "\(onMe.text)")
            #expect(
                onMe.headers.first(name: "Allow") == "DELETE, GET, HEAD, PATCH",
                "DELETE /v1/me deletes the account (issue 12)")
            #expect(onSession.status == 405 && onSession.headers.first(name: "Allow") == "DELETE", "\(onSession.text)")
            #expect(onToken.status == 405 && onToken.headers.first(name: "Allow") == "POST")
            #expect(unknown.status == 404 && unknown.errorCode == "NOT_FOUND", "\(unknown.text)")
            #expect(deeper.status == 404)
        }
    }

    @Test("C11 malformed JSON is 400 MALFORMED_BODY", arguments: TestDatabase.all)
    func C11_malformedJSON(database: TestDatabase) async throws {
        try await withServer(database) { server in
            for (path, _) in Self.endpoints {
                for body in [#"{"email": "#, "{", "not json", #"{"email" "a@b.co"}"#, "{]", "\u{FEFF}{]"] {
                    let response = try await server.send(.POST, path, body: body)

                    #expect(
                        response.status == 400 && response.errorCode == "MALFORMED_BODY",
                        "\(path) \(body): \(response.text)")
                }
            }
        }
    }

    @Test(
        "C11 a gzip-compressed body is bytes that are not JSON (400 MALFORMED_BODY), never inflated (issue 21)",
        arguments: TestDatabase.all)
    func C11_compressedBodyIsNotInflated(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let json = Array(
                #"{"grant_type":"password","email":"nobody@example.com","password":"Correct-Horse-9"}"#.utf8)
            let plain = try await server.send(.POST, "/v1/token", bytes: json)
            let gzipped = try await server.send(
                .POST, "/v1/token", bytes: Self.gzipStored(json), headers: [("Content-Encoding", "gzip")])

            #expect(plain.status == 401, "the same JSON sent plainly is read: \(plain.text)")
            #expect(gzipped.status == 400 && gzipped.errorCode == "MALFORMED_BODY", "\(gzipped.text)")
        }
    }

    /// `bytes` as a gzip member (RFC 1952) holding one stored DEFLATE block (RFC 1951 §3.2.4): what any
    /// inflater turns back into `bytes`, made without a compression library.
    static func gzipStored(_ bytes: [UInt8]) -> [UInt8] {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc ^= 0xFFFF_FFFF
        let length = UInt16(bytes.count)
        let littleEndian: (UInt32) -> [UInt8] = { value in
            (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        // The member header: magic, deflate, no flags, no time, unknown OS; then one final stored block.
        let header: [UInt8] = [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF]
        let block: [UInt8] = [
            0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)
        ]
        return header + block
            + bytes + littleEndian(crc) + littleEndian(UInt32(bytes.count))
    }

    @Test("C11 a field of the wrong type is 400 VALIDATION_FAILED naming it", arguments: TestDatabase.all)
    func C11_wrongTypeNamesField(database: TestDatabase) async throws {
        try await withServer(database) { server in
            for (path, valid) in Self.endpoints {
                for (field, value) in [("email", 5 as Any), ("email", ["a"] as Any), ("email", true as Any)] {
                    var body = valid
                    body[field] = value

                    let response = try await server.send(.POST, path, json: body)

                    #expect(
                        response.status == 400 && response.errorCode == "VALIDATION_FAILED", "\(path): \(response.text)"
                    )
                    #expect(response.errorBody?.field == field, "\(path): \(response.text)")
                }
            }
            let termsAsNumber = try await server.send(
                .POST, "/v1/registrations",
                json: ["email": "alice@example.com", "password": "Correct-Horse-9", "terms_accepted": 1])
            #expect(
                termsAsNumber.status == 400 && termsAsNumber.errorBody?.field == "terms_accepted",
                "\(termsAsNumber.text)")
            let deviceAsString = try await server.send(
                .POST, "/v1/token",
                json: [
                    "grant_type": "password", "email": "alice@example.com", "password": "Correct-Horse-9",
                    "device": "iPhone"
                ])
            #expect(
                deviceAsString.status == 400 && deviceAsString.errorBody?.field == "device", "\(deviceAsString.text)")
        }
    }

    @Test("C11 a missing required field is 400 naming it", arguments: TestDatabase.all)
    func C11_missingFieldNamesField(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let required: [String: [String]] = [
                "/v1/token": ["grant_type", "email", "password"],
                "/v1/registrations": ["email", "password", "terms_accepted"],
                "/v1/password/reset": ["email", "code", "new_password"]
            ]
            for (path, valid) in Self.endpoints {
                for field in required[path] ?? [] {
                    var body = valid
                    body[field] = nil

                    let response = try await server.send(.POST, path, json: body)

                    #expect(
                        response.status == 400 && response.errorCode == "VALIDATION_FAILED",
                        "\(path) without \(field): \(response.text)")
                    #expect(response.errorBody?.field == field, "\(path) without \(field): \(response.text)")
                }
            }
            let refreshWithoutToken = try await server.send(.POST, "/v1/token", json: ["grant_type": "refresh_token"])
            #expect(refreshWithoutToken.status == 400 && refreshWithoutToken.errorBody?.field == "refresh_token")
            let nullEmail = try await server.send(
                .POST, "/v1/registrations", body: #"{"email":null,"password":"Correct-Horse-9","terms_accepted":true}"#)
            #expect(nullEmail.status == 400 && nullEmail.errorBody?.field == "email", "\(nullEmail.text)")
        }
    }

    @Test("C11 an empty or absent body is a 4xx in the error format", arguments: TestDatabase.all)
    func C11_emptyBody(database: TestDatabase) async throws {
        try await withServer(database) { server in
            for (path, _) in Self.endpoints {
                let empty = try await server.send(.POST, path, body: "")
                let absent = try await server.send(.POST, path)
                let emptyObject = try await server.send(.POST, path, body: "{}")

                for response in [empty, absent, emptyObject] {
                    #expect((400..<500).contains(response.status), "\(path): \(response.status) \(response.text)")
                    #expect(response.errorCode != nil && response.errorBody != nil, "\(path): \(response.text)")
                }
            }
        }
    }

    @Test("C11 a body over 64 KiB is 413 PAYLOAD_TOO_LARGE", arguments: TestDatabase.all)
    func C11_payloadTooLarge(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let padding = String(repeating: "a", count: 65 * 1024)
            for (path, valid) in Self.endpoints {
                var body = valid
                body["padding"] = padding

                let response = try await server.send(.POST, path, json: body)

                #expect(
                    response.status == 413 && response.errorCode == "PAYLOAD_TOO_LARGE",
                    "\(path): \(response.status) \(response.text.prefix(200))")
            }
        }
    }

    @Test("C11 a body that is not JSON by Content-Type is 415", arguments: TestDatabase.all)
    func C11_wrongContentType(database: TestDatabase) async throws {
        try await withServer(database) { server in
            for (path, valid) in Self.endpoints {
                let json = String(decoding: try JSONSerialization.data(withJSONObject: valid), as: UTF8.self)
                for contentType in ["text/plain", "application/x-www-form-urlencoded", "application/xml"] {
                    let response = try await server.send(.POST, path, body: json, contentType: contentType)

                    #expect(
                        response.status == 415 && response.errorCode == "UNSUPPORTED_MEDIA_TYPE",
                        "\(path) \(contentType): \(response.text)")
                }
                let withCharset = try await server.send(
                    .POST, path, body: "{", contentType: "application/json; charset=utf-8")
                #expect(
                    withCharset.errorCode == "MALFORMED_BODY",
                    "a JSON type with parameters is still JSON: \(withCharset.text)")
            }
        }
    }

    @Test(
        "C11 an unknown or unsupported grant_type is a 4xx with an error code naming grant_type",
        arguments: TestDatabase.all)
    func C11_unknownGrantType(database: TestDatabase) async throws {
        try await withServer(database) { server in
            for grant in ["magic", "", "PASSWORD", "client_credentials", "authorization_code"] {
                let response = try await server.send(
                    .POST, "/v1/token",
                    json: ["grant_type": grant, "email": "alice@example.com", "password": "Correct-Horse-9"])

                #expect((400..<500).contains(response.status), "\(grant): \(response.text)")
                #expect(
                    response.errorCode == "VALIDATION_FAILED" && response.errorBody?.field == "grant_type",
                    "\(grant): \(response.text)")
            }
            let numeric = try await server.send(.POST, "/v1/token", json: ["grant_type": 1])
            #expect(numeric.status == 400 && numeric.errorBody?.field == "grant_type")
        }
    }

    @Test("C11 an unknown path is a JSON 404 NOT_FOUND", arguments: TestDatabase.all)
    func C11_unknownPath(database: TestDatabase) async throws {
        try await withServer(database) { server in
            for (method, path) in [
                (HTTPMethod.GET, "/nope"), (.GET, "/v1/nope"), (.POST, "/v1/nope"), (.GET, "/v2/token"),
                (.DELETE, "/v1/me/extra")
            ] {
                let response = try await server.send(method, path)

                #expect(
                    response.status == 404 && response.errorCode == "NOT_FOUND",
                    "\(method.rawValue) \(path): \(response.text)")
                #expect(
                    response.headers.first(name: "Content-Type") == "application/json; charset=utf-8",
                    "\(method.rawValue) \(path)")
                #expect(response.errorBody?.message == "Not found.")
            }
            let chinese = try await server.send(.GET, "/v1/nope", headers: [("Accept-Language", "zh-Hans")])
            #expect(chinese.errorBody?.message == "资源不存在")
        }
    }

    @Test(
        "C11 every error body has error and message, in Chinese for zh-Hans and English otherwise",
        arguments: TestDatabase.all)
    func C11_errorFormatAndLanguage(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            for request in Self.badRequests {
                for language in [nil, "zh-Hans", "zh-CN,zh;q=0.9", "en-US", "fr-FR"] {
                    let response = try await request.send(to: server, language: language)

                    let context =
                        "\(request) [\(language ?? "no Accept-Language")]: \(response.status) \(response.text.prefix(300))"
                    #expect((400..<500).contains(response.status), "\(context)")
                    #expect(response.errorCode?.isEmpty == false, "\(context)")
                    let message = try #require(response.errorBody?.message, "\(context)")
                    let chinese = message.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }
                    if language?.hasPrefix("zh") == true {
                        #expect(chinese, "\(context)")
                    } else {
                        #expect(!chinese && message.allSatisfy(\.isASCII), "\(context)")
                    }
                }
            }
        }
    }

    @Test("C11 no bad request ever gets a 5xx", arguments: TestDatabase.all)
    func C11_nothingAnswers5xx(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            // The harmless ones first: the bad ones lock Alice out, and the odd sign-ins should get through.
            var requests = Self.oddButHarmlessRequests + Self.badRequests
            requests += [
                BadRequest(.GET, "/v1/me", bearer: tokens.accessToken + "x"),
                BadRequest(.PATCH, "/v1/me", body: #"{"nickname": 5}"#, bearer: tokens.accessToken),
                BadRequest(.PATCH, "/v1/me", body: #"{"nickname": "a\u0000b"}"#, bearer: tokens.accessToken),
                BadRequest(.PATCH, "/v1/me", body: "[]", bearer: tokens.accessToken),
                BadRequest(.PATCH, "/v1/me", body: "{", bearer: tokens.accessToken),
                BadRequest(.DELETE, "/v1/sessions/%00", bearer: tokens.accessToken),
                BadRequest(.DELETE, "/v1/sessions/\(String(repeating: "f", count: 2000))", bearer: tokens.accessToken),
                BadRequest(.DELETE, "/v1/sessions?scope=others&scope=all", bearer: tokens.accessToken),
                BadRequest(.DELETE, "/v1/sessions?scope[]=others", bearer: tokens.accessToken),
                BadRequest(
                    .POST, "/v1/password/change", body: #"{"current_password": 1, "new_password": []}"#,
                    bearer: tokens.accessToken),
                BadRequest(
                    .POST, "/v1/password/change",
                    body: #"{"current_password": "", "new_password": "Brand-New-Pass-7"}"#, bearer: tokens.accessToken),
                BadRequest(.POST, "/v1/password/change", body: "{}", bearer: tokens.accessToken)
            ]

            var statuses: [String: UInt] = [:]
            for request in requests {
                statuses["\(request)"] = try await request.send(to: server, language: nil).status
            }

            for (request, status) in statuses.sorted(by: { $0.key < $1.key }) {
                #expect(status < 500, "\(request) answered \(status)")
            }
            #expect(try await server.send(.GET, "/v1/me", bearer: tokens.accessToken).status == 200, "still serving")
        }
    }

    @Test("C8 device strings with control characters do not break sign-in", arguments: TestDatabase.all)
    func C8_deviceWithControlCharacters(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            let device = ["id": "i\u{0}d", "name": "Alice\u{0}s iPhone", "model": "\u{1}", "platform": "iOS"]
            let registered = try await server.send(
                .POST, "/v1/registrations",
                json: ["email": "bob@example.com", "password": "Correct-Horse-9", "terms_accepted": true])
            let id = try registered.decode(RegistrationAccepted.self).registrationId
            let code = try await server.latestCode(to: "bob@example.com")

            let signIn = try await server.signIn(device: device)
            let verify = try await server.send(
                .POST, "/v1/registrations/\(id)/verify", json: ["code": code, "device": device])

            for response in [signIn, verify] {
                #expect(response.status < 500, "\(response.status) \(response.text)")
                // 403: a device Alice's account does not know is screened (VERIFICATION_REQUIRED).
                #expect([200, 201, 400, 403, 422].contains(response.status), "\(response.text)")
            }
        }
    }

    /// Requests that must be refused with a 4xx in the error format.
    static var badRequests: [BadRequest] {
        var requests: [BadRequest] = []
        for (path, valid) in endpoints {
            let json = String(decoding: (try? JSONSerialization.data(withJSONObject: valid)) ?? Data(), as: UTF8.self)
            requests += [
                BadRequest(.POST, path, body: #"{"email": "#),
                BadRequest(.POST, path, body: ""),
                BadRequest(.POST, path),
                BadRequest(.POST, path, body: "{}"),
                BadRequest(.POST, path, body: "[]"),
                BadRequest(.POST, path, body: "null"),
                BadRequest(.POST, path, body: "42"),
                BadRequest(.POST, path, body: #""a string""#),
                BadRequest(.POST, path, body: String(repeating: "[", count: 20_000)),
                BadRequest(.POST, path, body: "{\"email\": \"\u{FFFF}\"}"),
                BadRequest(.POST, path, bytes: Data([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D])),
                BadRequest(.POST, path, body: #"{"email": 1e999, "password": "x"}"#),
                BadRequest(.POST, path, body: #"{"email": "alice@example.com", "email": 5}"#),
                BadRequest(.POST, path, body: json, contentType: "text/plain"),
                BadRequest(.POST, path, body: #"{"padding": ""# + String(repeating: "x", count: 70_000) + #""}"#),
                BadRequest(
                    .POST, path, body: json.replacingOccurrences(of: "alice@example.com", with: "a\\u0000@example.com")),
                BadRequest(
                    .POST, path, body: json.replacingOccurrences(of: "alice@example.com", with: "\\ud800@example.com")),
                BadRequest(
                    .POST, path,
                    body: json.replacingOccurrences(of: "alice@example.com", with: String(repeating: "a", count: 5000))),
                BadRequest(.POST, path, body: json.replacingOccurrences(of: "\"alice@example.com\"", with: "{}"))
            ]
        }
        requests += [
            BadRequest(.POST, "/v1/token", body: #"{"grant_type": "magic"}"#),
            BadRequest(
                .POST, "/v1/token", body: #"{"grant_type": "device_signature", "challenge_id": "x", "signature": "y"}"#),
            BadRequest(.POST, "/v1/token", body: #"{"grant_type": "apple", "identity_token": "x"}"#),
            BadRequest(.POST, "/v1/token", body: #"{"grant_type": "refresh_token", "refresh_token": ""}"#),
            BadRequest(
                .POST, "/v1/token",
                body: #"{"grant_type": "refresh_token", "refresh_token": "\#(String(repeating: "A", count: 5000))"}"#),
            BadRequest(.POST, "/v1/token", body: #"{"grant_type": "refresh_token", "refresh_token": "a\u0000b"}"#),
            BadRequest(
                .POST, "/v1/token", body: #"{"grant_type": "password", "email": "alice@example.com", "password": ""}"#),
            BadRequest(
                .POST, "/v1/token",
                body:
                    #"{"grant_type": "password", "email": "alice@example.com", "password": "\#(String(repeating: "p", count: 2000))"}"#
            ),
            BadRequest(
                .POST, "/v1/token",
                body:
                    #"{"grant_type": "password", "email": "alice@example.com", "password": "x", "device": {"name": 5}}"#
            ),
            BadRequest(
                .POST, "/v1/registrations",
                body:
                    #"{"email": "alice@example.com", "password": "Correct-Horse-9", "terms_accepted": true, "nickname": "\#(String(repeating: "n", count: 5000))"}"#
            ),
            BadRequest(
                .POST, "/v1/registrations",
                body:
                    #"{"email": "alice@example.com", "password": "Correct-Horse-9", "terms_accepted": true, "nickname": "a\u0000b"}"#
            ),
            BadRequest(
                .POST, "/v1/registrations",
                body:
                    #"{"email": "alice@example.com", "password": "\#(String(repeating: "Ab1", count: 10_000))", "terms_accepted": true}"#
            ),
            BadRequest(
                .POST, "/v1/registrations",
                body: #"{"email": "alice@example.com", "password": "Correct-Horse-9", "terms_accepted": "yes"}"#),
            BadRequest(.POST, "/v1/registrations/not-a-uuid/verify", body: #"{"code": "123456"}"#),
            BadRequest(.POST, "/v1/registrations/\(UUID().uuidString)/verify", body: #"{"code": "123456"}"#),
            BadRequest(.POST, "/v1/registrations/\(UUID().uuidString)/verify", body: #"{"code": "12345"}"#),
            BadRequest(.POST, "/v1/registrations/\(UUID().uuidString)/verify", body: #"{"code": "١٢٣٤٥٦"}"#),
            BadRequest(.POST, "/v1/registrations/\(UUID().uuidString)/verify", body: #"{"code": 123456}"#),
            BadRequest(
                .POST, "/v1/registrations/\(UUID().uuidString)/verify", body: #"{"code": "123456", "device": []}"#),
            BadRequest(.POST, "/v1/password/forgot", body: #"{"email": "not an email"}"#),
            BadRequest(.POST, "/v1/password/forgot", body: #"{"email": ["alice@example.com"]}"#),
            BadRequest(.POST, "/v1/password/forgot", body: "{"),
            BadRequest(
                .POST, "/v1/password/reset",
                body: #"{"email": "alice@example.com", "code": "abcdef", "new_password": "Brand-New-Pass-7"}"#),
            BadRequest(
                .POST, "/v1/password/reset",
                body: #"{"email": "alice@example.com", "code": "123456", "new_password": "weak"}"#),
            BadRequest(
                .POST, "/v1/password/change", body: #"{"current_password": "x", "new_password": "Brand-New-Pass-7"}"#),
            BadRequest(.GET, "/v1/me"),
            BadRequest(.GET, "/v1/me", bearer: ""),
            BadRequest(.GET, "/v1/me", bearer: String(repeating: "e", count: 6000)),
            BadRequest(.GET, "/v1/me", bearer: "eyJhbGciOiJFUzI1NiIsImtpZCI6Im5vcGUifQ.e30.AAAA"),
            BadRequest(.GET, "/v1/me", bearer: "eyJhbGciOiJFUzI1NiJ9.bm90IGpzb24.AAAA"),
            BadRequest(.GET, "/v1/sessions", bearer: "a.b.c"),
            BadRequest(.DELETE, "/v1/sessions?scope=others"),
            BadRequest(.POST, "/v1/logout"),
            BadRequest(.GET, "/v1/nope"),
            BadRequest(.GET, "/v1/registrations"),
            BadRequest(.GET, "/v1/token")
        ]
        return requests
    }

    /// Requests that may legitimately succeed but must never cause a 5xx.
    static var oddButHarmlessRequests: [BadRequest] {
        [
            BadRequest(.GET, "/health", headers: [("Accept-Language", String(repeating: "zh;q=0.5,", count: 500))]),
            BadRequest(.GET, "/health", headers: [("Accept-Language", ";;;,q=,*")]),
            BadRequest(.OPTIONS, "/v1/token"),
            BadRequest(.HEAD, "/v1/me"),
            BadRequest(.GET, "/.well-known/jwks.json?x=%ZZ"),
            BadRequest(
                .POST, "/v1/password/forgot",
                body: #"{"email": "alice@example.com", "extra": {"deep": [1, 2, {"x": null}]}}"#),
            BadRequest(
                .POST, "/v1/token",
                body:
                    #"{"grant_type": "password", "email": "alice@example.com", "password": "Correct-Horse-9", "device": {"name": "\#(String(repeating: "d", count: 5000))", "model": "", "platform": "  "}}"#
            ),
            BadRequest(
                .POST, "/v1/token",
                body:
                    #"{"grant_type": "password", "email": "alice@example.com", "password": "Correct-Horse-9", "device": {"name": "Alice\u0000s iPhone", "id": "\u0000"}}"#
            ),
            BadRequest(
                .POST, "/v1/token",
                body:
                    #"{"grant_type": "password", "email": "alice@example.com", "password": "Correct-Horse-9", "device": {"name": "\ud83d\ude00 \u2028 \u202e"}}"#
            )
        ]
    }
}

/// One request a client could send, described for failure messages.
struct BadRequest: CustomStringConvertible, Sendable {
    let method: HTTPMethod
    let path: String
    let body: Data?
    let contentType: String?
    let bearer: String?
    let headers: [(String, String)]

    init(
        _ method: HTTPMethod, _ path: String, body: String? = nil, bytes: Data? = nil,
        contentType: String? = "application/json",
        bearer: String? = nil, headers: [(String, String)] = []
    ) {
        self.method = method
        self.path = path
        self.body = bytes ?? body.map { Data($0.utf8) }
        self.contentType = contentType
        self.bearer = bearer
        self.headers = headers
    }

    var description: String {
        let shown = body.map { String(decoding: $0.prefix(200), as: UTF8.self) } ?? "no body"
        return
            "\(method.rawValue) \(path.prefix(80)) [\(contentType ?? "-")] \(shown)\(body.map { $0.count > 200 ? "… (\($0.count) bytes)" : "" } ?? "")"
    }

    func send(to server: TestServer, language: String?) async throws -> TestResponse {
        var extra = headers
        if let language { extra.append(("Accept-Language", language)) }
        var httpHeaders = HTTPHeaders()
        if let bearer { httpHeaders.add(name: "Authorization", value: "Bearer \(bearer)") }
        if body != nil, let contentType { httpHeaders.add(name: "Content-Type", value: contentType) }
        for (name, value) in extra { httpHeaders.add(name: name, value: value) }
        let body = self.body
        let response = try await TestHTTP.send(
            method, server.baseURL + path, headers: httpHeaders, body: body.map { ByteBuffer(data: $0) })
        return TestResponse(
            status: response.status.code, headers: response.headers,
            data: response.body.map { Data(buffer: $0) } ?? Data())
    }
}
