// Issue 21 step 3: latchd's hot path on Hummingbird 2, a throw-away benchmark server (not the product).
//
// Like scripts/bench/goserver it reads latchd's SQLite file, signs ES256 access tokens of its own for the
// first -count users into -tokens (inserting one live `sessions` row per token, as latchd does at sign-in,
// so the token's `sid` names a live session), then serves
//   GET /health  → {"status":"ok"}
//   GET /v1/me   (Bearer) → the same JSON user bytes as latchd's /v1/me,
// with latchd's verified-token cache, session-status cache and profile cache (5 s) and the headers
// latchd's middlewares add. Hummingbird's defaults: its singleton NIO event loop group, no request log.
//
// Build: cd scripts/bench/hummingbird/hbserver && swift build -c release
// Run:   .build/release/hbserver -db latch.sqlite -addr 127.0.0.1:18082 -tokens tokens.txt -count 1
import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import SQLiteNIO

@main
struct HBServer {
    static func main() async {
        let options: Options
        do {
            options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            fail("\(error)", status: 2)
        }
        if options.nioExecutor {
            // Issue 21 step 2's lever, for a second reading; must come before other async work.
            let installed = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
            print("hbserver: NIO as the global executor: \(installed)")
        }
        do {
            try await run(options)
        } catch {
            fail("\(error)", status: 1)
        }
    }

    static func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data("hbserver: \(message)\n".utf8))
        exit(status)
    }

    static func run(_ options: Options) async throws {
        guard FileManager.default.fileExists(atPath: options.db) else {
            throw Options.Failure(description: "no SQLite file at \(options.db)")
        }
        let db = try await SQLiteConnection.open(storage: .file(path: options.db))
        let tokens = AccessTokens(issuer: options.issuer)
        do {
            if !options.tokens.isEmpty {
                let written = try await writeTokens(options, tokens: tokens, db: db)
                print("hbserver: \(written) tokens in \(options.tokens)")
            }
            let routes = LatchRoutes(
                tokens: tokens, sessions: SessionStatusCache(db: db), profiles: ProfileCache(db: db))
            let router = Router()
            // latchd's order: security headers outermost, then no-store, then the JSON body rule.
            router.addMiddleware {
                SecurityHeadersMiddleware()
                NoStoreMiddleware()
                JSONBodyMiddleware()
            }
            router.get("health") { _, _ in LatchRoutes.health() }
            router.get("v1/me") { request, _ in try await routes.me(request) }
            let app = Application(
                router: router,
                configuration: .init(address: .hostname(options.host, port: options.port)))
            try await app.runService()
        } catch {
            try? await db.close()
            throw error
        }
        try await db.close()
    }

    /// One session row and one token per user, for the first `count` users (the Go server's
    /// `SELECT id FROM users LIMIT ?`); the file gets one token a line. The session row is what
    /// latchd's `RefreshTokenRotation.start` inserts, with a placeholder secret: no refresh token
    /// exists for it, so it can only be used through the access token.
    static func writeTokens(_ options: Options, tokens: AccessTokens, db: SQLiteConnection) async throws -> Int {
        let users = try await db.query("SELECT id FROM users LIMIT \(options.count)", [])
        let now = Date()
        let seconds = now.timeIntervalSince1970
        var lines: [String] = []
        for user in users {
            guard let id = user.column("id")?.string else { continue }
            let sessionID = UUID()
            _ = try await db.query(
                """
                INSERT INTO sessions (id, user_id, sealed_secret, counter, refresh_expires_at, created_at,
                    signed_in_at, last_active_at, device_id, device_name)
                VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(sessionID.uuidString), .text(id), .text("hummingbird-bench: no refresh token"),
                    .float(seconds + 30 * 86_400), .float(seconds), .float(seconds), .float(seconds),
                    .text("hummingbird-bench"), .text("Hummingbird benchmark")
                ])
            lines.append(
                try tokens.issue(userID: id.lowercased(), sessionID: sessionID.uuidString.lowercased(), now: now))
        }
        let text = lines.joined(separator: "\n") + "\n"
        guard
            FileManager.default.createFile(
                atPath: options.tokens, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600])
        else { throw Options.Failure(description: "cannot write \(options.tokens)") }
        return lines.count
    }
}
