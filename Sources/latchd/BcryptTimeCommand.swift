import ArgumentParser
import Foundation
import LatchServer

/// `latchd bcrypt-time`: how long one password check takes at `LATCH_BCRYPT_COST` on this machine, in
/// milliseconds with one decimal (to choose the cost; `scripts/bench/run.sh` reads it).
struct BcryptTimeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bcrypt-time",
        abstract: "Print how long one password check takes at LATCH_BCRYPT_COST on this machine, in milliseconds.",
        discussion: "Each sign-in costs one check: a core does about 1000 ÷ that many a second."
    )

    func run() throws {
        let config = try LatchConfig.forCommand()
        let milliseconds = try BcryptTiming.millisecondsPerCheck(cost: config.bcryptCost)
        print(String(format: "%.1f", milliseconds))
    }
}
