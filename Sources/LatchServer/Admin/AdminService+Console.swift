import Fluent
import LatchCore
import Vapor

extension AdminService {
    /// The service as `latchd admin` uses it: the app's database and services, actor `console`.
    public static func console(on app: Application, language: LatchLanguage) -> AdminService {
        AdminService(
            latch: app.latch, database: app.db, actor: .console, ip: nil, language: language,
            deletion: AccountDeletion(application: app))
    }
}
