// The account page's QR code encoder (issue 43 §3), written by hand for this page: the project allows no
// QR library, and the page loads nothing from another origin (CSP default-src 'none', script-src 'self'),
// so it cannot use a hosted one either. It implements ISO/IEC 18004 for what the page needs: byte mode
// (UTF-8, with the UTF-8 ECI when the text is not ASCII), versions 1–40, error correction level M, Reed–Solomon over GF(256), all eight masks chosen by
// the standard's penalty rules (N1–N4), format and version information. `qrMatrix` is pure (no DOM, so
// scripts/browser/qr_decode_test.py runs it under node and reads every symbol back with zbarimg);
// `qrSVG` draws a matrix as an SVG element with the quiet zone of 4 modules.

const EC_M_CODEWORDS_PER_BLOCK = [0,
  10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
  26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28];
const EC_M_BLOCKS = [0,
  1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
  17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49];
const FORMAT_EC_M = 0; // the two error-correction bits of level M in the format information

/** How many modules of a version-`version` symbol hold data and error correction (all but the patterns). */
function rawDataModules(version) {
  let modules = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const alignments = Math.floor(version / 7) + 2;
    modules -= (25 * alignments - 10) * alignments - 55;
    if (version >= 7) modules -= 36;
  }
  return modules;
}

function dataCodewords(version) {
  return Math.floor(rawDataModules(version) / 8) - EC_M_CODEWORDS_PER_BLOCK[version] * EC_M_BLOCKS[version];
}

/** The centres of the alignment patterns on each axis. */
function alignmentPositions(version) {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const size = version * 4 + 17;
  const step = Math.floor((version * 8 + count * 3 + 5) / (count * 4 - 4)) * 2;
  const positions = [6];
  for (let position = size - 7; positions.length < count; position -= step) positions.splice(1, 0, position);
  return positions;
}

// MARK: Reed–Solomon over GF(256), polynomial x^8 + x^4 + x^3 + x^2 + 1

const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
for (let i = 0, value = 1; i < 255; i++) {
  EXP[i] = value;
  LOG[value] = i;
  value <<= 1;
  if (value & 0x100) value ^= 0x11d;
}
for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255];

function multiply(a, b) { return a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]]; }

/** The generator polynomial (x − α^0)…(x − α^(degree−1)), leading 1 left out, highest power first. */
function generator(degree) {
  let poly = [1];
  for (let i = 0; i < degree; i++) {
    const next = new Array(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j++) {
      next[j] ^= poly[j];
      next[j + 1] ^= multiply(poly[j], EXP[i]);
    }
    poly = next;
  }
  return poly.slice(1);
}

/** The `degree` error-correction codewords of `data` (the remainder of data·x^degree by the generator). */
function reedSolomon(data, degree) {
  const divisor = generator(degree);
  const remainder = new Array(degree).fill(0);
  for (const byte of data) {
    const factor = byte ^ remainder.shift();
    remainder.push(0);
    for (let i = 0; i < degree; i++) remainder[i] ^= multiply(divisor[i], factor);
  }
  return remainder;
}

// MARK: Codewords

/** Whether `bytes` need the UTF-8 ECI: byte mode means ISO-8859-1 to a decoder unless told otherwise. */
function needsECI(bytes) { return bytes.some((byte) => byte >= 0x80); }

/** The bits of the segments of `bytes` at `version`: the UTF-8 ECI when needed, mode, count, data. */
function segmentLength(bytes, version) {
  return (needsECI(bytes) ? 12 : 0) + 4 + (version <= 9 ? 8 : 16) + bytes.length * 8;
}

/**
 * The data codewords for `bytes` in byte mode at `version`: ECI 26 (UTF-8) when a byte is not ASCII,
 * mode, count, data, terminator, padding.
 */
function dataBits(bytes, version) {
  const capacity = dataCodewords(version) * 8;
  const bits = [];
  const put = (value, length) => { for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
  if (needsECI(bytes)) {
    put(0b0111, 4);
    put(26, 8);
  }
  put(0b0100, 4);
  put(bytes.length, version <= 9 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - bits.length % 8) % 8);
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
  const codewords = [];
  for (let i = 0; i < bits.length; i += 8) codewords.push(bits.slice(i, i + 8).reduce((sum, bit) => sum * 2 + bit, 0));
  return codewords;
}

