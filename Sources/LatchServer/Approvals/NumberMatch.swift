import Foundation

/// Number matching (issue 43): the two digits the asking screen shows, and the three the phone offers,
/// one of them that number, in a random order.
struct NumberMatch: Sendable, Equatable {
    let number: String
    let choices: [String]

    /// A fresh number and its three choices.
    static func random() -> NumberMatch {
        let number = twoDigits()
        var choices: Set<String> = [number]
        while choices.count < 3 { choices.insert(twoDigits()) }
        return NumberMatch(number: number, choices: Array(choices).shuffled())
    }

    /// Two random digits, `00`–`99`.
    private static func twoDigits() -> String { String(format: "%02d", Int.random(in: 0...99)) }
}
