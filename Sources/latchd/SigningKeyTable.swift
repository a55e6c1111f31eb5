import Foundation
import LatchServer

/// The table `latchd keys …` prints: one line per key, kid, creation time, role and retirement time.
enum SigningKeyTable {
    static func text(_ keys: [SigningKeyListing]) -> String {
        let format = ISO8601DateFormatter()
        var lines = ["KID                CREATED               ROLE       RETIRES"]
        for key in keys {
            let retires = key.retiresAt.map { format.string(from: $0) } ?? "-"
            lines.append(
                "\(key.kid.padding(toLength: 18, withPad: " ", startingAt: 0)) \(format.string(from: key.createdAt))  "
                    + "\(key.role.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)) \(retires)")
        }
        return lines.joined(separator: "\n")
    }
}
