import FluentKit
import Foundation

/// The event types an SSF receiver asked for on its stream (`events_requested`, SSF 1.0 §8.1.1), kept in the
/// stream's `types` column beside the outbound types they map to, so the fan-out's `LIKE '%,type,%'` still
/// matches the types alone: each requested URI is one more comma-separated element, `ssf:` and the URI
/// percent-encoded (no `,`, `%` or `_` left, so it never matches a type's pattern). `EventTypeFilter` drops
/// those elements when it reads the column. A stream an operator made has none (`requested` answers nil).
struct SSFStreamEvents: Sendable {
    private static let marker = "ssf:"
    private static let kept = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ":/.-~"))

    /// The column's text for a receiver's stream that asked for `requested`.
    static func stored(requested: [String]) -> String {
        let kinds = SSFEventMapping.kinds(for: requested).map(\.rawValue).sorted()
        let uris = requested.map { marker + ($0.addingPercentEncoding(withAllowedCharacters: kept) ?? "") }
        return "," + (kinds + [marker] + uris).joined(separator: ",") + ","
    }

    /// The URIs kept in `stored`, in the order asked; nil when it holds none (an operator's stream).
    static func requested(inStored stored: String) -> [String]? {
        let elements = stored.split(separator: ",").map(String.init)
        guard elements.contains(marker) else { return nil }
        return elements.filter { $0.hasPrefix(marker) && $0 != marker }
            .compactMap { String($0.dropFirst(marker.count)).removingPercentEncoding }
    }

    /// What stream `id` asked for, as URIs; nil for a stream without a receiver's list.
    func requestedURIs(stream id: String, on database: any Database) async throws -> [String]? {
        try await EventStreamStore.types(ofStream: id, on: database).flatMap(Self.requested(inStored:))
    }

    /// What stream `id` asked for, as the types latchd sends; nil for a stream without a receiver's list.
    func requested(stream id: String, on database: any Database) async throws -> Set<SSFEventType>? {
        try await requestedURIs(stream: id, on: database).map { Set($0.compactMap(SSFEventType.init(rawValue:))) }
    }

    /// Records that stream `id` asks for `requested` (and so hears the outbound types they map to).
    func set(stream id: String, requested: [String], now: Double, on database: any Database) async throws {
        try await EventStreamStore.setTypes(Self.stored(requested: requested), ofStream: id, now: now, on: database)
    }
}
