#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`): every connection, database connection, SMTP session
/// and file is one descriptor of it. When it runs out, `open()` fails everywhere at once: Foundation's
/// `UUID()` then returns all zeros (it reads `/dev/urandom`), and libdispatch's worker monitor, which
/// opens `/proc/<tid>/stat` every second, crashes the process ("workq: registered worker exited
/// prematurely", SIGILL) — what one client holding 400 connections did to latchd (issue 41 §3 E-X1).
/// `ConnectionLimits` keeps connections below it.
public enum OpenFileLimit {
    /// The soft limit now; nil when it cannot be read or is unlimited.
    public static var current: Int? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft limit to the hard limit (as far as the system allows), and answers the soft limit
    /// in force afterwards (nil: unlimited or unreadable). latchd does this once at start.
    @discardableResult
    public static func raiseToHardLimit() -> Int? {
        var limit = rlimit()
        guard getrlimit(Self.resource, &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            #if canImport(Darwin)
                // macOS refuses more than OPEN_MAX for the soft limit, whatever the hard limit says.
                raised.rlim_cur = min(raised.rlim_cur, rlim_t(OPEN_MAX))
            #endif
            _ = setrlimit(Self.resource, &raised)
        }
        return current
    }

    #if canImport(Glibc)
        private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resource = RLIMIT_NOFILE
    #endif
}
