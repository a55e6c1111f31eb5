import Foundation
import LatchServer
import LatchTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// A Prometheus text scrape, parsed into samples so tests can ask for one series by its labels.
struct PrometheusText {
    struct Sample {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    let text: String
    let samples: [Sample]

    init(_ text: String) {
        self.text = text
        samples = text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), let space = line.lastIndex(of: " "),
                let value = Double(line[line.index(after: space)...])
            else { return nil }
            let series = line[..<space]
            guard let brace = series.firstIndex(of: "{") else {
                return Sample(name: String(series), labels: [:], value: value)
            }
            var labels: [String: String] = [:]
            // Label values in these tests never hold `,` or `"`.
            for pair in series[series.index(after: brace)..<series.index(before: series.endIndex)].split(separator: ",")
            {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())
            }
            return Sample(name: String(series[..<brace]), labels: labels, value: value)
        }
    }

    /// The value of the one series `name` whose labels include `labels`; nil when there is none.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        let matching = samples.filter { sample in
            sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value }
        }
        return matching.count == 1 ? matching[0].value : nil
    }

    /// Every series `name` whose labels include `labels`.
    func all(_ name: String, _ labels: [String: String] = [:]) -> [Sample] {
        samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }
    }
}

extension TestServer {
    /// `GET /metrics` on the metrics listener.
    func scrape() async throws -> PrometheusText {
        let port = try #require(app.metricsPort, "the metrics listener runs")
        let response = try await TestHTTP.get("http://127.0.0.1:\(port)/metrics")
        try #require(response.status == .ok, "scrape: \(response.status)")
        #expect(response.headers.first(name: "Content-Type")?.hasPrefix("text/plain") == true)
        return PrometheusText(response.body.map { String(buffer: $0) } ?? "")
    }
}
