import Foundation

/// One signed-in device, as `GET /v1/sessions` lists it.
public struct SessionInfo: Codable, Sendable, Equatable {
    public var id: String
    public var deviceName: String?
    public var deviceModel: String?
    public var platform: String?
    public var ip: String?
    public var createdAt: Date
    public var lastActiveAt: Date
    /// Whether this is the session that asked.
    public var current: Bool
    /// Whether the session is bound to a DPoP key (issue 31): its tokens work only with that key's proofs.
    public var bound: Bool

    public init(
        id: String, deviceName: String?, deviceModel: String?, platform: String?, ip: String?,
        createdAt: Date, lastActiveAt: Date, current: Bool, bound: Bool = false
    ) {
        self.id = id
        self.deviceName = deviceName
        self.deviceModel = deviceModel
        self.platform = platform
        self.ip = ip
        self.createdAt = createdAt
        self.lastActiveAt = lastActiveAt
        self.current = current
        self.bound = bound
    }

    enum CodingKeys: String, CodingKey {
        case id, platform, ip, current, bound
        case deviceName = "device_name"
        case deviceModel = "device_model"
        case createdAt = "created_at"
        case lastActiveAt = "last_active_at"
    }

    /// `bound` is read as false when absent (a latchd from before issue 31).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            deviceName: try container.decodeIfPresent(String.self, forKey: .deviceName),
            deviceModel: try container.decodeIfPresent(String.self, forKey: .deviceModel),
            platform: try container.decodeIfPresent(String.self, forKey: .platform),
            ip: try container.decodeIfPresent(String.self, forKey: .ip),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            lastActiveAt: try container.decode(Date.self, forKey: .lastActiveAt),
            current: try container.decode(Bool.self, forKey: .current),
            bound: try container.decodeIfPresent(Bool.self, forKey: .bound) ?? false)
    }
}
