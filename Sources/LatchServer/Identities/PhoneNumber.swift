import Foundation

/// A phone number in E.164 form: `+`, a country code not starting with 0, 8 to 15 digits in all.
///
///     PhoneNumber(" +8613800138000 ")?.value  // "+8613800138000"
///     PhoneNumber("13800138000")               // nil: no country code
struct PhoneNumber: Sendable, Hashable {
    let value: String

    init?(_ raw: String) {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.utf8.dropFirst()
        guard trimmed.utf8.first == UInt8(ascii: "+"), (8...15).contains(digits.count),
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            digits.first != UInt8(ascii: "0")
        else { return nil }
        value = trimmed
    }
}

extension Validate {
    static func phone(_ raw: String?, field: String = "phone") throws -> PhoneNumber {
        guard let raw else { throw LatchError.missing(field) }
        guard let phone = PhoneNumber(raw) else { throw LatchError.invalid(field, ["invalid_phone"]) }
        return phone
    }
}
