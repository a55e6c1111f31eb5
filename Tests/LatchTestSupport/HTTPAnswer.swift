import Foundation
import LatchCore

/// An HTTP answer a test got: its status and body bytes, with the readings every test needs. Tests
/// read error answers through `errorBody` (LatchCore's wire type `APIErrorBody`, the one the SDK
/// decodes), not through `json["…"] as? Int`: a renamed or mistyped detail then fails to decode or to
/// compile instead of silently reading `nil`.
public protocol HTTPAnswerBody {
    /// The body as received.
    var data: Data { get }
}

extension HTTPAnswerBody {
    /// The body as UTF-8 text.
    public var text: String { String(decoding: data, as: UTF8.self) }

    /// The body as a JSON object (empty when it is not one), for success bodies without a wire type.
    public var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any]) ?? [:] }

    /// The body as a JSON array of objects (empty when it is not one).
    public var jsonArray: [[String: Any]] {
        ((try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]]) ?? []
    }

    /// The body decoded as `type`, dates in ISO 8601 with or without fractional seconds.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T { try TestJSON.decoder().decode(T.self, from: data) }

    /// The body as an error answer (`{"error": CODE, "message": TEXT, …details}`); `nil` when it is
    /// not one (no `error` and `message`, or a detail of the wrong type).
    public var errorBody: APIErrorBody? { try? decode(APIErrorBody.self) }

    /// The error code of an error answer.
    public var errorCode: String? { errorBody?.error }
}

/// What `LatchdProcess.send` got back.
public struct HTTPAnswer: HTTPAnswerBody, Sendable {
    public let status: Int
    public let data: Data

    public init(status: Int, data: Data) {
        self.status = status
        self.data = data
    }

    /// The body as a JSON object (empty when it is not one).
    public var body: [String: Any] { json }
}

/// JSON coders matching the API's: snake_case keys as each LatchCore type declares them, ISO 8601 dates.
public enum TestJSON {
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .latchISO8601
        return decoder
    }
}
