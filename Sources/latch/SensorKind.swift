import ArgumentParser
import LatchClient

/// `--sensor face-id|touch-id`: the simulated sensor's kind.
enum SensorKind: String, CaseIterable, ExpressibleByArgument, Sendable {
    case faceID = "face-id"
    case touchID = "touch-id"

    var biometry: BiometryKind {
        switch self {
        case .faceID: .faceID
        case .touchID: .touchID
        }
    }
}
