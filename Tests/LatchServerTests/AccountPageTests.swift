import Foundation
import LatchServer
import LatchTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// Issue 13 §3: latchd serves the web account page at `/account` (HTML, stylesheet, script) with a
/// strict Content-Security-Policy, and nothing else from the page's resource folder or beside it.
@Suite("Issue 13 account page")
struct AccountPageTests {
    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    @Test(
        "test_13_accountPageServedWithCSP: /account, its CSS and its script modules answer 200 with their content types, the strict CSP, nosniff and no framing",
        arguments: [
            ("/account", "text/html"), ("/account/account.css", "text/css"), ("/account/account.js", "text/javascript"),
            ("/account/api.js", "text/javascript"), ("/account/dpop.js", "text/javascript"),
            ("/account/i18n.js", "text/javascript"),
            ("/account/view.js", "text/javascript"), ("/account/webauthn.js", "text/javascript")
        ])
    func test_13_accountPageServedWithCSP(path: String, type: String) async throws {
        try await withServer(.sqlite) { server in
            let response = try await server.send(.GET, path)
            #expect(response.status == 200, "\(path): \(response.status)")
            let contentType = try #require(response.headers.first(name: "Content-Type"))
            #expect(contentType == "\(type); charset=utf-8", "\(path): \(contentType)")
            #expect(response.headers.first(name: "Content-Security-Policy") == Self.policy)
            #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff")
            #expect(response.headers.first(name: "X-Frame-Options") == "DENY")
            #expect(response.headers.first(name: "Referrer-Policy") == "no-referrer")
            #expect(response.data.count > 400, "\(path): \(response.data.count) bytes")
        }
    }

