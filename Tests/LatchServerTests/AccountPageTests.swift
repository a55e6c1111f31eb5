import Foundation
import Testing
import Vapor

/// Issue 13 §3: latchd serves the web account page at `/account` (HTML, stylesheet, script) with a
/// strict Content-Security-Policy, and nothing else from the page's resource folder or beside it.
@Suite("Issue 13 account page")
struct AccountPageTests {
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    @Test(
        "test_13_accountPageServedWithCSP: /account, its CSS and its script answer 200 with their content types, the strict CSP, nosniff and no framing",
        arguments: [
            ("/account", "text/html"), ("/account/account.css", "text/css"), ("/account/account.js", "text/javascript")
        ])
    func test_13_accountPageServedWithCSP(path: String, type: String) async throws {
        try await withServer(.sqlite) { server in
            let response = try await server.send(.GET, path)
            #expect(response.status == 200, "\(path): \(response.status)")
            let contentType = try #require(response.headers.contentType)
            #expect("\(contentType.type)/\(contentType.subType)" == type, "\(path): \(contentType)")
            #expect(contentType.parameters["charset"]?.lowercased() == "utf-8")
            #expect(response.headers.first(name: "Content-Security-Policy") == Self.policy)
            #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff")
            #expect(response.headers.first(name: "X-Frame-Options") == "DENY")
            #expect(response.headers.first(name: "Referrer-Policy") == "no-referrer")
            #expect(response.data.count > 500, "\(path): \(response.data.count) bytes")
        }
    }

    @Test(
        "test_13_accountPageHasNoInlineCode: the HTML loads only its own script and stylesheet, with no inline script, style or event handler the CSP would block"
    )
    func test_13_accountPageHasNoInlineCode() async throws {
        try await withServer(.sqlite) { server in
            let html = try await server.send(.GET, "/account").text
            #expect(html.contains(#"<script src="/account/account.js" defer></script>"#))
            #expect(html.contains(#"<link rel="stylesheet" href="/account/account.css">"#))
            let scripts = html.components(separatedBy: "<script").count - 1
            #expect(scripts == 1, "one script element, with src: \(scripts)")
            #expect(!html.contains("<style"))
            #expect(html.range(of: #"\sstyle\s*="#, options: .regularExpression) == nil)
            #expect(html.range(of: #"\son[a-z]+\s*="#, options: [.regularExpression, .caseInsensitive]) == nil)
            #expect(html.range(of: "javascript:", options: .caseInsensitive) == nil)
            let script = try await server.send(.GET, "/account/account.js").text
            #expect(
                !script.contains("localStorage") && !script.contains("sessionStorage")
                    && !script.contains("document.cookie"))
            #expect(!script.contains("innerHTML") && !script.contains("eval("))
        }
    }

    @Test(
        "test_13_accountPageServesNothingElse: other names, the folder, traversal (plain and %-encoded) and the sources answer 404; exactly three page routes exist",
        arguments: [
            "/account/account.html", "/account/Static/account.js", "/Static/account.js", "/account.js",
            "/account/index.html",
            "/account/../Package.swift", "/account/%2e%2e/%2e%2e/Package.swift", "/account/..%2f..%2fPackage.swift",
            "/account/%2e%2e%2fopenapi.json", "/account/..%5c..%5cPackage.swift", "/account/AccountPageRoutes.swift",
            "/account/account.js%00.html", "/account/ACCOUNT.JS", "/account/.", "/account/..", "/account/x/account.js"
        ])
    func test_13_accountPageServesNothingElse(path: String) async throws {
        try await withServer(.sqlite) { server in
            let port = try #require(URLComponents(string: server.baseURL)?.port)
            // The raw client does reach the page's files (so a 404 below is the server's answer).
            let control = try await RawHTTP.get("/account/account.js", port: port)
            #expect(control.status == 200 && control.body.contains("\"use strict\""))
            let (status, body) = try await RawHTTP.get(path, port: port)
            #expect(status == 404, "\(path): \(status)")
            #expect(
                !body.contains("import ") && !body.contains("swift-tools-version") && !body.contains("\"use strict\""),
                "\(path) leaked a file")
            let pageRoutes = server.app.routes.all.filter { $0.path.first?.description == "account" }
            #expect(
                pageRoutes.count == 3 && pageRoutes.allSatisfy { $0.method == .GET || $0.method == .HEAD },
                "\(pageRoutes.map(\.description))")
        }
    }
}
