/// Why one import line is refused (issue 45 §1): a stable `reason` and a sentence without the line's
/// secrets. A refused line changes nothing.
struct UserImportRefusal: Error, Sendable, Equatable, Codable {
    let reason: String
    let detail: String

    static let invalidJSON = UserImportRefusal(
        reason: "invalid_json", detail: "the line is not a JSON object of the format")
    static let lineTooLong = UserImportRefusal(reason: "line_too_long", detail: "the line is over 1 MiB")
    static let noKey = UserImportRefusal(
        reason: "no_external_id_or_email", detail: "a line needs an external_id or an email to be found again")
    static func invalid(_ field: String) -> UserImportRefusal {
        UserImportRefusal(reason: "invalid_\(field)", detail: "\(field) is not valid")
    }
    static func hash(_ field: String, _ refusal: ImportedHashRefusal) -> UserImportRefusal {
        UserImportRefusal(reason: refusal.reason, detail: "\(field): \(refusal.detail)")
    }
    static func conflict(_ what: String) -> UserImportRefusal {
        UserImportRefusal(
            reason: "\(what)_in_use", detail: "the \(what) belongs to another user; nothing is merged")
    }
}
