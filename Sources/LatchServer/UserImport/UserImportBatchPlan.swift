import Foundation
import LatchCore

/// Which lines of a batch are written together, a few multi-row statements for all of them (issue 45's
/// million users in ten minutes), and which go one by one. A line is written together only when it is
/// certainly a new user: valid, its `external_id`, email, phone and identities unknown to the database, and
/// none of them shared with another line of the batch. Every other line (an update, an unchanged line, a
/// refusal, lines that share a key) goes one by one, in file order, with every check it has always had.
struct UserImportBatchPlan: Sendable, Equatable {
    /// Indexes of the lines written together.
    var together: [Int] = []
    /// Indexes of the lines written one by one, in order.
    var oneByOne: [Int] = []

    /// What the database already holds of a batch's keys.
    struct Known: Sendable, Equatable {
        var externalIDs: Set<String> = []
        var emails: Set<String> = []
        var identities: Set<UserImportRecord.ProvenIdentityKey> = []
    }

    /// The plan for `records` (nil: a line that did not validate) given what the database `known`.
    static func plan(_ records: [UserImportRecord?], known: Known) -> Self {
        var uses: [Key: Int] = [:]
        for record in records { for key in record.map(keys) ?? [] { uses[key, default: 0] += 1 } }
        var plan = Self()
        for (index, record) in records.enumerated() {
            guard let record else {
                plan.oneByOne.append(index)
                continue
            }
            let keys = keys(of: record)
            let isNew = keys.allSatisfy { key in
                switch key {
                case .externalID(let id): !known.externalIDs.contains(id)
                case .email(let email): !known.emails.contains(email)
                case .identity(let identity): !known.identities.contains(identity)
                }
            }
            if isNew, keys.allSatisfy({ uses[$0] == 1 }) {
                plan.together.append(index)
            } else {
                plan.oneByOne.append(index)
            }
        }
        return plan
    }

    /// A value that names one user: no two users may share it.
    enum Key: Hashable {
        case externalID(String)
        case email(String)
        case identity(UserImportRecord.ProvenIdentityKey)
    }

    /// The keys of `record`: its external id, email, phone (an identity) and identities.
    static func keys(of record: UserImportRecord) -> [Key] {
        var keys: [Key] = record.identityKeys.map(Key.identity)
        if let externalID = record.externalID { keys.append(.externalID(externalID)) }
        if let email = record.email?.value { keys.append(.email(email)) }
        return keys
    }
}
