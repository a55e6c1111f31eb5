// swift-tools-version:6.2
// Issue 21 step 3: a throw-away benchmark server, latchd's hot path (`GET /health`, `GET /v1/me`) on
// Hummingbird 2, measured by scripts/bench/go_compare.sh beside latchd and the Go server. Its own package,
// so latchd's Package.swift never resolves Hummingbird. Build: `swift build -c release` in this folder. It is a
// folder below scripts/bench/hummingbird because a root package named `hummingbird` (its folder's name) would
// clash with the dependency of that identity (SwiftPM: product 'Hummingbird' not found).
import PackageDescription

let package = Package(
    name: "HummingbirdBench",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/vapor/sqlite-nio", exact: "1.13.2"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        // Names header fields (HTTPField.Name); already resolved through Hummingbird.
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
    ],
    targets: [
        .executableTarget(
            name: "hbserver",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        )
    ],
    swiftLanguageModes: [.v5]
)
