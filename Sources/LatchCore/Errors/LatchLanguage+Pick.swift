extension LatchLanguage {
    /// The text of this language out of one text per language, written once for every strings type
    /// of the SDK and the CLI (issue 22 §2).
    ///
    ///     language.pick("安全设置", "Security")  // "安全设置" in .zhHans, "Security" in .en
    public func pick(_ zhHans: String, _ en: String) -> String {
        switch self {
        case .zhHans: zhHans
        case .en: en
        }
    }
}
