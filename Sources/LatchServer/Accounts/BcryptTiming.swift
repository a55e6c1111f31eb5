import Foundation
import HummingbirdBcrypt

/// Measures one password check (bcrypt at `cost`, as latchd runs it) on this machine.
public enum BcryptTiming {
    /// The mean time of `rounds` checks, in milliseconds.
    public static func millisecondsPerCheck(cost: Int, rounds: Int = 5) throws -> Double {
        let input = PasswordHasher.prehash("Bench-Password-1")
        let hash = Bcrypt.hash(input, cost: UInt8(cost))
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for _ in 0..<rounds { _ = Bcrypt.verify(input, hash: hash) }
        }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds * 1000 / Double(rounds)
    }
}
