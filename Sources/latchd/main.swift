import Foundation
import LatchServer
import Logging
import Vapor

// latchd: reads LATCH_* configuration, migrates, serves. Bad configuration prints one line
// naming the variable and exits with status 2. `latchd bcrypt-time` prints how long one password
// check takes at LATCH_BCRYPT_COST on this machine (to choose the cost; the benchmarks use it).
// `latchd admin …` runs an operator's action on the configured database (AdminCommand.swift).
// `latchd keys list|rotate` lists or rotates the signing keys (KeysCommand).

func fail(_ error: ConfigurationError) -> Never {
    FileHandle.standardError.write(Data("latchd: configuration error: \(error)\n".utf8))
    exit(2)
}

let config: LatchConfig
do {
    config = try LatchConfig.fromEnvironment()
} catch let error as ConfigurationError {
    fail(error)
}

if CommandLine.arguments.dropFirst().first == "admin" {
    exit(await AdminCommand.run(Array(CommandLine.arguments.dropFirst(2)), config: config))
}

if CommandLine.arguments.dropFirst().first == "bcrypt-time" {
    let milliseconds = try BcryptTiming.millisecondsPerCheck(cost: config.bcryptCost)
    print(String(format: "%.1f", milliseconds))
    exit(0)
}

if CommandLine.arguments.dropFirst().first == "keys" {
    exit(await KeysCommand.run(Array(CommandLine.arguments.dropFirst(2)), config: config))
}

var environment = Environment(
    name: config.mode == .production ? "production" : "development", arguments: CommandLine.arguments)
try LatchLogging.bootstrap(config.logFormat, from: &environment)
let app = try await Application.make(environment)
do {
    try await configure(app, config)
    try await app.execute()
    await app.stopServingGracefully() // SIGTERM: in-flight requests finish before the pools stop
    try await app.asyncShutdown()
} catch let error as ConfigurationError {
    try? await app.asyncShutdown()
    fail(error)
} catch {
    app.logger.critical("latchd stopped: \(String(describing: error))")
    try? await app.asyncShutdown()
    exit(1)
}
