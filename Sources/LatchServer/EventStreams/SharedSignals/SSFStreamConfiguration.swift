/// A stream as SSF 1.0 §8.1.1 shows it to its receiver: never its `authorization_header`.
struct SSFStreamConfiguration: Codable, Sendable, Equatable {
    struct Delivery: Codable, Sendable, Equatable {
        let method: String
        let endpointUrl: String?

        enum CodingKeys: String, CodingKey {
            case method
            case endpointUrl = "endpoint_url"
        }
    }

    let streamId: String
    let iss: String
    let aud: String
    let eventsSupported: [String]
    let eventsRequested: [String]
    let eventsDelivered: [String]
    let delivery: Delivery
    let description: String?

    enum CodingKeys: String, CodingKey {
        case iss, aud, delivery, description
        case streamId = "stream_id"
        case eventsSupported = "events_supported"
        case eventsRequested = "events_requested"
        case eventsDelivered = "events_delivered"
    }

    init(_ stream: EventStream, requested: [String], issuer: String) {
        let supported = SSFEventMapping.supported.map(\.rawValue)
        streamId = stream.id
        iss = issuer
        aud = stream.audience ?? ""
        eventsSupported = supported
        eventsRequested = requested
        eventsDelivered = supported.filter(requested.contains)
        delivery =
            stream.kind == .ssfPoll
            ? Delivery(
                method: SSFTransmitterConfiguration.pollMethod,
                endpointUrl: SSFTransmitterConfiguration.pollEndpoint(issuer: issuer, stream: stream.id))
            : Delivery(method: SSFTransmitterConfiguration.pushMethod, endpointUrl: stream.url)
        description = stream.description
    }
}

/// What a receiver sends to create, update or replace a stream (SSF 1.0 §8.1.1.1–§8.1.1.4): the
/// receiver-supplied properties, and `stream_id` to name the stream. Transmitter-supplied ones it may
/// repeat (`iss`, `aud`) must match.
struct SSFStreamRequest: Decodable, Sendable {
    struct Delivery: Decodable, Sendable {
        let method: String?
        let endpointUrl: String?
        let authorizationHeader: String?

        enum CodingKeys: String, CodingKey {
            case method
            case endpointUrl = "endpoint_url"
            case authorizationHeader = "authorization_header"
        }
    }

    let streamId: String?
    let iss: String?
    let aud: Audience?
    let eventsRequested: [String]?
    let delivery: Delivery?
    let description: String?

    enum CodingKeys: String, CodingKey {
        case iss, aud, delivery, description
        case streamId = "stream_id"
        case eventsRequested = "events_requested"
    }

    /// `aud` as a string or an array of strings.
    struct Audience: Decodable, Sendable {
        let values: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                values = [one]
            } else {
                values = try container.decode([String].self)
            }
        }
    }
}

/// A stream's status (SSF 1.0 §8.1.2).
struct SSFStreamStatus: Codable, Sendable, Equatable {
    let streamId: String
    let status: String
    let reason: String?

    enum CodingKeys: String, CodingKey {
        case status, reason
        case streamId = "stream_id"
    }
}

/// `POST /ssf/verify`'s body (SSF 1.0 §8.1.4).
struct SSFVerificationRequest: Decodable, Sendable {
    let streamId: String
    let state: String?

    enum CodingKeys: String, CodingKey {
        case state
        case streamId = "stream_id"
    }
}

/// A poll (RFC 8936 §2.4): the SETs acknowledged and refused since the last one, how many to answer.
struct SSFPollRequest: Decodable, Sendable {
    struct SETError: Decodable, Sendable {
        let err: String
        let description: String?
    }

    var ack: [String]?
    var setErrs: [String: SETError]?
    var maxEvents: Int?
    var returnImmediately: Bool?
}

/// A poll's answer (RFC 8936 §2.5): the SETs by `jti`, and whether more are waiting.
struct SSFPollResponse: Codable, Sendable, Equatable {
    let sets: [String: String]
    let moreAvailable: Bool
}
