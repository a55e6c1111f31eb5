import Foundation
import LatchCore

/// One line of the device list (seed 004 §6.2): "iPhone 15 Pro (当前设备)" over "最后活动: 刚刚"
/// ("iPhone 15 Pro (This Device)" over "Last active: just now").
public struct SignedInDeviceRow: Sendable, Equatable, Identifiable {
    /// The session's id.
    public var id: String
    /// The device's name, e.g. "iPhone 15 Pro".
    public var name: String
    /// Whether this is the device showing the list.
    public var isCurrent: Bool
    /// "iPhone 15 Pro (当前设备)" / "iPhone 15 Pro (This Device)", or just the name.
    public var title: String
    /// "最后活动: 2 小时前" / "Last active: 2 hours ago".
    public var lastActive: String
    /// The model and address, when known: "iPhone16,1 · 203.0.113.7".
    public var detail: String?
    /// What VoiceOver reads for the whole row.
    public var accessibilityLabel: String
    /// Whether the row offers "退出" / "Sign Out" (every device but this one: this one signs out from the
    /// app's own button).
    public var canSignOut: Bool

    /// The row for `session`, its activity measured at `now`.
    public init(_ session: SessionInfo, now: Date, strings: SignedInDevicesStrings) {
        let name =
            [session.deviceName, session.deviceModel, session.platform]
            .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }
            .first { !$0.isEmpty } ?? strings.unknownDevice
        self.id = session.id
        self.name = name
        self.isCurrent = session.current
        self.title = session.current ? "\(name) \(strings.currentDevice)" : name
        self.lastActive = strings.lastActive(now.timeIntervalSince(session.lastActiveAt))
        let parts = [session.deviceModel == name ? nil : session.deviceModel, session.ip].compactMap { $0 }.filter {
            !$0.isEmpty
        }
        self.detail = parts.isEmpty ? nil : parts.joined(separator: " · ")
        self.accessibilityLabel = [title, lastActive, detail].compactMap { $0 }.joined(separator: ", ")
        self.canSignOut = !session.current
    }
}
