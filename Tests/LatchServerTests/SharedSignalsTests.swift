import FluentKit
import Foundation
import JWTKit
import LatchCore
import LatchTestSupport
import Logging
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 42 §2, second bullet: Shared Signals (SSF 1.0, CAEP 1.0, RISC 1.0, RFC 8417, RFC 8936).
@Suite("Shared Signals (issue 42 §2)")
struct SharedSignalsTests {
    static let audience = "https://backend.example.com"
    static let key = "ssf-receiver-key-0123456789abcdef0123456789"
    static let otherAudience = "https://other.example.com"
    static let otherKey = "ssf-receiver-key-other-0123456789abcdef012345"

    static func withSSF(_ database: TestDatabase, _ body: (TestServer) async throws -> Void) async throws {
        try await withServer(
            database,
            adjust: {
                $0.ssfReceiverKeys = [
                    SSFReceiverKey(audience: audience, key: key), SSFReceiverKey(audience: otherAudience, key: otherKey)
                ]
                $0.adminKeys = [String(repeating: "a", count: 40)]
            }, body)
    }

    static let requested = [
        SSFEventType.sessionRevoked, .sessionsRevoked, .credentialChange, .identifierChanged, .recoveryActivated,
        .accountDisabled, .accountEnabled, .accountPurged, .credentialCompromise, .sessionEstablished
    ].map(\.rawValue)

    /// Creates a poll stream asking for `requested`; answers its id.
    static func createPollStream(
        _ server: TestServer, key: String = key, requested: [String] = requested
    ) async throws -> String {
        let created = try await server.send(
            .POST, "/ssf/streams",
            json: ["delivery": ["method": "urn:ietf:rfc:8936"], "events_requested": requested, "description": "poll"],
            bearer: key)
        try #require(created.status == 201, "\(created.text)")
        return try #require(try created.decode(StreamConfiguration.self).stream_id)
    }

    static func poll(_ server: TestServer, _ stream: String, _ body: [String: Any] = [:], key: String = key)
        async throws -> TestResponse
    {
        try await server.send(.POST, "/ssf/poll/\(stream)", json: body, bearer: key)
    }

    /// Every SET a poll answers, acknowledging none.
    static func sets(_ server: TestServer, _ stream: String, key: String = key) async throws -> [String: String] {
        let answer = try await poll(server, stream, ["maxEvents": 1000, "returnImmediately": true], key: key)
        try #require(answer.status == 200, "\(answer.text)")
        return try #require(try answer.decode(PollAnswer.self).sets)
    }

    // MARK: The mapping

