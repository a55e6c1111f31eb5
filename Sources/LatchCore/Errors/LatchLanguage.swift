import Foundation

/// The languages Latch speaks to people: Simplified Chinese (the seeds' wording) and English.
public enum LatchLanguage: String, Sendable, CaseIterable {
    case zhHans = "zh-Hans"
    case en

    /// Picks the best supported language from an HTTP `Accept-Language` value, honouring q-values.
    /// Any `zh` tag (zh, zh-CN, zh-Hans, zh-TW …) selects Simplified Chinese; anything else English.
    ///
    ///     LatchLanguage(acceptLanguage: "zh-CN,zh;q=0.9,en;q=0.8") // .zhHans
    public init(acceptLanguage header: String?) {
        guard let header, !header.isEmpty else {
            self = .en
            return
        }
        var best: (language: LatchLanguage, quality: Double)?
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first?.lowercased(), !tag.isEmpty else { continue }
            var quality = 1.0
            for parameter in pieces.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            let language: LatchLanguage? =
                tag == "zh" || tag.hasPrefix("zh-") ? .zhHans : (tag == "en" || tag.hasPrefix("en-") ? .en : nil)
            if let language, quality > 0, quality > (best?.quality ?? 0) {
                best = (language, quality)
            }
        }
        self = best?.language ?? .en
    }

    /// The first supported language of a device's preferred languages, most preferred first, as
    /// `Locale.preferredLanguages` gives them (`["zh-Hans-CN", "en-US"]`); English when none is
    /// supported. Any `zh` tag selects Simplified Chinese, as for `Accept-Language`.
    ///
    ///     LatchLanguage(preferredLanguages: ["fr-FR", "zh-Hant-TW", "en"]) // .zhHans
    public init(preferredLanguages: [String]) {
        for tag in preferredLanguages.map({ $0.lowercased() }) {
            if tag == "zh" || tag.hasPrefix("zh-") || tag.hasPrefix("zh_") {
                self = .zhHans
                return
            }
            if tag == "en" || tag.hasPrefix("en-") || tag.hasPrefix("en_") {
                self = .en
                return
            }
        }
        self = .en
    }
}
