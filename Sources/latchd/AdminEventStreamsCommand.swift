import ArgumentParser
import Foundation
import LatchServer

/// `latchd admin event-streams …` (issue 42 §3): the operators' event streams, as the admin API's
/// `/v1/admin/event-streams` manages them. Output is JSON; a new webhook's secret is printed once.
struct AdminEventStreamsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "event-streams", abstract: "Manage the streams the app's backend hears security events on.",
        subcommands: [Add.self, List.self, Remove.self, RotateSecret.self, Replay.self, Deliveries.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a stream; a webhook's signing secret (whsec_…) is printed once.")

        @Option(help: "webhook, ssf_push or ssf_poll.")
        var kind = "webhook"
        @Option(help: "The receiver's URL (https; none for ssf_poll).")
        var url: String?
        @Option(parsing: .upToNextOption, help: "Event types to send (default: all).")
        var types: [String] = []
        @Option(help: "The SETs' aud (SSF streams).")
        var audience: String?
        @Option(help: "A note for operators.")
        var description: String?

        func run() async throws {
            try await AdminConsole.run { admin in
                try AdminConsole.json(
                    await admin.addEventStream(
                        kind: kind, url: url, types: types, audience: audience, description: description))
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Every stream, with its backlog.")

        func run() async throws {
            try await AdminConsole.run { admin in try AdminConsole.json(await admin.listEventStreams()) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a stream and its undelivered events.")

        @Argument(help: "The stream's id (es_…).")
        var id: String

        func run() async throws {
            try await AdminConsole.run { admin in
                try await admin.removeEventStream(id)
                return "ok"
            }
        }
    }

    struct RotateSecret: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-secret",
            abstract: "Give a webhook stream a new secret (printed once); the old one stays valid for 24 hours.")

        @Argument(help: "The stream's id (es_…).")
        var id: String

        func run() async throws {
            try await AdminConsole.run { admin in try AdminConsole.json(await admin.rotateEventStreamSecret(id)) }
        }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Queue the stream's events again from an event id or a time (delivered and failed ones too).")

        @Argument(help: "The stream's id (es_…).")
        var id: String
        @Option(help: "The first event to send again (evt_…).")
        var fromEvent: String?
        @Option(help: "Send again every event since this time (ISO 8601, e.g. 2026-12-01T10:00:00Z).")
        var since: String?

        func run() async throws {
            var start: Date?
            if let since {
                guard let parsed = ISO8601DateFormatter().date(from: since) else {
                    throw LatchdFailure.usage("--since must be an ISO 8601 time such as 2026-12-01T10:00:00Z")
                }
                start = parsed
            }
            try await AdminConsole.run { [start] admin in
                try AdminConsole.json(await admin.replayEventStream(id, fromEvent: fromEvent, since: start))
            }
        }
    }

    struct Deliveries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The stream's delivery log, newest first: attempts, last status, last error.")

        @Argument(help: "The stream's id (es_…).")
        var id: String
        @Option(help: "Only pending, delivered or failed deliveries.")
        var state: String?
        @Option(help: "At most this many (1–100).")
        var limit = 20

        func run() async throws {
            try await AdminConsole.run { admin in
                try AdminConsole.json(
                    await admin.eventStreamDeliveries(id, state: state, limit: min(max(limit, 1), 100)))
            }
        }
    }
}