/** The data split into blocks, each with its error correction, interleaved as the symbol holds them. */
function interleaved(data, version) {
  const blocks = EC_M_BLOCKS[version];
  const ecLength = EC_M_CODEWORDS_PER_BLOCK[version];
  const raw = Math.floor(rawDataModules(version) / 8);
  const shortBlocks = blocks - raw % blocks;
  const shortLength = Math.floor(raw / blocks) - ecLength; // data codewords in a short block
  const dataBlocks = [];
  const ecBlocks = [];
  for (let i = 0, offset = 0; i < blocks; i++) {
    const length = shortLength + (i < shortBlocks ? 0 : 1);
    const block = data.slice(offset, offset + length);
    offset += length;
    dataBlocks.push(block);
    ecBlocks.push(reedSolomon(block, ecLength));
  }
  const result = [];
  for (let i = 0; i <= shortLength; i++) {
    for (const block of dataBlocks) if (i < block.length) result.push(block[i]);
  }
  for (let i = 0; i < ecLength; i++) for (const block of ecBlocks) result.push(block[i]);
  return result;
}

// MARK: The symbol

const MASKS = [
  (x, y) => (x + y) % 2 === 0,
  (x, y) => y % 2 === 0,
  (x, y) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => (x * y) % 2 + (x * y) % 3 === 0,
  (x, y) => ((x * y) % 2 + (x * y) % 3) % 2 === 0,
  (x, y) => ((x + y) % 2 + (x * y) % 3) % 2 === 0,
];

class Symbol {
  constructor(version) {
    this.version = version;
    this.size = version * 4 + 17;
    this.dark = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.reserved = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }

  set(x, y, dark) {
    this.dark[y][x] = dark;
    this.reserved[y][x] = true;
  }

  drawPatterns() {
    const size = this.size;
    for (let i = 0; i < size; i++) {
      this.set(6, i, i % 2 === 0);
      this.set(i, 6, i % 2 === 0);
    }
    for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
      for (let dy = -4; dy <= 4; dy++) {
        for (let dx = -4; dx <= 4; dx++) {
          const x = cx + dx, y = cy + dy;
          if (x < 0 || y < 0 || x >= size || y >= size) continue;
          const ring = Math.max(Math.abs(dx), Math.abs(dy));
          this.set(x, y, ring !== 2 && ring !== 4);
        }
      }
    }
    const positions = alignmentPositions(this.version);
    const last = positions.length - 1;
    positions.forEach((cx, i) => positions.forEach((cy, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) this.set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      }
    }));
    this.drawFormat(0); // reserves the format areas; drawn again with the chosen mask
    this.drawVersion();
  }

  /** Format information: level M and `mask`, BCH(15,5) with generator 0x537, XOR 0x5412; both copies. */
  drawFormat(mask) {
    const data = (FORMAT_EC_M << 3) | mask;
    let remainder = data;
    for (let i = 0; i < 10; i++) remainder = (remainder << 1) ^ ((remainder >>> 9) * 0x537);
    const bits = ((data << 10) | remainder) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) === 1;
    const size = this.size;
    for (let i = 0; i <= 5; i++) this.set(8, i, bit(i));
    this.set(8, 7, bit(6));
    this.set(8, 8, bit(7));
    this.set(7, 8, bit(8));
    for (let i = 9; i < 15; i++) this.set(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i++) this.set(size - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i++) this.set(8, size - 15 + i, bit(i));
    this.set(8, size - 8, true); // the dark module
  }

  /** Version information (versions 7 and up): BCH(18,6) with generator 0x1F25, in both corners. */
  drawVersion() {
    if (this.version < 7) return;
    let remainder = this.version;
    for (let i = 0; i < 12; i++) remainder = (remainder << 1) ^ ((remainder >>> 11) * 0x1f25);
    const bits = (this.version << 12) | remainder;
    for (let i = 0; i < 18; i++) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = this.size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      this.set(a, b, dark);
      this.set(b, a, dark);
    }
  }

  /** The codewords' bits in the two-column zigzag from the bottom right, skipping the timing column. */
  drawCodewords(codewords) {
    let i = 0;
    const total = codewords.length * 8;
    for (let right = this.size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      const upward = ((right + 1) & 2) === 0;
      for (let step = 0; step < this.size; step++) {
        const y = upward ? this.size - 1 - step : step;
        for (let j = 0; j < 2; j++) {
          const x = right - j;
          if (this.reserved[y][x]) continue;
          this.dark[y][x] = i < total && ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
          i++;
        }
      }
    }
  }

  applyMask(mask) {
    const test = MASKS[mask];
    for (let y = 0; y < this.size; y++) {
      for (let x = 0; x < this.size; x++) if (!this.reserved[y][x] && test(x, y)) this.dark[y][x] = !this.dark[y][x];
    }
  }

  /** The standard's penalty (ISO/IEC 18004 §7.8.3): runs, 2×2 blocks, finder-like patterns, balance. */
  penalty() {
    const size = this.size;
    const dark = this.dark;
    let score = 0;
    const lines = [];
    for (let i = 0; i < size; i++) {
      lines.push(dark[i]);
      lines.push(dark.map((row) => row[i]));
    }
    for (const line of lines) {
      // N1: five or more alike in a row: 3, plus 1 for each more.
      let run = 1;
      for (let i = 1; i <= size; i++) {
        if (i < size && line[i] === line[i - 1]) { run++; continue; }
        if (run >= 5) score += run - 2;
        run = 1;
      }
      // N3: dark-light-dark×3-light-dark (1:1:3:1:1) with four light modules on one side (outside is light).
      const at = (i) => i >= 0 && i < size && line[i];
      for (let i = -4; i < size + 4; i++) {
        if (!(at(i) && !at(i + 1) && at(i + 2) && at(i + 3) && at(i + 4) && !at(i + 5) && at(i + 6))) continue;
        const lightBefore = !at(i - 1) && !at(i - 2) && !at(i - 3) && !at(i - 4);
        const lightAfter = !at(i + 7) && !at(i + 8) && !at(i + 9) && !at(i + 10);
        if (lightBefore) score += 40;
        if (lightAfter) score += 40;
      }
    }
    // N2: each 2×2 block of one colour: 3.
    for (let y = 0; y < size - 1; y++) {
      for (let x = 0; x < size - 1; x++) {
        const c = dark[y][x];
        if (c === dark[y][x + 1] && c === dark[y + 1][x] && c === dark[y + 1][x + 1]) score += 3;
      }
    }
    // N4: 10 for each full 5 % the dark share is away from 50 %.
    let darkCount = 0;
    for (const row of dark) for (const module of row) if (module) darkCount++;
    const total = size * size;
    score += Math.floor(Math.abs(darkCount * 20 - total * 10) / total) * 10;
    return score;
  }
}

