import Crypto

/// A credential public key from its COSE_Key form (RFC 9052/9053), as authenticator data carries it.
///
/// Only what a relying party here accepts: EC2 P-256 for ES256 (`kty` 2, `alg` −7, `crv` 1, 32-byte
/// `x` and `y` on the curve) and RSA for RS256 (`kty` 3, `alg` −257, `n`, `e`). An RSA key stays as its
/// numbers: checking RS256 needs `_CryptoExtras`, which only the server links (the SDK stays free of it).
///
///     let key = try COSEPublicKey(cbor: CBORDecoder.decode(coseBytes))
public enum COSEPublicKey: Sendable {
    case es256(P256.Signing.PublicKey)
    case rs256(modulus: [UInt8], exponent: [UInt8])

    /// Why a COSE key is refused.
    public enum Failure: Error, Sendable, Equatable {
        /// Not a map, or a label missing or of the wrong type.
        case malformed(label: Int)
        /// A key type, algorithm or curve outside ES256 / RS256.
        case unsupportedAlgorithm
        /// The coordinates are not a point on P-256.
        case invalidPoint
    }

    /// COSE labels.
    private enum Label {
        static let kty = 1, alg = 3, crv = -1, x = -2, y = -3, n = -1, e = -2
    }

    /// The key in `cbor`, a COSE_Key map.
    public init(cbor: CBORValue) throws {
        guard cbor.mapEntries != nil else { throw Failure.malformed(label: 0) }
        guard let kty = cbor[label: Label.kty]?.integer else { throw Failure.malformed(label: Label.kty) }
        guard let alg = cbor[label: Label.alg]?.integer else { throw Failure.malformed(label: Label.alg) }
        switch (kty, COSEAlgorithm(rawValue: alg)) {
        case (2, .es256):
            guard cbor[label: Label.crv]?.integer == 1 else { throw Failure.unsupportedAlgorithm }
            guard let x = cbor[label: Label.x]?.byteString, x.count == 32 else {
                throw Failure.malformed(label: Label.x)
            }
            guard let y = cbor[label: Label.y]?.byteString, y.count == 32 else {
                throw Failure.malformed(label: Label.y)
            }
            guard let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y) else {
                throw Failure.invalidPoint
            }
            self = .es256(key)
        case (3, .rs256):
            guard let n = cbor[label: Label.n]?.byteString, !n.isEmpty else { throw Failure.malformed(label: Label.n) }
            guard let e = cbor[label: Label.e]?.byteString, !e.isEmpty else { throw Failure.malformed(label: Label.e) }
            self = .rs256(modulus: n, exponent: e)
        default:
            throw Failure.unsupportedAlgorithm
        }
    }

    /// The key's algorithm.
    public var algorithm: COSEAlgorithm {
        switch self {
        case .es256: .es256
        case .rs256: .rs256
        }
    }

    /// The COSE_Key map, labels in CTAP2 canonical order.
    public var cbor: CBORValue {
        switch self {
        case .es256(let key):
            let point = Array(key.x963Representation)
            return .map([
                CBORMapEntry(.int(Label.kty), .int(2)),
                CBORMapEntry(.int(Label.alg), .int(COSEAlgorithm.es256.rawValue)),
                CBORMapEntry(.int(Label.crv), .int(1)), CBORMapEntry(.int(Label.x), .bytes(Array(point[1...32]))),
                CBORMapEntry(.int(Label.y), .bytes(Array(point[33...64])))
            ])
        case .rs256(let modulus, let exponent):
            return .map([
                CBORMapEntry(.int(Label.kty), .int(3)),
                CBORMapEntry(.int(Label.alg), .int(COSEAlgorithm.rs256.rawValue)),
                CBORMapEntry(.int(Label.n), .bytes(modulus)), CBORMapEntry(.int(Label.e), .bytes(exponent))
            ])
        }
    }
}
