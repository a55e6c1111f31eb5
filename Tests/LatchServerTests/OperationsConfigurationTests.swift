import Foundation
import Logging
import Synchronization
import Testing

@testable import LatchServer

/// Issue 12 §3's settings: `LATCH_METRICS_PORT`, `LATCH_METRICS_HOST`, `LATCH_LOG_FORMAT`,
/// `LATCH_SHUTDOWN_GRACE_SECONDS`; a bad value names its variable.
@Suite("Operations configuration (issue 12 §3)")
struct OperationsConfigurationTests {
    static let key = Data(repeating: 1, count: 32).base64EncodedString()

    func config(_ extra: [String: String]) throws -> LatchConfig {
        try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": Self.key].merging(extra) { $1 })
    }

    @Test("test_12_operationsDefaults: metrics off on loopback, text logs, 10 s of grace")
    func test_12_operationsDefaults() throws {
        let config = try config([:])
        #expect(config.metricsPort == nil && config.metricsHost == "127.0.0.1")
        #expect(config.logFormat == .text && config.shutdownGraceSeconds == 10)
    }

    @Test("test_12_operationsSettingsAreRead")
    func test_12_operationsSettingsAreRead() throws {
        let config = try config([
            "LATCH_METRICS_PORT": "9464", "LATCH_METRICS_HOST": "0.0.0.0", "LATCH_LOG_FORMAT": "json",
            "LATCH_SHUTDOWN_GRACE_SECONDS": "30"
        ])
        #expect(config.metricsPort == 9464 && config.metricsHost == "0.0.0.0")
        #expect(config.logFormat == .json && config.shutdownGraceSeconds == 30)
    }

    @Test(
        "test_12_badOperationsSettingNamesItsVariable",
        arguments: [
            ("LATCH_METRICS_PORT", "metrics"), ("LATCH_METRICS_PORT", "0"), ("LATCH_METRICS_PORT", "70000"),
            ("LATCH_METRICS_PORT", "8080"),
            ("LATCH_LOG_FORMAT", "xml"), ("LATCH_SHUTDOWN_GRACE_SECONDS", "-1"),
            ("LATCH_SHUTDOWN_GRACE_SECONDS", "soon"),
            ("LATCH_METRICS_HOST", "0.0.0.0")
        ])
    func test_12_badOperationsSettingNamesItsVariable(variable: String, value: String) throws {
        #expect {
            try config([variable: value])
        } throws: { error in
            (error as? ConfigurationError)?.variable == variable
        }
    }
}

/// Issue 12 §3: `LATCH_LOG_FORMAT=json` writes one JSON object per line.
@Suite("JSON log lines (issue 12 §3)")
struct JSONLogTests {
    @Test("test_12_jsonLogLineCarriesTimestampLevelLabelMessageAndFlattenedMetadata")
    func test_12_jsonLogLineCarriesTimestampLevelLabelMessageAndFlattenedMetadata() throws {
        let lines = LinesWritten()
        var logger = Logger(label: "latch.test") { JSONLogHandler(label: $0, level: .info, write: lines.append) }
        logger[metadataKey: "request-id"] = "4C1D\r\n{\"level\":\"critical\"}"
        logger.info("GET /v1/me\nforged", metadata: ["status": "200", "message": "mine", "nested": ["a": "1"]])
        logger.debug("not at info")

        let written = lines.all
        try #require(written.count == 1, "one line, nothing below the level")
        #expect(!written[0].contains("\n") && !written[0].contains("\r"), "one entry, one line")
        let object = try JSONDecoder().decode(JSONLogLine.self, from: Data(written[0].utf8))
        #expect(object.level == "info")
        #expect(object.label == "latch.test")
        #expect(object.message == "GET /v1/me\nforged")
        #expect(object.status == "200")
        #expect(object.metadata_message == "mine", "metadata never hides the message")
        #expect(object.nested?["a"] == "1")
        #expect(object.request_id == "4C1D%0D%0A{\"level\":\"critical\"}", "escaped like the text log")
        let timestamp = try #require(object.timestamp)
        #expect(
            try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(timestamp).timeIntervalSinceNow
                .magnitude < 60)
    }
}

/// One line of the JSON log, as far as the tests read it.
private struct JSONLogLine: Decodable {
    var level: String?
    var label: String?
    var message: String?
    var status: String?
    var metadata_message: String?
    var nested: [String: String]?
    var request_id: String?
    var timestamp: String?
}
