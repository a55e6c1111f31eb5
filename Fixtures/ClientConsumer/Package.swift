// swift-tools-version:6.2
import PackageDescription

// An app's view of Latch: it adds the package for `LatchClient` only, with no traits, so none of the
// server's dependencies (Vapor, Fluent, SQLite, PostgreSQL, NIO, NIOSSL, JWTKit) is resolved or built.
// `scripts/ci/client-consumer.sh` places the repository beside this folder as `latch` and checks it.
let package = Package(
    name: "ClientConsumer",
    platforms: [.macOS(.v15), .iOS(.v17)],
    dependencies: [.package(path: "../latch", traits: [])],
    targets: [
        .executableTarget(name: "ClientConsumer", dependencies: [.product(name: "LatchClient", package: "latch")])
    ]
)
