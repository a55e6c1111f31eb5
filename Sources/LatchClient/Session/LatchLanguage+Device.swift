import Foundation
import LatchCore

extension LatchLanguage {
    /// The language this device's user reads: the first of `Locale.preferredLanguages` that Latch
    /// speaks (any Chinese → zh-Hans), else English. What ``LatchClient`` uses unless told otherwise.
    public static var device: LatchLanguage { LatchLanguage(preferredLanguages: Locale.preferredLanguages) }
}