    @Test(
        "test_13_accountPageHasNoInlineCode: the HTML loads only its own module script and stylesheet, with no inline script, style or event handler the CSP would block"
    )
    func test_13_accountPageHasNoInlineCode() async throws {
        try await withServer(.sqlite) { server in
            let html = try await server.send(.GET, "/account").text
            #expect(html.contains(#"<script type="module" src="/account/account.js"></script>"#))
            #expect(html.contains(#"<link rel="stylesheet" href="/account/account.css">"#))
            let scripts = html.components(separatedBy: "<script").count - 1
            #expect(scripts == 1, "one script element, with src: \(scripts)")
            #expect(!html.contains("<style"))
            #expect(html.range(of: #"\sstyle\s*="#, options: .regularExpression) == nil)
            #expect(html.range(of: #"\son[a-z]+\s*="#, options: [.regularExpression, .caseInsensitive]) == nil)
            #expect(html.range(of: "javascript:", options: .caseInsensitive) == nil)
            for module in ["account.js", "api.js", "dpop.js", "i18n.js", "view.js", "webauthn.js"] {
                let script = try await server.send(.GET, "/account/\(module)").text
                #expect(
                    !script.contains("localStorage") && !script.contains("sessionStorage")
                        && !script.contains("document.cookie"), "\(module)")
                #expect(!script.contains("innerHTML") && !script.contains("eval("), "\(module)")
                // Every import is another of the page's own modules (script-src 'self', one fixed route each).
                for line in script.split(separator: "\n") where line.hasPrefix("import ") {
                    let served = try #require(line.split(separator: "\"").dropFirst().first, "\(line)")
                    #expect(served.hasPrefix("./") && !served.dropFirst(2).contains("/"), "\(module): \(line)")
                    let status = try await server.send(.GET, "/account/" + served.dropFirst(2)).status
                    #expect(status == 200, "\(module) imports \(served): \(status)")
                }
            }
        }
    }

    @Test(
        "test_23_1_signUpLinksTermsAndPrivacy: the sign-up's two links go to LATCH_TERMS_URL and LATCH_PRIVACY_URL (escaped), /terms and /privacy by default"
    )
    func test_23_1_signUpLinksTermsAndPrivacy() async throws {
        try await withServer(.sqlite) { server in
            let html = try await server.send(.GET, "/account").text
            #expect(html.contains(#"<a id="terms-link" href="/terms" "#))
            #expect(html.contains(#"<a id="privacy-link" href="/privacy" "#))
            #expect(!html.contains("{{"))
        }
        try await withServer(
            .sqlite,
            adjust: {
                $0.accountPageLinks = AccountPageLinks(
                    termsURL: "https://example.com/legal/terms?lang=zh&v=\"2\"",
                    privacyURL: "https://example.com/privacy")
            }
        ) { server in
            let html = try await server.send(.GET, "/account").text
            #expect(html.contains(#"href="https://example.com/legal/terms?lang=zh&amp;v=&quot;2&quot;""#))
            #expect(html.contains(#"href="https://example.com/privacy""#))
        }
    }

    @Test(
        "test_23_1_termsAndPrivacyConfiguration: LATCH_TERMS_URL / LATCH_PRIVACY_URL take https URLs and paths; javascript:, //host and spaces are refused naming the variable"
    )
    func test_23_1_termsAndPrivacyConfiguration() throws {
        let key = Data(repeating: 7, count: 32).base64EncodedString()
        let config = try LatchConfig.fromEnvironment([
            "LATCH_SECRET_KEY": key, "LATCH_TERMS_URL": "https://example.com/terms",
            "LATCH_PRIVACY_URL": "/legal/privacy"
        ])
        #expect(
            config.accountPageLinks
                == AccountPageLinks(termsURL: "https://example.com/terms", privacyURL: "/legal/privacy"))
        #expect(try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key]).accountPageLinks == AccountPageLinks())
        for (name, bad) in [
            ("LATCH_TERMS_URL", "javascript:alert(1)"), ("LATCH_PRIVACY_URL", "//evil.example/privacy"),
            ("LATCH_TERMS_URL", "https://"), ("LATCH_PRIVACY_URL", "/a b"), ("LATCH_TERMS_URL", "terms.html")
        ] {
            let error = try #require(throws: ConfigurationError.self) {
                try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key, name: bad])
            }
            #expect(error.variable == name, "\(bad)")
            // The message says what is accepted, http included (issue 28 §3).
            #expect("\(error)".contains("http:// or https:// URL with a host"), "\(error)")
            #expect("\(error)".contains("starting with one /"), "\(error)")
        }
        let http = try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key, "LATCH_TERMS_URL": "http://example.com/t"])
        #expect(http.accountPageLinks.termsURL == "http://example.com/t", "http is accepted, as the message says")
    }

    @Test(
        "test_13_accountPageServesNothingElse: other names, the folder, traversal (plain and %-encoded) and the sources answer 404; exactly nine page routes exist (page, stylesheet, seven modules)",
        arguments: [
            "/account/account.html", "/account/Static/account.js", "/Static/account.js", "/account.js",
            "/account/index.html",
            "/account/../Package.swift", "/account/%2e%2e/%2e%2e/Package.swift", "/account/..%2f..%2fPackage.swift",
            "/account/%2e%2e%2fopenapi.json", "/account/..%5c..%5cPackage.swift", "/account/AccountPageRoutes.swift",
            "/account/account.js%00.html", "/account/ACCOUNT.JS", "/account/.", "/account/..", "/account/x/account.js",
            "/account/view", "/account/Static/view.js", "/account/modules/api.js", "/account/account.css.map",
            "/api.js"
        ])
    func test_13_accountPageServesNothingElse(path: String) async throws {
        try await withServer(.sqlite) { server in
            let port = try #require(URLComponents(string: server.baseURL)?.port)
            // The raw client does reach the page's files (so a 404 below is the server's answer).
            let control = try await RawHTTP.get("/account/account.js", port: port)
            #expect(control.status == 200 && control.body.contains("from \"./api.js\""))
            let (status, body) = try await RawHTTP.get(path, port: port)
            #expect(status == 404, "\(path): \(status)")
            #expect(
                !body.contains("import ") && !body.contains("swift-tools-version") && !body.contains("export "),
                "\(path) leaked a file")
            let pageRoutes = server.app.routeTable.all.filter { $0.segments.first == "account" }
            #expect(
                pageRoutes.count == 9 && pageRoutes.allSatisfy { $0.method == "GET" },
                "\(pageRoutes.map(\.path))")
        }
    }
}
