import Foundation
import HTTPTypes
import Hummingbird
import NIOFoundationCompat

/// `GET /account`: the web account page (issue 13 §3) and its stylesheet and script modules (issue 22 §6),
/// on the API's origin. Fixed routes serve the files listed in `assets`, read once from the bundle's
/// `Static` folder; no path from the request ever reaches the file system, so nothing else in the folder
/// (or outside it) can be asked for. Every answer carries a strict Content-Security-Policy (no inline
/// script or style, no other origin: the module scripts come from 'self'), `nosniff`, no framing and no
/// referrer. The HTML's sign-up links are filled from `links` (`LATCH_TERMS_URL`, `LATCH_PRIVACY_URL`).
struct AccountPageRoutes: LatchRouteCollection {
    /// One file the page is made of.
    struct Asset: Sendable {
        let path: [String]
        let resource: String
        let contentType: String
    }

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// The page, its stylesheet, and its ES modules: `account.js` (the page) imports the others (`qr.js`, the
    /// hand-written QR encoder of the phone sign-in, through `view.js`).
    static let assets: [Asset] =
        [
            Asset(path: ["account"], resource: "account.html", contentType: utf8Text("html")),
            Asset(path: ["account", "account.css"], resource: "account.css", contentType: utf8Text("css"))
        ]
        + ["account.js", "api.js", "dpop.js", "i18n.js", "qr.js", "view.js", "webauthn.js"].map { module in
            Asset(path: ["account", module], resource: module, contentType: utf8Text("javascript"))
        }

    /// `text/SUBTYPE; charset=utf-8`.
    static func utf8Text(_ subType: String) -> String {
        "text/\(subType); charset=utf-8"
    }

    /// The files' bytes, read from the bundle once.
    static let contents: [String: Data] = {
        var contents: [String: Data] = [:]
        for asset in assets {
            let name = (asset.resource as NSString).deletingPathExtension
            let ext = (asset.resource as NSString).pathExtension
            guard let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Static"),
                let data = try? Data(contentsOf: url)
            else { preconditionFailure("LatchServer's resource Static/\(asset.resource) is missing from the bundle") }
            contents[asset.resource] = data
        }
        return contents
    }()

    /// Where the sign-up's Terms of Service and Privacy Policy links go.
    let links: AccountPageLinks

    init(links: AccountPageLinks = AccountPageLinks()) {
        self.links = links
    }

    func boot(routes: LatchRoutes) throws {
        for asset in Self.assets {
            var data = Self.contents[asset.resource] ?? Data()
            if asset.resource == "account.html" {
                data = Data(links.filling(String(decoding: data, as: UTF8.self)).utf8)
            }
            let answer = Self.response(data, type: asset.contentType)
            routes.get(asset.path) { _ in answer }
        }
    }

    static func response(_ data: Data, type: String) -> Response {
        let headers: HTTPFields = [
            .contentType: type, .contentSecurityPolicy: contentSecurityPolicy, .xContentTypeOptions: "nosniff",
            .xFrameOptions: "DENY", .referrerPolicy: "no-referrer", .cacheControl: "no-cache"
        ]
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: data)))
    }
}
