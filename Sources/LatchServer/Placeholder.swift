import Vapor; import Fluent; import FluentSQLiteDriver; import FluentPostgresDriver; import JWTKit
