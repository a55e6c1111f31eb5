#!/bin/bash
# Fuzzes LatchCore's CBOR decoder and authenticator-data parser with libFuzzer (issue 13).
#   scripts/fuzz/cbor.sh [SECONDS]     (default 60; needs a Swift toolchain with -sanitize=fuzzer, i.e. Linux)
# Builds the decoder's sources (standard library only) with the target in CBORFuzzTarget.swift into
# .build/fuzz/cbor, seeds the corpus with RFC 8949 Appendix A items and a WebAuthn-shaped attestation
# object, and runs until SECONDS pass or a crash (then the crashing input is in .build/fuzz/).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-60}"
out=.build/fuzz
mkdir -p "$out/corpus"
core=Sources/LatchCore/WebAuthn
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name CBORFuzz \
  "$core/CBORValue.swift" "$core/CBORError.swift" "$core/CBORDecoder.swift" "$core/CBOREncoder.swift" \
  "$core/AuthenticatorData.swift" scripts/fuzz/CBORFuzzTarget.swift -o "$out/cbor"
seed() { printf '%s' "$2" | xxd -r -p > "$out/corpus/$1"; }
seed uint 1b000000e8d4a51000
seed negative 3903e7
seed text 64f0908591
seed nested 8301820203820405
seed map a26161016162820203
seed bytes 4401020304
seed simple f4f5f6
seed attestation a363666d74646e6f6e656761747453746d74a068617574684461746158250000000000000000000000000000000000000000000000000000000000000000050000000
"$out/cbor" -max_total_time="$seconds" -max_len=4096 -artifact_prefix="$out/" "$out/corpus"