/**
 * The QR code of `text` (UTF-8, byte mode, level M) in the smallest version that holds it:
 * `{version, mask, size, dark}` with `dark[y][x]` true for a dark module. `options.mask` (0–7) forces a
 * mask (for the decoder test); otherwise the mask with the lowest penalty is used. Throws a RangeError
 * when the text is longer than version 40 holds (2,331 bytes).
 */
export function qrMatrix(text, options = {}) {
  const bytes = Array.from(new TextEncoder().encode(text));
  let version = 1;
  while (version <= 40 && segmentLength(bytes, version) > dataCodewords(version) * 8) version++;
  if (version > 40) throw new RangeError("text too long for a QR code");
  const codewords = interleaved(dataBits(bytes, version), version);
  const masks = options.mask === undefined ? [0, 1, 2, 3, 4, 5, 6, 7] : [options.mask];
  let best = null;
  for (const mask of masks) {
    const symbol = new Symbol(version);
    symbol.drawPatterns();
    symbol.drawCodewords(codewords);
    symbol.applyMask(mask);
    symbol.drawFormat(mask);
    const score = symbol.penalty();
    if (!best || score < best.score) best = { score, mask, symbol };
  }
  return { version, mask: best.mask, size: best.symbol.size, dark: best.symbol.dark };
}

const SVG = "http://www.w3.org/2000/svg";

/**
 * An `<svg role="img">` of `matrix` (from qrMatrix) in `document`: black modules of `scale` pixels on
 * white, with a quiet zone of 4 modules, labelled `label` for screen readers.
 */
export function qrSVG(document, matrix, label, scale = 5) {
  const side = matrix.size + 8;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.setAttribute("width", String(side * scale));
  svg.setAttribute("height", String(side * scale));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("shape-rendering", "crispEdges");
  const title = document.createElementNS(SVG, "title");
  title.textContent = label;
  const background = document.createElementNS(SVG, "rect");
  background.setAttribute("width", String(side));
  background.setAttribute("height", String(side));
  background.setAttribute("fill", "#fff");
  let d = "";
  matrix.dark.forEach((row, y) => row.forEach((dark, x) => { if (dark) d += `M${x + 4} ${y + 4}h1v1h-1z`; }));
  const modules = document.createElementNS(SVG, "path");
  modules.setAttribute("d", d);
  modules.setAttribute("fill", "#000");
  svg.append(title, background, modules);
  return svg;
}
