// LatchClient's public API speaks in LatchCore's types (UserInfo, LatchLanguage, LatchErrorCode,
// BiometryKind …): an app that imports LatchClient gets them too, without importing LatchCore.
@_exported import LatchCore
