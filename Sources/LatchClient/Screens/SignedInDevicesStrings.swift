import Foundation
import LatchCore

/// Every text of the signed-in devices screen (seed 004 §6.2 多设备管理), in Simplified Chinese
/// (the seed's wording, exactly) and English.
///
///     SignedInDevicesStrings(.zhHans).lastActive(7200)  // "最后活动: 2 小时前" / "Last active: 2 hours ago"
public struct SignedInDevicesStrings: Sendable, Equatable {
    /// The language of every text.
    public let language: LatchLanguage

    public init(_ language: LatchLanguage) {
        self.language = language
    }

    /// "设备列表" / "Signed-In Devices".
    public var title: String { language.pick("设备列表", "Signed-In Devices") }
    /// "(当前设备)" / "(This Device)" after this device's name.
    public var currentDevice: String { language.pick("(当前设备)", "(This Device)") }
    /// "退出其他设备" / "Sign Out Other Devices".
    public var signOutOthers: String { language.pick("退出其他设备", "Sign Out Other Devices") }
    /// "退出单个设备" / "Sign Out a Device": the action's name (the row button's title is "退出" / "Sign Out").
    public var signOutOne: String { language.pick("退出单个设备", "Sign Out a Device") }
    /// "退出" / "Sign Out" on a row.
    public var signOutRow: String { language.pick("退出", "Sign Out") }
    /// What VoiceOver says for a row's button: "退出iPad Pro" / "Sign out iPad Pro".
    public func signOutRowLabel(_ deviceName: String) -> String {
        language.pick("退出\(deviceName)", "Sign out \(deviceName)")
    }
    /// The question before signing out every other device.
    public var confirmSignOutOthers: String {
        language.pick("确定退出其他所有设备吗？这些设备需要重新登录。", "Sign out every other device? They will need to sign in again.")
    }
    /// The question before signing out one device.
    public func confirmSignOut(_ deviceName: String) -> String {
        language.pick("确定退出\(deviceName)吗？", "Sign out \(deviceName)?")
    }
    /// "取消" / "Cancel" in the confirmation.
    public var cancel: String { language.pick("取消", "Cancel") }
    /// After signing out the others.
    public var signedOutOthers: String { language.pick("已退出其他设备", "Other devices are signed out.") }
    /// After signing out one.
    public func signedOut(_ deviceName: String) -> String {
        language.pick("已退出\(deviceName)", "\(deviceName) is signed out.")
    }
    /// Only this device is signed in.
    public var noOtherDevices: String { language.pick("没有其他已登录的设备", "No other device is signed in.") }
    /// A device that sent no name or model.
    public var unknownDevice: String { language.pick("未知设备", "Unknown device") }
    /// "正在加载…" / "Loading…".
    public var loading: String { language.pick("正在加载…", "Loading…") }
    /// "重试" / "Try Again" after a failed load.
    public var retry: String { language.pick("重试", "Try Again") }

    /// "最后活动: 刚刚" / "Last active: just now", "最后活动: 2 小时前" / "Last active: 2 hours ago", "最后活动: 1 天前" /
    /// "Last active: 1 day ago" for `seconds` since the last activity.
    public func lastActive(_ seconds: TimeInterval) -> String {
        language.pick("最后活动: ", "Last active: ") + ago(seconds)
    }

    /// "刚刚" / "just now", "5 分钟前" / "5 minutes ago", "2 小时前" / "2 hours ago", "1 天前" / "1 day ago".
    public func ago(_ seconds: TimeInterval) -> String {
        let elapsed = max(0, Int(seconds))
        switch elapsed {
        case ..<60:
            return language.pick("刚刚", "just now")
        case ..<3600:
            let minutes = elapsed / 60
            return language.pick("\(minutes) 分钟前", minutes == 1 ? "1 minute ago" : "\(minutes) minutes ago")
        case ..<86_400:
            let hours = elapsed / 3600
            return language.pick("\(hours) 小时前", hours == 1 ? "1 hour ago" : "\(hours) hours ago")
        default:
            let days = elapsed / 86_400
            return language.pick("\(days) 天前", days == 1 ? "1 day ago" : "\(days) days ago")
        }
    }
}
