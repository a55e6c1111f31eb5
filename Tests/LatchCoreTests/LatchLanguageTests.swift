import LatchCore
import Testing

/// C11: error messages come in Simplified Chinese and English; the language follows Accept-Language.
@Suite("C11 language from Accept-Language")
struct LatchLanguageTests {
    @Test func C11_missingHeaderMeansEnglish() {
        let language = LatchLanguage(acceptLanguage: nil)

        #expect(language == .en)
    }

    @Test func C11_emptyHeaderMeansEnglish() {
        let language = LatchLanguage(acceptLanguage: "")

        #expect(language == .en)
    }

    @Test func C11_chineseFirstPicksSimplifiedChinese() {
        let language = LatchLanguage(acceptLanguage: "zh-CN,zh;q=0.9,en;q=0.8")

        #expect(language == .zhHans)
    }

    @Test func C11_englishPreferredOverLowerRankedChinese() {
        let language = LatchLanguage(acceptLanguage: "en-US,zh;q=0.5")

        #expect(language == .en)
    }

    @Test func C11_unsupportedFirstFallsToChineseEvenAtLowQuality() {
        let language = LatchLanguage(acceptLanguage: "fr, zh;q=0.1")

        #expect(language == .zhHans)
    }

    @Test func C11_higherQualityWinsRegardlessOfOrder() {
        let language = LatchLanguage(acceptLanguage: "en;q=0.3, zh-TW;q=0.7")

        #expect(language == .zhHans)
    }

    @Test func C11_qualityZeroIsIgnored() {
        let onlyRefused = LatchLanguage(acceptLanguage: "zh;q=0")
        let refusedThenEnglish = LatchLanguage(acceptLanguage: "zh-CN;q=0, en;q=0.2")
        let unsupportedThenRefused = LatchLanguage(acceptLanguage: "fr, zh;q=0.0")

        #expect(onlyRefused == .en)
        #expect(refusedThenEnglish == .en)
        #expect(unsupportedThenRefused == .en)
    }

    @Test func C11_unsupportedOnlyMeansEnglish() {
        let language = LatchLanguage(acceptLanguage: "fr-FR, de;q=0.9, *;q=0.5")

        #expect(language == .en)
    }

    @Test func C11_tagsAreCaseInsensitive() {
        let language = LatchLanguage(acceptLanguage: "ZH-Hans")

        #expect(language == .zhHans)
    }

    @Test func C11_rawValuesAreLanguageTags() {
        let tags = LatchLanguage.allCases.map(\.rawValue)

        #expect(Set(tags) == ["zh-Hans", "en"])
    }
}
