import Foundation

/// A mark that this installation of the app has run, kept where uninstalling the app deletes it (the
/// app's `UserDefaults`) — unlike the Keychain, which survives a reinstall. `ReinstallReset` compares
/// the two.
public protocol InstallationMarker: Sendable {
    /// Whether this installation has set the mark.
    func isSet() async -> Bool
    /// Sets the mark.
    func set() async
}

/// The mark as a `UserDefaults` boolean (deleted with the app).
public struct UserDefaultsInstallationMarker: InstallationMarker {
    /// The defaults key.
    public static let defaultKey = "latch.installed"

    private let suiteName: String?
    private let key: String

    /// - Parameters:
    ///   - suiteName: a `UserDefaults` suite (`nil`: the app's standard defaults).
    ///   - key: the defaults key.
    public init(suiteName: String? = nil, key: String = UserDefaultsInstallationMarker.defaultKey) {
        self.suiteName = suiteName
        self.key = key
    }

    public func isSet() async -> Bool { defaults.bool(forKey: key) }

    public func set() async { defaults.set(true, forKey: key) }

    private var defaults: UserDefaults { suiteName.flatMap(UserDefaults.init(suiteName:)) ?? .standard }
}

/// The mark in memory, for tests and previews: a new instance is a fresh installation.
public actor InMemoryInstallationMarker: InstallationMarker {
    private var marked: Bool

    public init(isSet: Bool = false) { marked = isSet }

    public func isSet() -> Bool { marked }

    public func set() { marked = true }
}
