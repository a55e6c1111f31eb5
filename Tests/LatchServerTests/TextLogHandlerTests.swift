import Logging
import Synchronization
import Testing

@testable import LatchServer

/// Issue 44 §4: the text log keeps swift-log's `StreamLogHandler` lines, formatting the metadata only when a line
/// is written.
@Suite("Issue 44 §4: text log lines")
struct TextLogHandlerTests {
    /// The text written to it, shared by its copies.
    final class Written: TextOutputStream, Sendable {
        private let text = Mutex("")
        var all: String { text.withLock { $0 } }
        func write(_ string: String) { text.withLock { $0 += string } }
    }

    /// A line without its timestamp (the first word), which differs between two handlers' lines.
    static func withoutTimestamp(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }
    }

    @Test("44 §4: text lines are StreamLogHandler's, with the metadata as it was last set")
    func test_44_4_textLinesAreStreamLogHandlers() {
        let (text, stream) = (Written(), Written())
        var loggers = [
            Logger(label: "latch.test") {
                TextLogHandler(label: $0, level: .info, metadataProvider: nil, stream: text)
            },
            Logger(label: "latch.test") { StreamLogHandler(label: $0, stream: stream, metadataProvider: nil) }
        ]
        for index in loggers.indices {
            loggers[index][metadataKey: "hb.request.id"] = "0a1b"
            loggers[index][metadataKey: "request-id"] = "4C1D-\u{1b}[31m"
            loggers[index][metadataKey: "hb.request.id"] = nil
            loggers[index].info("GET /v1/me", metadata: ["status": "200"])
            loggers[index].notice("signed in")
            loggers[index].debug("not at info")
        }
        let lines = Self.withoutTimestamp(text.all)
        #expect(lines.count == 2)
        #expect(lines == Self.withoutTimestamp(stream.all))
        #expect(lines.last == "notice latch.test: request-id=4C1D-\u{1b}[31m [LatchServerTests] signed in")
    }
}
