import LatchCore

extension AdminService {
    /// The service as `latchd admin` uses it: the application's database and services, actor `console`.
    public static func console(on app: LatchApplication, language: LatchLanguage) -> AdminService {
        AdminService(
            latch: app.latch, database: app.db, actor: .console, ip: nil, language: language,
            deletion: AccountDeletion(application: app))
    }
}
