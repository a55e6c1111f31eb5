/// What a client says about the device it signs in from (every grant may carry it).
public struct DeviceInfo: Codable, Sendable, Equatable {
    /// A stable installation id.
    public var id: String?
    /// A name the user recognises ("Alice's iPhone").
    public var name: String?
    /// The hardware model ("iPhone16,1").
    public var model: String?
    /// The platform ("iOS", "macOS", "Linux").
    public var platform: String?

    public init(id: String? = nil, name: String? = nil, model: String? = nil, platform: String? = nil) {
        self.id = id
        self.name = name
        self.model = model
        self.platform = platform
    }
}
