import Foundation
import Vapor

/// Measures one password check (bcrypt at `cost`, as latchd runs it) on this machine.
public enum BcryptTiming {
    /// The mean time of `rounds` checks, in milliseconds.
    public static func millisecondsPerCheck(cost: Int, rounds: Int = 5) throws -> Double {
        let input = PasswordHasher.prehash("Bench-Password-1")
        let hash = try Bcrypt.hash(input, cost: cost)
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            for _ in 0..<rounds { _ = try Bcrypt.verify(input, created: hash) }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds * 1000 / Double(rounds)
    }
}
