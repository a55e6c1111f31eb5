import LatchCore

extension LatchRequest {
    /// The signed-in session; only behind `RequireSignedIn` (`LatchRoutes.signedIn()`), else 401 AUTH_004.
    public var signedIn: SignedInSession {
        get throws {
            guard let session = context.caller.identity else { throw LatchError.sessionExpired }
            return session
        }
    }

    /// The signed-in session as a service's caller (issue 29 §1).
    var caller: Caller {
        get throws {
            let me = try signedIn
            return Caller(user: me.userID, session: me.sessionID, ip: clientIP, language: language)
        }
    }

    /// The client's IP address as latchd sees it (`RequestCaller.clientAddress`).
    var clientIP: String? { context.caller.clientAddress }

    /// The language of this request's answers, from `Accept-Language`.
    var language: LatchLanguage { context.caller.language }
}
