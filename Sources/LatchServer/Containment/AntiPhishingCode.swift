import Fluent
import Foundation
import LatchCore
import SQLKit

/// The anti-phishing code (issue 19 §4): 4–20 visible characters the user chooses, shown in a fixed,
/// labelled place of every mail latchd sends to the user's address (`MailTemplates.Mail`), so a mail
/// without it is not from latchd. A mail to an address without an account (a registration code) never
/// shows one.
enum AntiPhishingCode {
    static let lengths = 4...20
    /// The step-up action that sets or removes the code without a recent sign-in.
    static let action = "set_anti_phishing_code"

    /// The code of the account whose address is `address`, if it chose one.
    static func of(address: String, on database: any Database) async throws -> String? {
        try await database.sql.raw(
            """
            SELECT anti_phishing_code FROM users WHERE email = \(bind: address) AND deleted_at IS NULL
            """
        ).first()?.decode(column: "anti_phishing_code", as: String?.self)
    }

    /// `code` when it is 4–20 visible characters (no spaces, line breaks, control or invisible
    /// formatting characters); else 422 VALIDATION_FAILED `code` (`too_short`, `too_long`, `invisible_characters`).
    static func validated(_ code: String) throws -> String {
        guard code.count >= lengths.lowerBound else { throw LatchError.invalid("code", ["too_short"]) }
        guard code.count <= lengths.upperBound else { throw LatchError.invalid("code", ["too_long"]) }
        let invisible = code.unicodeScalars.contains { scalar in
            scalar.properties.isWhitespace
                || [.control, .format, .unassigned, .surrogate, .privateUse, .lineSeparator, .paragraphSeparator]
                    .contains(scalar.properties.generalCategory)
        }
        guard !invisible else { throw LatchError.invalid("code", ["invisible_characters"]) }
        return code
    }
}
