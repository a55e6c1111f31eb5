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

    public init(
        id: String, deviceName: String?, deviceModel: String?, platform: String?, ip: String?,
        createdAt: Date, lastActiveAt: Date, current: Bool
    ) {
        self.id = id
        self.deviceName = deviceName
        self.deviceModel = deviceModel
        self.platform = platform
        self.ip = ip
        self.createdAt = createdAt
        self.lastActiveAt = lastActiveAt
        self.current = current
    }

    enum CodingKeys: String, CodingKey {
        case id, platform, ip, current
        case deviceName = "device_name"
        case deviceModel = "device_model"
        case createdAt = "created_at"
        case lastActiveAt = "last_active_at"
    }
}
