// libFuzzer target for LatchCore's strict CBOR decoder and authenticator-data parser (issue 13).
// Built by scripts/fuzz/cbor.sh together with the decoder's own sources (they need only the
// standard library). Properties checked on every input:
// - decoding never crashes, whatever the bytes (depth, length and truncation are errors);
// - whatever decodes re-encodes to exactly the same bytes (the decoder accepts only the shortest,
//   definite-length form, and keeps map order), so two encodings never mean the same item;
// - `decodePrefix` agrees with `decode` and never claims more bytes than it was given;
// - parsing the bytes as authenticator data never crashes.

@_cdecl("LLVMFuzzerTestOneInput")
public func cborFuzzTarget(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let value = try? CBORDecoder.decode(bytes) {
        precondition(CBOREncoder.encode(value) == bytes, "a decoded item re-encodes to other bytes")
    }
    if let (value, length) = try? CBORDecoder.decodePrefix(bytes) {
        precondition(length > 0 && length <= bytes.count, "decodePrefix claims \(length) of \(bytes.count) bytes")
        precondition((try? CBORDecoder.decode(bytes[..<length])) == value, "decodePrefix and decode disagree")
    }
    _ = try? AuthenticatorData(bytes: bytes)
    return 0
}
