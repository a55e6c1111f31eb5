/// The name of the app's own icon image, read from its Info.plist (seed 000 §2.2, §5.1, §8: the
/// verification card shows the app's icon): `VerificationSheet` shows it by default.
///
///     AppIconName.primary(in: Bundle.main.infoDictionary ?? [:])   // "AppIcon"
public enum AppIconName {
    /// The primary icon's name: `CFBundleIcons` → `CFBundlePrimaryIcon` → `CFBundleIconName`, else the
    /// last (largest) of its `CFBundleIconFiles`; else the top-level `CFBundleIconName` (asset catalogs,
    /// macOS) or `CFBundleIconFile`. `nil` when the app declares no icon.
    public static func primary(in info: [String: Any]) -> String? {
        if let icons = info["CFBundleIcons"] as? [String: Any],
            let primary = icons["CFBundlePrimaryIcon"] as? [String: Any]
        {
            if let name = nonEmpty(primary["CFBundleIconName"]) { return name }
            if let files = primary["CFBundleIconFiles"] as? [String], let last = files.last(where: { !$0.isEmpty }) {
                return last
            }
        }
        return nonEmpty(info["CFBundleIconName"]) ?? nonEmpty(info["CFBundleIconFile"])
    }

    private static func nonEmpty(_ value: Any?) -> String? {
        guard let text = value as? String, !text.isEmpty else { return nil }
        return text
    }
}
