import LatchCore

// Issue 23 §2: one vocabulary for the verification page and the API. The page's own names for the same
// things stay as deprecated aliases, so apps built on them keep compiling.

/// One way to pass a verification: the page uses LatchCore's `VerificationMethodKind` (the API's own
/// vocabulary, the same four cases and raw values).
@available(*, deprecated, renamed: "VerificationMethodKind")
public typealias VerificationMethod = VerificationMethodKind
