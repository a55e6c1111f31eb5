import ArgumentParser
import Foundation
import LatchClient

/// What `latch approve` and `latch deny` act on: a sign-in code's URL (issue 43 §1) or a verification
/// waiting for this phone (`--verification ID`, issue 43 §2; see `latch approvals`).
struct ApprovalTarget: ParsableArguments {
    @Argument(
        help: "The sign-in code's URL ({issuer}/approve/{id}#s={secret}), as `latch login --with-phone` prints it.")
    var url: String?

    @Option(help: "A verification waiting for this phone (its id, from `latch approvals`).")
    var verification: String?

    @Option(
        help: ArgumentHelp(
            "The issuer the code's URL must be under (env LATCH_ISSUER; default: the --server URL). A URL on any other server is refused.",
            valueName: "url"))
    var issuer: String?

    func validate() throws {
        if (url == nil) == (verification == nil) {
            throw ValidationError("give the code's URL or --verification ID (one of them)")
        }
        if let issuer, URL(string: issuer)?.host == nil {
            throw ValidationError("--issuer must be a URL such as https://auth.example.com")
        }
    }

    /// The subject, the URL checked against the issuer.
    func subject(server: URL, language: LatchLanguage) throws -> ApprovalSubject {
        if let verification { return .verification(id: verification) }
        let environment = ProcessInfo.processInfo.environment["LATCH_ISSUER"].flatMap { $0.isEmpty ? nil : $0 }
        let issuerURL = (issuer ?? environment).flatMap(URL.init(string:)) ?? server
        do {
            return .signIn(try ApprovalLink(url ?? "", issuer: issuerURL))
        } catch ApprovalLinkError.otherServer {
            throw CLIFailure.failed(
                language.pick(
                    "此二维码不属于 \(issuerURL.absoluteString)，已拒绝（不会发送任何信息）",
                    "This code is not from \(issuerURL.absoluteString): refused, nothing was sent."))
        } catch {
            throw CLIFailure.failed(language.pick("这不是登录二维码的链接", "This is not a sign-in code's URL."))
        }
    }
}