    @Test("42 §2 the SSF mapping's closed world: every outbound type maps to CAEP or RISC events or says why not")
    func test_42_2_ssfMappingClosedWorld() {
        var reachable = Set<SSFEventType>()
        for kind in OutboundEvent.Kind.allCases {
            switch SSFEventMapping.declaration(of: kind) {
            case .mapped(let types):
                #expect(!types.isEmpty, "\(kind) maps to nothing")
                reachable.formUnion(types)
                #expect(SSFEventMapping.kinds(for: types.map(\.rawValue)).contains(kind) || kind == .ssfVerification)
            case .unmapped(let reason):
                #expect(reason.count >= 20, "\(kind) is unmapped without a reason")
                #expect(SSFEventMapping.candidates(for: kind, data: [:], actor: "user", occurredAt: 1).isEmpty)
            }
        }
        #expect(
            reachable == Set(SSFEventType.allCases),
            "types no outbound type reaches: \(Set(SSFEventType.allCases).subtracting(reachable))")
        #expect(SSFEventMapping.supported == SSFEventType.allCases)
        // Every candidate any data gives is among its type's declared events.
        let samples: [[String: Any]] = [
            [:], ["scope": "one"], ["scope": "others"], ["scope": "all"], ["credential": "password", "change": "reset"],
            ["credential": "phone", "change": "added"], ["credential": "email", "change": "removed"],
            ["credential": "passkey", "change": "added"], ["credential": "identity", "change": "added"],
            ["state": "s"]
        ]
        for kind in OutboundEvent.Kind.allCases {
            guard case .mapped(let declared) = SSFEventMapping.declaration(of: kind) else { continue }
            for data in samples {
                for event in SSFEventMapping.candidates(for: kind, data: data, actor: "user", occurredAt: 1) {
                    #expect(declared.contains(event.type), "\(kind) \(data) gave undeclared \(event.type)")
                }
            }
        }
    }

    @Test("42 §2 the SSF mapping table: each outbound event becomes the CAEP or RISC event that fits")
    func test_42_2_ssfMappingTable() {
        func event(
            _ kind: OutboundEvent.Kind, _ data: [String: Any] = [:], actor: String = "user",
            requested: Set<SSFEventType>? = nil
        ) -> SSFEvent? {
            SSFEventMapping.event(for: kind, data: data, actor: actor, occurredAt: 1_800_000_000, requested: requested)
        }
        // Sessions: one revoked is CAEP's session-revoked, the others or all RISC's sessions-revoked.
        let one = event(.sessionRevoked, ["scope": "one", "reason": "signed_out"])
        #expect(one?.type == .sessionRevoked)
        #expect(
            one?.claims["event_timestamp"] == .int(1_800_000_000) && one?.claims["initiating_entity"] == .string("user")
        )
        #expect(event(.sessionRevoked, ["scope": "others"])?.type == .sessionsRevoked)
        #expect(event(.sessionRevoked, ["scope": "all"], actor: "operator")?.type == .sessionsRevoked)
        // Credentials: CAEP credential-change with CAEP's credential and change types.
        let password = event(.credentialChanged, ["credential": "password", "change": "changed"])
        #expect(password?.type == .credentialChange)
        #expect(
            password?.claims["credential_type"] == .string("password")
                && password?.claims["change_type"] == .string("update"))
        #expect(
            event(.credentialChanged, ["credential": "fund_password", "change": "added"])?.claims["credential_type"]
                == .string("pin"))
        let passkey = event(.credentialChanged, ["credential": "passkey", "change": "removed"])
        #expect(
            passkey?.claims["credential_type"] == .string("fido2-platform")
                && passkey?.claims["change_type"] == .string("delete"))
        let totp = event(.credentialChanged, ["credential": "totp", "change": "reset_by_operator"], actor: "operator")
        #expect(totp?.claims["credential_type"] == .string("app") && totp?.claims["change_type"] == .string("revoke"))
        #expect(totp?.claims["initiating_entity"] == .string("admin"))
        // A password reset by the emailed code is a recovery; a CAEP-only receiver hears the credential change.
        #expect(event(.credentialChanged, ["credential": "password", "change": "reset"])?.type == .recoveryActivated)
        #expect(
            event(.credentialChanged, ["credential": "password", "change": "reset"], requested: [.credentialChange])?
                .type
                == .credentialChange)
        // Identifiers: an email is RISC identifier-changed (without the new value); a phone is a phone-sms
        // credential, or identifier-changed for a receiver that asked for only that.
        #expect(
            event(.credentialChanged, ["credential": "email", "change": "added"])
                == SSFEvent(type: .identifierChanged, claims: [:]))
        #expect(
            event(.credentialChanged, ["credential": "phone", "change": "added"])?.claims["credential_type"]
                == .string("phone-sms"))
        #expect(
            event(.credentialChanged, ["credential": "phone", "change": "added"], requested: [.identifierChanged])?.type
                == .identifierChanged)
        #expect(event(.credentialChanged, ["credential": "identity", "change": "added"]) == nil)
        // Accounts.
        #expect(event(.accountFrozen) == SSFEvent(type: .accountDisabled, claims: ["reason": .string("hijacking")]))
        #expect(event(.accountDisabled, actor: "operator") == SSFEvent(type: .accountDisabled, claims: [:]))
        #expect(event(.accountEnabled)?.type == .accountEnabled && event(.accountUnfrozen)?.type == .accountEnabled)
        #expect(event(.accountDeleted)?.type == .accountPurged)
        #expect(
            event(.refreshTokenReused)
                == SSFEvent(type: .credentialCompromise, claims: ["credential_type": .string("app")]))
        #expect(
            event(.credentialCompromised, ["credential": "passkey"])?.claims["credential_type"]
                == .string("fido2-platform"))
        // None fits, or none was asked for.
        #expect(event(.holdStarted) == nil && event(.verificationRedeemed) == nil && event(.accountRegistered) == nil)
        #expect(event(.accountFrozen, requested: [.sessionRevoked]) == nil)
        // The types a stream hears for what it asked.
        #expect(
            SSFEventMapping.kinds(for: [SSFEventType.accountDisabled.rawValue, "urn:unknown"]) == [
                .accountFrozen, .accountDisabled
            ])
        #expect(SSFEventMapping.kinds(for: [SSFEventType.verification.rawValue]).isEmpty)
    }

    @Test("42 §2 LATCH_SSF_RECEIVER_KEYS: AUDIENCE=KEY pairs; a short key or a pair without = names the variable")
    func test_42_2_ssfReceiverKeysConfiguration() throws {
        var config = LatchConfig(secretKey: Data(repeating: 7, count: 32))
        try config.readSharedSignals {
            $0 == "LATCH_SSF_RECEIVER_KEYS"
                ? " https://a.example=\(Self.key), https://b.example=\(Self.otherKey)==" : nil
        }
        #expect(
            config.ssfReceiverKeys == [
                SSFReceiverKey(audience: "https://a.example", key: Self.key),
                SSFReceiverKey(audience: "https://b.example", key: Self.otherKey + "==")
            ])
        for bad in ["https://a.example=short", "no-equals-sign-\(Self.key)", "=\(Self.key)"] {
            #expect(throws: ConfigurationError.self) {
                try config.readSharedSignals { $0 == "LATCH_SSF_RECEIVER_KEYS" ? bad : nil }
            }
        }
        do {
            try config.readSharedSignals { $0 == "LATCH_SSF_RECEIVER_KEYS" ? "https://a.example=short-secret" : nil }
        } catch let error as ConfigurationError {
            #expect(error.variable == "LATCH_SSF_RECEIVER_KEYS" && !error.reason.contains("short-secret"))
        }
    }

    // MARK: The endpoints

    @Test(
        "42 §2 /.well-known/ssf-configuration names the issuer, the JWKS, both delivery methods and the endpoints",
        arguments: TestDatabase.all)
    func test_42_2_ssfConfigurationDocument(database: TestDatabase) async throws {
        try await Self.withSSF(database) { server in
            let answer = try await server.send(.GET, "/.well-known/ssf-configuration")

            #expect(answer.status == 200)
            let document = try answer.decode(TransmitterConfiguration.self)
            #expect(document.spec_version == "1_0")
            #expect(document.issuer == "http://latch.test")
            #expect(document.jwks_uri == "http://latch.test/.well-known/jwks.json")
            #expect(document.delivery_methods_supported == ["urn:ietf:rfc:8935", "urn:ietf:rfc:8936"])
            #expect(document.configuration_endpoint == "http://latch.test/ssf/streams")
            #expect(document.status_endpoint == "http://latch.test/ssf/status")
            #expect(document.verification_endpoint == "http://latch.test/ssf/verify")
            #expect(document.authorization_schemes == [["spec_urn": "urn:ietf:rfc:6750"]])
            #expect(document.default_subjects == "ALL")
        }
    }

    @Test("42 §2 a wrong or missing receiver key, or an admin key, answers 401 AUTH_004", arguments: TestDatabase.all)
    func test_42_2_ssfWrongKey401(database: TestDatabase) async throws {
        try await Self.withSSF(database) { server in
            for bearer in [nil, "wrong-key-0123456789abcdef0123456789abcdef", String(repeating: "a", count: 40)] {
                for (method, path) in [
                    (HTTPMethod.GET, "/ssf/streams"), (.POST, "/ssf/streams"), (.GET, "/ssf/status?stream_id=x"),
                    (.POST, "/ssf/verify"), (.POST, "/ssf/poll/es_0"), (.DELETE, "/ssf/streams?stream_id=x")
                ] {
                    let answer = try await server.send(method, path, json: ["stream_id": "x"], bearer: bearer)
                    #expect(answer.status == 401 && answer.errorCode == "AUTH_004", "\(method) \(path): \(answer.text)")
                }
            }
        }
    }

    @Test(
        "42 §2 a receiver creates, reads, updates, replaces and deletes its streams; another receiver's are 404",
        arguments: TestDatabase.all)
    func test_42_2_ssfStreamLifecycle(database: TestDatabase) async throws {
        try await Self.withSSF(database) { server in
            let created = try await server.send(
                .POST, "/ssf/streams",
                json: [
                    "delivery": ["method": "urn:ietf:rfc:8936"],
                    "events_requested": [SSFEventType.accountDisabled.rawValue, "urn:example:unknown"]
                ], bearer: Self.key)
            #expect(created.status == 201, "\(created.text)")
            let configuration = try created.decode(StreamConfiguration.self)
            let id = try #require(configuration.stream_id)
            #expect(configuration.iss == "http://latch.test")
            #expect(configuration.aud == Self.audience)
            #expect(configuration.events_requested == [SSFEventType.accountDisabled.rawValue, "urn:example:unknown"])
            #expect(configuration.events_delivered == [SSFEventType.accountDisabled.rawValue])
            #expect(configuration.events_supported?.count == SSFEventType.allCases.count)
            let delivery = try #require(configuration.delivery)
            #expect(delivery == ["method": "urn:ietf:rfc:8936", "endpoint_url": "http://latch.test/ssf/poll/\(id)"])
            let stored = try #require(try await server.app.latch.eventStreams.streams.stream(id, on: server.app.db))
            #expect(stored.kind == .ssfPoll && stored.types == .only([.accountFrozen, .accountDisabled]))
            #expect(stored.audience == Self.audience && stored.receiver == SSFReceiverKeys.id(of: Self.audience))

            let one = try await server.send(.GET, "/ssf/streams?stream_id=\(id)", bearer: Self.key)
            #expect(
                one.status == 200 && (try? one.decode(StreamConfiguration.self))?.stream_id == id, "\(one.text)")
            let all = try await server.send(.GET, "/ssf/streams", bearer: Self.key)
            #expect(all.status == 200)
            let list = try all.decode([StreamConfiguration].self)
            #expect(list.compactMap(\.stream_id) == [id])

            let patched = try await server.send(
                .PATCH, "/ssf/streams",
                json: [
                    "stream_id": id, "events_requested": [SSFEventType.sessionRevoked.rawValue], "description": "mine"
                ],
                bearer: Self.key)
            #expect(patched.status == 200, "\(patched.text)")
            let patchedConfiguration = try? patched.decode(StreamConfiguration.self)
            #expect(patchedConfiguration?.events_delivered == [SSFEventType.sessionRevoked.rawValue])
            #expect(patchedConfiguration?.description == "mine")
            let replaced = try await server.send(
                .PUT, "/ssf/streams",
                json: [
                    "stream_id": id, "delivery": ["method": "urn:ietf:rfc:8936"],
                    "events_requested": [SSFEventType.accountPurged.rawValue]
                ],
                bearer: Self.key)
            #expect(replaced.status == 200, "\(replaced.text)")
            #expect(
                (try? replaced.decode(StreamConfiguration.self))?.events_requested == [
                    SSFEventType.accountPurged.rawValue
                ])
            // Untyped: the key is absent, not null, and a typed optional reads both as nil.
            #expect(replaced.json["description"] == nil, "what a replacement leaves out is removed")
            let wrongIssuer = try await server.send(
                .PATCH, "/ssf/streams", json: ["stream_id": id, "iss": "https://elsewhere.example"], bearer: Self.key)
            #expect(wrongIssuer.status == 400 && wrongIssuer.errorCode == "VALIDATION_FAILED", "\(wrongIssuer.text)")
            let toPush = try await server.send(
                .PATCH, "/ssf/streams",
                json: [
                    "stream_id": id, "delivery": ["method": "urn:ietf:rfc:8935", "endpoint_url": "https://r.example/e"]
                ],
                bearer: Self.key)
            #expect(toPush.status == 400, "\(toPush.text)")

            let status = try await server.send(.GET, "/ssf/status?stream_id=\(id)", bearer: Self.key)
            #expect(
                status.status == 200 && (try? status.decode(StreamStatus.self))?.status == "enabled", "\(status.text)")
            let paused = try await server.send(
                .POST, "/ssf/status", json: ["stream_id": id, "status": "paused", "reason": "maintenance"],
                bearer: Self.key)
            #expect(
                paused.status == 200 && (try? paused.decode(StreamStatus.self))?.status == "paused", "\(paused.text)")
            let badStatus = try await server.send(
                .POST, "/ssf/status", json: ["stream_id": id, "status": "off"], bearer: Self.key)
            #expect(badStatus.status == 400, "\(badStatus.text)")

            // Another receiver sees none of it.
            for (method, path, body) in [
                (HTTPMethod.GET, "/ssf/streams?stream_id=\(id)", nil), (.GET, "/ssf/status?stream_id=\(id)", nil),
                (.PATCH, "/ssf/streams", ["stream_id": id, "description": "theirs"]),
                (.POST, "/ssf/status", ["stream_id": id, "status": "disabled"]),
                (.POST, "/ssf/verify", ["stream_id": id]),
                (.POST, "/ssf/poll/\(id)", [:]), (.DELETE, "/ssf/streams?stream_id=\(id)", nil)
            ] as [(HTTPMethod, String, [String: Any]?)] {
                let answer =
                    if let body {
                        try await server.send(method, path, json: body, bearer: Self.otherKey)
                    } else {
                        try await server.send(method, path, bearer: Self.otherKey)
                    }
                #expect(answer.status == 404 && answer.errorCode == "NOT_FOUND", "\(method) \(path): \(answer.text)")
            }
            let theirs = try await server.send(.GET, "/ssf/streams", bearer: Self.otherKey)
            #expect(String(decoding: theirs.data, as: UTF8.self) == "[]")

            let deleted = try await server.send(.DELETE, "/ssf/streams?stream_id=\(id)", bearer: Self.key)
            #expect(deleted.status == 204, "\(deleted.text)")
            let gone = try await server.send(.GET, "/ssf/streams?stream_id=\(id)", bearer: Self.key)
            #expect(gone.status == 404)
        }
    }

    @Test(
        "42 §2 a push stream needs an endpoint URL that meets the receiver rules; its Authorization is never shown",
        arguments: TestDatabase.all)
    func test_42_2_ssfPushStream(database: TestDatabase) async throws {
        try await Self.withSSF(database) { server in
            let missing = try await server.send(
                .POST, "/ssf/streams", json: ["delivery": ["method": "urn:ietf:rfc:8935"]], bearer: Self.key)
            #expect(missing.status == 400 && missing.errorBody?.field == "delivery.endpoint_url", "\(missing.text)")
            let notURL = try await server.send(
                .POST, "/ssf/streams", json: ["delivery": ["method": "urn:ietf:rfc:8935", "endpoint_url": "ftp://x"]],
                bearer: Self.key)
            #expect((400..<500).contains(notURL.status), "\(notURL.text)")
            let unknownMethod = try await server.send(
                .POST, "/ssf/streams", json: ["delivery": ["method": "urn:example:carrier-pigeon"]], bearer: Self.key)
            #expect(unknownMethod.status == 400, "\(unknownMethod.text)")

            let created = try await server.send(
                .POST, "/ssf/streams",
                json: [
                    "delivery": [
                        "method": "urn:ietf:rfc:8935", "endpoint_url": "https://receiver.example.com/events",
                        "authorization_header": "Bearer receiver-secret"
                    ], "events_requested": Self.requested
                ], bearer: Self.key)
            #expect(created.status == 201, "\(created.text)")
            let configuration = try created.decode(StreamConfiguration.self)
            // A dictionary, not a struct: the equality also says no other key (no authorization_header) is there.
            let delivery = try #require(configuration.delivery)
            #expect(delivery == ["method": "urn:ietf:rfc:8935", "endpoint_url": "https://receiver.example.com/events"])
            #expect(!created.text.contains("receiver-secret"))
            let id = try #require(configuration.stream_id)
            let deliverable = try await server.app.latch.eventStreams.streams.deliverable(
                now: server.clock.now.timeIntervalSince1970, on: server.app.db)
            #expect(deliverable.first { $0.stream.id == id }?.authorization == "Bearer receiver-secret")
            let polled = try await Self.poll(server, id)
            #expect(polled.status == 404, "a push stream is not polled")
        }
    }

    @Test(
        "42 §2 an operator makes a receiver key (shown once, audited), lists it without the key, and removes it",
        arguments: TestDatabase.all)
    func test_42_2_ssfOperatorReceiverKeys(database: TestDatabase) async throws {
        try await Self.withSSF(database) { server in
            let admin = AdminService.console(on: server.app, language: .en)
            let added = try await admin.addSSFReceiver(audience: "https://vendor.example", description: "vendor")
            #expect(added.key.hasPrefix("ssfk_") && added.receiver.id.hasPrefix("ssr_"))
            let listed = try await admin.listSSFReceivers()
            #expect(listed == [added.receiver])
            let stream = try await Self.createPollStream(server, key: added.key)
            let read = try await server.send(.GET, "/ssf/streams?stream_id=\(stream)", bearer: added.key)
            #expect((try? read.decode(StreamConfiguration.self))?.aud == "https://vendor.example", "\(read.text)")

            try await admin.removeSSFReceiver(added.receiver.id)
            let refused = try await server.send(.GET, "/ssf/streams", bearer: added.key)
            #expect(refused.status == 401)
            await #expect(throws: LatchError.self) { try await admin.removeSSFReceiver(added.receiver.id) }
        }
    }

    // MARK: SETs

    @Test(
        "42 §2 a push stream's SETs go out as application/secevent+jwt with the receiver's Authorization (RFC 8935)",
        arguments: TestDatabase.all)
    func test_42_2_ssfPushDelivery(database: TestDatabase) async throws {
        let server = try await TestServer.start(database) {
            $0.runsBackgroundTasks = false
            $0.ssfReceiverKeys = [SSFReceiverKey(audience: Self.audience, key: Self.key)]
        }
        do {
            let created = try await server.send(
                .POST, "/ssf/streams",
                json: [
                    "delivery": [
                        "method": "urn:ietf:rfc:8935", "endpoint_url": "https://receiver.example.com/events",
                        "authorization_header": "Bearer receiver-secret"
                    ], "events_requested": [SSFEventType.sessionRevoked.rawValue]
                ], bearer: Self.key)
            try #require(created.status == 201, "\(created.text)")
            let tokens = try await server.signUp()
            #expect(try await server.send(.POST, "/v1/logout", bearer: tokens.accessToken).status == 204)
            let receiver = EventStreamDeliveryTests.RecordingReceiver()
            let services = server.app.latch.eventStreams
            let encoder = SecurityEventTokenEncoder(
                ring: server.app.latch.accessTokens.ring, issuer: "http://latch.test", clock: server.clock.latchClock,
                database: { server.app.db })
            let worker = EventDeliveryWorker(
                streams: services.streams, deliveries: services.deliveries, database: { server.app.db },
                transport: receiver, tokens: encoder, clock: server.clock.latchClock, logger: Logger(label: "test"),
                metrics: .disabled)

            try await worker.deliverDue()

            let pushed = try #require(receiver.all.first)
            #expect(receiver.all.count == 1, "only the sign-out: the stream asked for session-revoked")
            #expect(pushed.url == "https://receiver.example.com/events")
            #expect(pushed.request.contentType == "application/secevent+jwt")
            #expect(pushed.header["Authorization"] == "Bearer receiver-secret")
            let jwks = try await server.send(.GET, "/.well-known/jwks.json")
            let claims = try await JWTKeyCollection().add(jwksJSON: jwks.text)
                .verify(String(decoding: pushed.request.body, as: UTF8.self), as: SecurityEventTokenClaims.self)
            #expect(claims.aud == Self.audience && claims.events.keys.first == SSFEventType.sessionRevoked.rawValue)
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }

    @Test(
        "42 §2 a SET is an ES256 JWS, typ secevent+jwt, verified against the JWKS, with iss, aud, jti, iat, toe, txn and sub_id",
        arguments: TestDatabase.all)
    func test_42_2_setIsES256SecEventJWT(database: TestDatabase) async throws {
        try await Self.withSSF(database) { server in
            let stream = try await Self.createPollStream(server)
            let tokens = try await server.signUp()
            #expect(try await server.send(.POST, "/v1/logout", bearer: tokens.accessToken).status == 204)

            let sets = try await Self.sets(server, stream)
            let events = try await OutboundEventStore().events(limit: 100, on: server.app.db)
            let revoked = try #require(events.first { $0.type == "session.revoked" })
            let token = try #require(sets[revoked.id], "the sign-out's SET: \(sets.keys)")
            #expect(
                sets.count == 1,
                "session.revoked; account.registered maps to nothing: \(sets.keys)")

            let jwks = try await server.send(.GET, "/.well-known/jwks.json")
            let keys = try await JWTKeyCollection().add(jwksJSON: jwks.text)
            let claims = try await keys.verify(token, as: SecurityEventTokenClaims.self)
            let parts = try JWTParts(token)
            #expect(parts.header["typ"] as? String == "secevent+jwt")
            #expect(parts.header["alg"] as? String == "ES256")
            #expect(parts.header["kid"] as? String == server.app.latch.accessTokens.keys.signingKID)
            #expect(claims.iss == "http://latch.test" && claims.aud == Self.audience && claims.jti == revoked.id)
            #expect(claims.iat == Int(server.clock.now.timeIntervalSince1970) && claims.toe == Int(revoked.occurredAt))
            #expect(claims.txn == revoked.transaction)
            #expect(claims.subId == .account(issuer: "http://latch.test", user: tokens.user.id.lowercased()))
            #expect(
                parts.claims["sub_id"] as? [String: String] == [
                    "format": "iss_sub", "iss": "http://latch.test", "sub": tokens.user.id.lowercased()
                ])
            let event = try #require(claims.events[SSFEventType.sessionRevoked.rawValue])
            #expect(claims.events.count == 1)
            #expect(event["initiating_entity"] == .string("user"))
            #expect(event["reason_admin"] == .object(["en": .string("signed_out")]))
        }
    }

    @Test(
        "42 §2 poll (RFC 8936) answers pending SETs with moreAvailable; acknowledged ones are not offered again",
        arguments: TestDatabase.all)
    func test_42_2_ssfPollAcks(database: TestDatabase) async throws {
        try await Self.withSSF(database) { server in
            let stream = try await Self.createPollStream(server)
            let tokens = try await server.signUp()
            let second = try await server.signIn().decode(TokenResponse.self)
            #expect(try await server.send(.POST, "/v1/logout", bearer: second.accessToken).status == 204)
            _ = tokens

            let first = try await Self.poll(server, stream, ["maxEvents": 1, "returnImmediately": true])
            #expect(first.status == 200, "\(first.text)")
            let firstAnswer = try first.decode(PollAnswer.self)
            let firstSets = try #require(firstAnswer.sets)
            #expect(firstSets.count == 1 && firstAnswer.moreAvailable == true, "\(first.text)")
            let again = try await Self.poll(server, stream, ["maxEvents": 1])
            #expect(
                (try? again.decode(PollAnswer.self))?.sets.map { Set($0.keys) } == Set(firstSets.keys),
                "an unacknowledged SET is offered again")

            let rest = try await Self.poll(server, stream, ["ack": Array(firstSets.keys), "maxEvents": 10])
            let restAnswer = try rest.decode(PollAnswer.self)
            let restSets = try #require(restAnswer.sets)
            #expect(restSets.count == 1 && restAnswer.moreAvailable == false, "\(rest.text)")
            #expect(Set(restSets.keys).isDisjoint(with: firstSets.keys))
            let jti = try #require(restSets.keys.sorted().first)
            let last = try await Self.poll(
                server, stream,
                [
                    "ack": restSets.keys.filter { $0 != jti },
                    "setErrs": [jti: ["err": "invalid_key", "description": "x"]]
                ])
            let lastAnswer = try? last.decode(PollAnswer.self)
            #expect(last.status == 200 && lastAnswer?.sets?.isEmpty == true, "\(last.text)")
            #expect(lastAnswer?.moreAvailable == false)

            let badMax = try await Self.poll(server, stream, ["maxEvents": -1])
            #expect(badMax.status == 400, "\(badMax.text)")
            let unknown = try await Self.poll(server, "es_000000000000000000000000")
            #expect(unknown.status == 404)
        }
    }

    @Test(
        "42 §2 a verification request puts a verification event with its state on the stream",
        arguments: TestDatabase.all)
    func test_42_2_ssfVerificationEvent(database: TestDatabase) async throws {
        try await Self.withSSF(database) { server in
            let stream = try await Self.createPollStream(server)
            let other = try await Self.createPollStream(server, key: Self.otherKey)
            let asked = try await server.send(
                .POST, "/ssf/verify", json: ["stream_id": stream, "state": "VGhpcyBpcyBhbiBleGFtcGxl"], bearer: Self.key
            )
            #expect(asked.status == 204, "\(asked.text)")

            let sets = try await Self.sets(server, stream)
            #expect(sets.count == 1)
            let (jti, token) = try #require(sets.first)
            let parts = try JWTParts(token)
            #expect(parts.claims["jti"] as? String == jti && jti.hasPrefix("evt_"))
            #expect(parts.claims["sub_id"] as? [String: String] == ["format": "opaque", "id": stream])
            let events = try #require(parts.claims["events"] as? [String: [String: String]])
            #expect(events == [SSFEventType.verification.rawValue: ["state": "VGhpcyBpcyBhbiBleGFtcGxl"]])
            #expect(try await Self.sets(server, other, key: Self.otherKey).isEmpty, "for the asking stream alone")
            let stored = try await OutboundEventStore().events(limit: 100, on: server.app.db)
            #expect(stored.map(\.type) == ["ssf.verification"])
        }
    }

    @Test(
        "42 §2 no SET carries an email address or a phone number; an operator's receiver key works like a configured one",
        arguments: TestDatabase.all)
    func test_42_2_noSetCarriesEmailOrPhone(database: TestDatabase) async throws {
        try await withProviders(database) { server, _ in
            let made = try await SSFReceiverStore().add(
                audience: Self.audience, description: "test", now: 0, on: server.app.db)
            let stream = try await Self.createPollStream(server, key: made.key)
            let alice = try await server.signUp("alice.secret@example.com")
            _ = try await PhoneSignInTests.requestCode(server)
            let code = try await PhoneSignInTests.textedCode(server)
            let linked = try await IdentityLinkTests.link(
                server, ["provider": "phone", "phone": PhoneSignInTests.phone, "code": code], bearer: alice.accessToken)
            #expect(linked.status == 201, "\(linked.text)")
            let changed = try await server.send(
                .POST, "/v1/password/change",
                json: ["current_password": "Correct-Horse-9", "new_password": "Another-Horse-7"],
                bearer: alice.accessToken)
            #expect(changed.status == 204, "\(changed.text)")
            let frozen = try await server.send(.POST, "/v1/me/freeze", json: [:], bearer: alice.accessToken)
            #expect((200..<300).contains(frozen.status), "\(frozen.text)")

            let sets = try await Self.sets(server, stream, key: made.key)
            #expect(sets.count >= 4, "\(sets.count)")
            let phoneDigits = PhoneSignInTests.phone.filter(\.isNumber)
            var types = Set<String>()
            for token in sets.values {
                let parts = try JWTParts(token)
                let text = (parts.claimsJSON + String(describing: parts.header)).lowercased()
                #expect(
                    !text.contains("alice.secret") && !text.contains("@"),
                    "\(parts.claimsJSON)")
                #expect(
                    !text.contains(phoneDigits) && !text.contains(String(phoneDigits.suffix(8))), "\(parts.claimsJSON)")
                types.formUnion((parts.claims["events"] as? [String: Any])?.keys ?? [:].keys)
            }
            #expect(types.contains(SSFEventType.credentialChange.rawValue))
            #expect(types.contains(SSFEventType.accountDisabled.rawValue))
        }
    }
}

/// A stream as `/ssf/streams` shows it (SSF 1.0 §8.1.1), as far as the tests read it. `delivery` is a
/// dictionary so that comparing it also compares its keys.
private struct StreamConfiguration: Decodable {
    var stream_id: String?
    var iss: String?
    var aud: String?
    var events_supported: [String]?
    var events_requested: [String]?
    var events_delivered: [String]?
    var delivery: [String: String]?
    var description: String?
}

/// A stream's status (`/ssf/status`).
private struct StreamStatus: Decodable {
    var status: String?
}

/// A poll's answer (RFC 8936 §2.5): the SETs by `jti`, and whether more are waiting.
private struct PollAnswer: Decodable {
    var sets: [String: String]?
    var moreAvailable: Bool?
}

/// `GET /.well-known/ssf-configuration` (SSF 1.0 §7.1), as far as the tests read it.
private struct TransmitterConfiguration: Decodable {
    var spec_version: String?
    var issuer: String?
    var jwks_uri: String?
    var delivery_methods_supported: [String]?
    var configuration_endpoint: String?
    var status_endpoint: String?
    var verification_endpoint: String?
    var authorization_schemes: [[String: String]]?
    var default_subjects: String?
}
