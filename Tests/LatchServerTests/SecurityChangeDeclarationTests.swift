import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOCore
import NIOHTTP1
import SQLKit
import Testing

@testable import LatchServer

/// Issue 28 §1: every security change is declared once (`SecurityChange`), every route that changes
/// something says which changes it makes or why it makes none (`MutatingRoutes`), and the tests below
/// fail when the next route, change or table is added without a declaration.
@Suite("Containment by construction (issue 28 §1)")
struct SecurityChangeDeclarationTests {
    /// The mutating routes the router serves, as `MutatingRoutes` keys them ("POST /v1/sessions/:id").
    static func mutatingRoutes(of table: RouteTable) -> Set<String> {
        let mutating: Set<String> = ["POST", "PUT", "PATCH", "DELETE"]
        return Set(table.all.filter { mutating.contains($0.method) }.map { "\($0.method) \($0.path)" })
    }

    @Test(
        "28 §1 closed world: every mutating route of the router is declared with its security changes or with the reason it makes none, and every declaration names a served route",
        arguments: [TestDatabase.sqlite])
    func test_28_1_everyMutatingRouteIsDeclared(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let served = Self.mutatingRoutes(of: server.app.routeTable)
            let declared = Set(MutatingRoutes.declarations.keys)

            #expect(served.count >= 40, "the router listed its routes: \(served.sorted())")
            for route in served.sorted() {
                #expect(
                    declared.contains(route),
                    "\(route) changes something but MutatingRoutes neither names its security changes nor says why it makes none"
                )
            }
            for route in declared.subtracting(served).sorted() {
                Issue.record("MutatingRoutes declares \(route), which the router does not serve")
            }
            for (route, declaration) in MutatingRoutes.declarations {
                switch declaration {
                case .noSecurityChange(let reason):
                    #expect(reason.count >= 20, "\(route) says why with a real reason: \(reason)")
                case .changes(let kinds):
                    #expect(!kinds.isEmpty, "\(route) names at least one change")
                }
            }
        }
    }

    @Test("28 §1 closed world: a route added without a declaration is found (the check above can fail)")
    func test_28_1_anUndeclaredRouteIsFound() async throws {
        let table = RouteTable()
        table.add(method: "POST", path: "v1/me/backdoor")
        table.add(method: "DELETE", path: "v1/sessions/:id")
        let undeclared = Self.mutatingRoutes(of: table).subtracting(MutatingRoutes.declarations.keys)
        #expect(undeclared == ["POST /v1/me/backdoor"], "\(undeclared)")
    }

    @Test("28 §1 every change has one complete recipe, and every one is made by a route or named by one")
    func test_28_1_everyChangeIsMadeSomewhere() {
        var named: Set<SecurityChange.Kind> = []
        for case .changes(let kinds) in MutatingRoutes.declarations.values { named.formUnion(kinds) }
        for kind in SecurityChange.Kind.allCases {
            let recipe = SecurityChange.recipe(kind)
            #expect(named.contains(kind), "\(kind) is made by no declared route")
            if !recipe.mails {
                #expect(
                    (SecurityChange.silentReason[kind]?.count ?? 0) >= 20, "\(kind) mails nothing: say why")
            }
            if recipe.category == .addition {
                #expect(
                    recipe.mails
                        && (recipe.hold != nil || (SecurityChange.unheldReason[kind]?.count ?? 0) >= 20),
                    "an addition is held (or says why not) and mailed: \(kind)")
                #expect(!recipe.mayBeFolded && recipe.isCharged, "an addition is mailed at once, charged: \(kind)")
            }
            if recipe.category == .removal || recipe.category == .recovery || recipe.category == .byOperator {
                #expect(!recipe.isCharged, "\(kind) is never charged to the notice budget")
            }
        }
    }

    @Test(
        "28 §1 a change declared as ending the other sessions is checked: applied while another session is live (a route that forgot to end them) it fails and nothing of it commits; once they are ended it applies",
        arguments: TestDatabase.all)
    func test_28_1_endsOtherSessionsIsChecked(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let first = try await server.signUp()
            let second = try await server.signIn().decode(TokenResponse.self)
            let app = server.app
            let user = try #require(UUID(uuidString: first.user.id))
            let actor = SecurityChangeActor(
                user: user, session: UUID(uuidString: second.sessionId), ip: nil, language: .en)
            let declared = SecurityChange.Kind.allCases.filter {
                SecurityChange.recipe($0).endsOtherSessions && $0 != .sessionEnded
            }
            #expect(Set(declared) == [.passwordChanged, .passwordReset, .otherSessionsEnded, .frozen])
            let eventsBefore = try await server.eventTypes(bearer: second.accessToken)
            for kind in declared {
                await #expect(throws: SecurityChanges.OtherSessionsLeftLive.self, "\(kind)") {
                    try await app.db.transaction { database in
                        try await app.latch.securityChanges.apply(SecurityChange(kind), by: actor, on: database)
                    }
                }
            }
            #expect(try await server.eventTypes(bearer: second.accessToken) == eventsBefore, "nothing committed")

            try await app.db.transaction { database in
                _ = try await app.latch.revocation.revoke(
                    .allExcept(try #require(actor.session)), of: user, now: app.latch.clock.epochSeconds, on: database)
                try await app.latch.securityChanges.apply(SecurityChange(.otherSessionsEnded), by: actor, on: database)
            }
            let eventsAfter = try await server.eventTypes(bearer: second.accessToken)
            #expect(
                eventsAfter.filter { $0 == "other_sessions_revoked" }.count
                    == eventsBefore.filter { $0 == "other_sessions_revoked" }.count + 1, "\(eventsAfter)")
        }
    }

    @Test(
        "28 §1 account deletion's closed world: every table holding a user id is erased by it or kept with a reason, and no erased table keeps a row of the deleted user",
        arguments: TestDatabase.all)
    func test_28_1_deletionLeavesNoRowOfTheUser(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let sql = server.app.db as! any SQLDatabase
            let tables = try await SecurityResetTests.tablesHoldingAUserID(sql, database: database)
            let erased = Set(AccountDeletion.tablesKeyedByUser)
            let kept = Set(AccountDeletion.keptTables.keys)
            for table in tables.sorted() {
                #expect(
                    erased.contains(table) || kept.contains(table),
                    "\(table) holds a user id but deletion neither erases it nor keeps it for a written reason")
            }
            #expect(erased.isDisjoint(with: kept))
            for (table, reason) in AccountDeletion.keptTables { #expect(reason.count >= 20, "\(table): \(reason)") }

            let owner = try await server.signUp()
            let user = try #require(UUID(uuidString: owner.user.id))
            _ = try await server.bindDevice(DeviceKey(), bearer: owner.accessToken)
            try await server.setFundPassword(bearer: owner.accessToken)
            _ = try await server.activateTOTP(bearer: owner.accessToken)
            var before = 0
            for table in erased {
                let row = try await sql.raw("SELECT COUNT(*) AS n FROM \(ident: table) WHERE user_id = \(bind: user)")
                    .first()
                before += try row?.decode(column: "n", as: Int.self) ?? 0
            }
            let deleted = try await server.send(.DELETE, "/v1/me", body: nil, bearer: owner.accessToken)

            #expect(deleted.status == 200, "\(deleted.text)")
            #expect(before >= 5, "the account had rows to erase (the check can fail): \(before)")
            for table in erased.sorted() {
                let row = try await sql.raw("SELECT COUNT(*) AS n FROM \(ident: table) WHERE user_id = \(bind: user)")
                    .first()
                #expect(try row?.decode(column: "n", as: Int.self) == 0, "\(table) keeps a row of the deleted user")
            }
        }
    }
}
