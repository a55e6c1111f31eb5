// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Latch",
    // macOS 15: the server and the tests use Synchronization's Mutex; LatchClient itself needs only iOS 17.
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .library(name: "LatchCore", targets: ["LatchCore"]),
        .library(name: "LatchServer", targets: ["LatchServer"]),
        .library(name: "LatchClient", targets: ["LatchClient"]),
        // A backend's receiver of latchd's webhooks (issue 42 §4): verify and decode, with swift-crypto only.
        .library(name: "LatchEvents", targets: ["LatchEvents"]),
        .executable(name: "latchd", targets: ["latchd"]),
        .executable(name: "latch", targets: ["latch"])
    ],
    // The trait `Server` (on by default) holds every server dependency: `swift run latchd` and `swift test`
    // work as before, and an app that adds the package with `traits: []` for `LatchClient` resolves none
    // of the server's packages (`scripts/ci/client-consumer.sh` builds Fixtures/ClientConsumer and checks it).
    traits: [
        .trait(
            name: "Server",
            description: "latchd and LatchServer: Hummingbird, FluentKit, SQLite, PostgreSQL, NIO, JWTKit."),
        .default(enabledTraits: ["Server"])
    ],
    dependencies: [
        // The HTTP edge (issue 29 §2): router, request context, middleware, server, graceful shutdown.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // Imported directly (SQL statements, FluentKit, logging), so declared: CI builds with
        // --explicit-target-dependency-import-check error.
        .package(url: "https://github.com/vapor/fluent-kit", from: "1.57.0"),
        .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver", from: "2.14.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Tests only: the APNs stand-in speaks HTTP/2 (issue 43 §2); already resolved through async-http-client.
        .package(url: "https://github.com/apple/swift-nio-http2", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Calls to Apple, WeChat and an SMS gateway without the web framework (issue 29 §2).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Background work (delivery, digests, key reload, revocation listener) as services (issue 29 §2).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // bcrypt without the web framework (issue 29 §2): only its C core and Swift wrapper are built.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        // Tracing (issue 29 §2): spans through swift-distributed-tracing, exported over OTLP/HTTP by swift-otel
        // when OTEL_EXPORTER_OTLP_ENDPOINT is set (only the HTTP exporter is built, not gRPC).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        // Tests only: the test SMTP server's TLS certificate is made in code (X.509 with subjectAltNames),
        // so `swift test` needs no `openssl` command. Both were already resolved through jwt-kit.
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4")
    ],
    targets: [
        .target(
            name: "LatchCore",
            dependencies: [.product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Resources/common-passwords.txt")]
        ),
        .target(
            name: "LatchServer",
            dependencies: [
                "LatchCore",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                // HTTP1Channel's configuration (idle timeout, the Connection option handler).
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["Server"])),
                .product(name: "FluentKit", package: "fluent-kit", condition: .when(traits: ["Server"])),
                .product(name: "FluentSQL", package: "fluent-kit", condition: .when(traits: ["Server"])),
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(
                    name: "FluentSQLiteDriver", package: "fluent-sqlite-driver", condition: .when(traits: ["Server"])),
                .product(
                    name: "FluentPostgresDriver", package: "fluent-postgres-driver",
                    condition: .when(traits: ["Server"])),
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: ["Server"])),
                .product(name: "Crypto", package: "swift-crypto"),
                // RS256 passkeys (Windows Hello): RSA signature checks.
                .product(name: "_CryptoExtras", package: "swift-crypto", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
                // Metrics (issue 12 §3): series through swift-metrics' API into a Prometheus registry
                // that the app owns (no process-global bootstrap), served by a small NIO HTTP/1 listener.
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOFoundationCompat", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["Server"])),
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Server"])),
                // App Attest (issue 31 §2): the attestation's X.509 chain and its nonce extension.
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["Server"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["Server"])),
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                .product(
                    name: "HummingbirdBcrypt", package: "hummingbird-auth", condition: .when(traits: ["Server"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Server"]))
            ],
            resources: [.copy("OpenAPI/openapi.json"), .copy("AccountPage/Static")]
        ),
        .target(
            name: "LatchClient",
            dependencies: ["LatchCore", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("PrivacyInfo.xcprivacy")]
        ),
        // Latch's webhooks for a Swift backend (issue 42 §4): Standard Webhooks verification and the typed
        // event. Needs no trait: an app that takes no server package still gets it.
        .target(name: "LatchEvents", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .executableTarget(
            name: "latchd",
            dependencies: [
                "LatchServer", "LatchCore",
                // `latchd events-receiver` verifies what it receives as a backend would.
                "LatchEvents",
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                // Swift concurrency on NIO's event loops (issue 21).
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                // `latchd`, `latchd admin …`, `latchd keys …`, `latchd bcrypt-time` (issue 22 §3).
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // OTLP export of the spans, bootstrapped by `latchd serve` when an endpoint is configured.
                .product(name: "OTel", package: "swift-otel", condition: .when(traits: ["Server"])),
                .product(name: "Tracing", package: "swift-distributed-tracing", condition: .when(traits: ["Server"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                // SIGTERM and SIGINT start the graceful shutdown of `latchd serve`.
                .product(name: "UnixSignals", package: "swift-service-lifecycle", condition: .when(traits: ["Server"]))
            ]
        ),
        // A simulated App Attest attester with its own test CA (issue 31 §3), as the software passkey
        // authenticator is for WebAuthn: the CLI and the tests attest on Linux. Not part of LatchClient, so an
        // app never links it.
        .target(
            name: "LatchAttestSimulator",
            dependencies: [
                "LatchClient", "LatchCore", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1")
            ]
        ),
        .executableTarget(
            name: "latch",
            dependencies: [
                "LatchClient", "LatchCore", "LatchAttestSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        // Test helpers shared by test targets: child processes without Foundation.Process (see ChildProcess),
        // and the one way to start a server for a test: the latchd binary (`LatchdProcess`) or LatchServer
        // in the test process (`InProcessLatchd`); HTTP answers with a typed error body (`HTTPAnswerBody`).
        .target(
            name: "LatchTestSupport",
            dependencies: [
                "LatchCore", "LatchServer",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                // The tests' HTTP client (`TestHTTP`), independent of the server's web framework.
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                // In-process requests from a chosen peer address (`InProcessLatchd.get(_:peer:host:)`).
                .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"]))
            ],
            path: "Tests/LatchTestSupport",
            exclude: ["README.md"]
        ),
        .testTarget(
            name: "LatchCoreTests", dependencies: ["LatchCore", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(
            name: "LatchEventsTests",
            dependencies: ["LatchEvents", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "LatchClientTests",
            dependencies: [
                "LatchClient", "LatchCore", .product(name: "Crypto", package: "swift-crypto"),
                // The one test clock (`TestClock`).
                "LatchTestSupport"
            ]
        ),
        // Runs the real `latch` and `latchd` binaries as subprocesses; depending on both makes
        // `swift test` build them beside the test bundle.
        .testTarget(
            name: "CLITests",
            dependencies: [
                "latch", "latchd", "LatchClient", "LatchCore", "LatchTestSupport", "LatchAttestSimulator",
                .product(name: "Crypto", package: "swift-crypto")
            ]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "LatchClient", "LatchCore", "LatchServer", "LatchTestSupport", "LatchAttestSimulator",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"]))
            ]
        ),
        .testTarget(
            name: "LatchServerTests",
            dependencies: [
                "LatchServer",
                // The durable-queue and key-rotation tests kill -9 and restart the real latchd binary.
                "latchd",
                // App Attest tests attest with the simulated attester's test CA (issue 31 §2).
                "LatchAttestSimulator", "LatchClient",
                "LatchTestSupport", "LatchCore",
                // LatchServer's webhook bodies verified and decoded by the backend's library (issue 42 §4).
                "LatchEvents",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
                // The stand-ins of Apple, WeChat and the SMS gateway run as services (StandInServer).
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle", condition: .when(traits: ["Server"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Server"])),
                .product(name: "FluentKit", package: "fluent-kit", condition: .when(traits: ["Server"])),
                .product(
                    name: "FluentPostgresDriver", package: "fluent-postgres-driver",
                    condition: .when(traits: ["Server"])),
                // The prepared SQLite connections' tests bind and read SQLiteData (issue 44 §4).
                .product(
                    name: "FluentSQLiteDriver", package: "fluent-sqlite-driver", condition: .when(traits: ["Server"])),
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["Server"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Server"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Server"])),
                .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Server"])),
                // The APNs stand-in (Support/APNs) speaks HTTP/2 over TLS.
                .product(name: "NIOHTTP2", package: "swift-nio-http2", condition: .when(traits: ["Server"])),
                .product(name: "NIOFoundationCompat", package: "swift-nio", condition: .when(traits: ["Server"])),
                // The metrics tests read the app's own Prometheus registry.
                .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Server"])),
                .product(name: "Crypto", package: "swift-crypto"),
                // Sign in with Apple tests sign identity tokens with RSA keys they generate.
                .product(name: "JWTKit", package: "jwt-kit", condition: .when(traits: ["Server"])),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                // The test SMTP server (Support/SMTP): its self-signed certificate.
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["Server"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["Server"]))
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)

// Every target compiles with these upcoming features (issue 22 §4, as the anchors do it).
for target in package.targets {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            // Existentials are written `any P`, so a boxed, dynamically dispatched type never hides behind
            // a plain protocol name.
            .enableUpcomingFeature("ExistentialAny"),
            // A file sees only the members of modules it imports itself, not those that another file's
            // import leaks into the module.
            .enableUpcomingFeature("MemberImportVisibility")
        ]
}
