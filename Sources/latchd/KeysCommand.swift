import Foundation
import LatchServer
import Logging
import Vapor

/// `latchd keys list`, `latchd keys rotate` and `latchd keys retire KID`: the signing keys in the
/// database latchd's configuration names (the running instances pick a change up within seconds).
/// `retire` ends a key at once (a key that leaked): out of the JWKS, its tokens refused, also those an
/// instance had remembered; when it signs, a new key takes over first.
///
///     $ latchd keys list
///     KID               CREATED                ROLE       RETIRES
///     q2V…              2026-01-01T00:00:00Z   verifying  2026-04-01T02:05:00Z
///     9fX…              2026-04-01T00:00:00Z   signing    -
enum KeysCommand {
    static let usage = "usage: latchd keys list | latchd keys rotate | latchd keys retire KID"

    /// Runs `arguments` (after `keys`); returns the exit status.
    static func run(_ arguments: [String], config: LatchConfig) async -> Int32 {
        guard let action = arguments.first,
            (["list", "rotate"].contains(action) && arguments.count == 1)
                || (action == "retire" && arguments.count == 2)
        else {
            FileHandle.standardError.write(Data("\(usage)\n".utf8))
            return 64
        }
        var config = config
        config.runsBackgroundTasks = false
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        let app: Application
        do {
            app = try await Application.make(
                .init(name: config.mode == .production ? "production" : "development", arguments: ["latchd"]))
        } catch {
            FileHandle.standardError.write(Data("latchd keys: \(error)\n".utf8))
            return 1
        }
        var status: Int32 = 0
        do {
            try await configure(app, config)
            if action == "rotate" {
                let kid = try await SigningKeyCommands.rotate(app)
                print("rotated: \(kid) signs new access tokens now (every instance within seconds)")
            }
            if action == "retire" {
                let kid = arguments[1]
                if let successor = try await SigningKeyCommands.retire(app, kid: kid) {
                    print("rotated: \(successor) signs new access tokens now")
                }
                print("retired: \(kid) no longer verifies; its tokens are refused (every instance within seconds)")
            }
            print(table(try await SigningKeyCommands.list(app)))
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("latchd: configuration error: \(error)\n".utf8))
            status = 2
        } catch {
            FileHandle.standardError.write(Data("latchd keys \(action) failed: \(String(describing: error))\n".utf8))
            status = 1
        }
        try? await app.asyncShutdown()
        return status
    }

    static func table(_ keys: [SigningKeyListing]) -> String {
        let format = ISO8601DateFormatter()
        var lines = ["KID                CREATED               ROLE       RETIRES"]
        for key in keys {
            let retires = key.retiresAt.map { format.string(from: $0) } ?? "-"
            lines.append(
                "\(key.kid.padding(toLength: 18, withPad: " ", startingAt: 0)) \(format.string(from: key.createdAt))  "
                    + "\(key.role.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(retires)")
        }
        return lines.joined(separator: "\n")
    }
}
