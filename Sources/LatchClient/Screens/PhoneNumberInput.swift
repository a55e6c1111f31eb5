/// A typed phone number as the API wants it (E.164). An 11-digit mainland China mobile number
/// (`1` then 10 digits) gets `+86`; spaces and hyphens are ignored.
///
///     PhoneNumberInput.e164("138 0013 8000")  // "+8613800138000"
///     PhoneNumberInput.e164("+44 20 7946 0958") // "+442079460958"
public enum PhoneNumberInput {
    /// The E.164 form of `typed`, or `nil` when it is not a number.
    public static func e164(_ typed: String) -> String? {
        let compact = typed.filter { $0 != " " && $0 != "-" }
        let digits = compact.hasPrefix("+") ? compact.dropFirst() : Substring(compact)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isWholeNumber }) else { return nil }
        if compact.hasPrefix("+") {
            guard digits.first != "0", (8...15).contains(digits.count) else { return nil }
            return "+" + digits
        }
        guard digits.count == 11, digits.first == "1" else { return nil }
        return "+86" + digits
    }
}
