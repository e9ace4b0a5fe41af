// A small baseline JPEG encoder (ITU T.81, sequential DCT, Huffman tables of Annex K, 4:4:4).
// Written for captcha images: jpeg-js rebuilds its 64K-entry tables on every call (~40 ms), which
// would stall the event loop on each /captcha.jpg; here every table is built once per process.

const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7,
  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46,
  53, 60, 61, 54, 47, 55, 62, 63,
];

// Annex K.1: example quantisation tables (natural order).
const LUMA_QUANT = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22,
  29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103,
  121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];
const CHROMA_QUANT = [
  17,
  18,
  24,
  47,
  99,
  99,
  99,
  99,
  18,
  21,
  26,
  66,
  99,
  99,
  99,
  99,
  24,
  26,
  56,
  99,
  99,
  99,
  99,
  99,
  47,
  66,
  99,
  99,
  99,
  99,
  99,
  99,
  ...Array<number>(32).fill(99),
];

// Annex K.3: typical Huffman tables (code counts per length 1..16, then symbols).
const DC_LUMA_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_CHROMA_BITS = [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0];
const DC_VALUES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const AC_LUMA_BITS = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d];
const AC_LUMA_VALUES = [
  0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71,
  0x14, 0x32, 0x81, 0x91, 0xa1, 0x08, 0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72,
  0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x34, 0x35, 0x36, 0x37,
  0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59,
  0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83,
  0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3,
  0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3,
  0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
  0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
];
const AC_CHROMA_BITS = [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77];
const AC_CHROMA_VALUES = [
  0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13, 0x22,
  0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1,
  0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x35, 0x36,
  0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
  0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a,
  0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a,
  0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba,
  0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda,
  0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa,
];

interface HuffmanTable {
  codes: Uint16Array;
  lengths: Uint8Array;
}

/** Canonical codes from counts per length (T.81 Annex C). */
function buildHuffman(bits: readonly number[], values: readonly number[]): HuffmanTable {
  const codes = new Uint16Array(256);
  const lengths = new Uint8Array(256);
  let code = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    for (let i = 0; i < bits[len - 1]!; i++) {
      const symbol = values[k++]!;
      codes[symbol] = code++;
      lengths[symbol] = len;
    }
    code <<= 1;
  }
  return { codes, lengths };
}

const DC_LUMA = buildHuffman(DC_LUMA_BITS, DC_VALUES);
const DC_CHROMA = buildHuffman(DC_CHROMA_BITS, DC_VALUES);
const AC_LUMA = buildHuffman(AC_LUMA_BITS, AC_LUMA_VALUES);
const AC_CHROMA = buildHuffman(AC_CHROMA_BITS, AC_CHROMA_VALUES);

/** cos((2x+1)u*pi/16) * C(u) / 2, indexed [u*8 + x]. */
const DCT_BASIS = (() => {
  const table = new Float64Array(64);
  for (let u = 0; u < 8; u++) {
    const cu = u === 0 ? Math.SQRT1_2 : 1;
    for (let x = 0; x < 8; x++) table[u * 8 + x] = (cu / 2) * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
  }
  return table;
})();

function scaledQuant(base: readonly number[], quality: number): Uint8Array {
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const scale = q < 50 ? 5000 / q : 200 - 2 * q;
  return Uint8Array.from(base, (b) => Math.min(255, Math.max(1, Math.floor((b * scale + 50) / 100))));
}

class ByteWriter {
  buf = Buffer.alloc(16 * 1024);
  pos = 0;
  #acc = 0;
  #bits = 0;
  byte(b: number) {
    if (this.pos === this.buf.length) {
      const next = Buffer.alloc(this.buf.length * 2);
      this.buf.copy(next);
      this.buf = next;
    }
    this.buf[this.pos++] = b;
  }
  word(w: number) {
    this.byte((w >> 8) & 0xff);
    this.byte(w & 0xff);
  }
  bytes(list: ArrayLike<number>) {
    for (let i = 0; i < list.length; i++) this.byte(list[i]!);
  }
  /** Entropy-coded bits, most significant first, with 0xFF byte stuffing. */
  bits(value: number, count: number) {
    for (let i = count - 1; i >= 0; i--) {
      this.#acc = (this.#acc << 1) | ((value >> i) & 1);
      if (++this.#bits === 8) {
        this.byte(this.#acc);
        if (this.#acc === 0xff) this.byte(0);
        this.#acc = 0;
        this.#bits = 0;
      }
    }
  }
  /** Pads the last byte with 1-bits. */
  flushBits() {
    if (this.#bits > 0) this.bits((1 << (8 - this.#bits)) - 1, 8 - this.#bits);
  }
}

function bitLength(v: number): number {
  let n = 0;
  let a = Math.abs(v);
  while (a > 0) {
    n++;
    a >>= 1;
  }
  return n;
}

function writeSegment(out: ByteWriter, marker: number, body: number[]) {
  out.word(marker);
  out.word(body.length + 2);
  out.bytes(body);
}

/**
 * Encodes RGBA pixels (alpha ignored) as a baseline JPEG.
 * `quality` follows the IJG convention (1..100).
 */
export function encodeJpeg(rgba: Uint8Array, width: number, height: number, quality = 75): Buffer {
  if (rgba.length < width * height * 4) throw new RangeError('Pixel buffer too small');
  const qLuma = scaledQuant(LUMA_QUANT, quality);
  const qChroma = scaledQuant(CHROMA_QUANT, quality);
  const out = new ByteWriter();

  out.word(0xffd8);
  writeSegment(out, 0xffe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  writeSegment(out, 0xffdb, [0x00, ...ZIGZAG.map((i) => qLuma[i]!), 0x01, ...ZIGZAG.map((i) => qChroma[i]!)]);
  writeSegment(out, 0xffc0, [
    8,
    (height >> 8) & 0xff,
    height & 0xff,
    (width >> 8) & 0xff,
    width & 0xff,
    3,
    1,
    0x11,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ]);
  writeSegment(out, 0xffc4, [
    0x00,
    ...DC_LUMA_BITS,
    ...DC_VALUES,
    0x10,
    ...AC_LUMA_BITS,
    ...AC_LUMA_VALUES,
    0x01,
    ...DC_CHROMA_BITS,
    ...DC_VALUES,
    0x11,
    ...AC_CHROMA_BITS,
    ...AC_CHROMA_VALUES,
  ]);
  writeSegment(out, 0xffda, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]);

  const Y = new Float64Array(64);
  const Cb = new Float64Array(64);
  const Cr = new Float64Array(64);
  const tmp = new Float64Array(64);
  const coeffs = new Int32Array(64);
  const prevDc = [0, 0, 0];

  const encodeBlock = (
    block: Float64Array,
    quant: Uint8Array,
    dc: HuffmanTable,
    ac: HuffmanTable,
    component: number,
  ) => {
    // Separable 2-D DCT: rows then columns.
    for (let y = 0; y < 8; y++) {
      for (let u = 0; u < 8; u++) {
        let s = 0;
        for (let x = 0; x < 8; x++) s += block[y * 8 + x]! * DCT_BASIS[u * 8 + x]!;
        tmp[y * 8 + u] = s;
      }
    }
    for (let u = 0; u < 8; u++) {
      for (let v = 0; v < 8; v++) {
        let s = 0;
        for (let y = 0; y < 8; y++) s += tmp[y * 8 + u]! * DCT_BASIS[v * 8 + y]!;
        const natural = v * 8 + u;
        coeffs[natural] = Math.round(s / quant[natural]!);
      }
    }
    const diff = coeffs[0]! - prevDc[component]!;
    prevDc[component] = coeffs[0]!;
    const dcSize = bitLength(diff);
    out.bits(dc.codes[dcSize]!, dc.lengths[dcSize]!);
    if (dcSize > 0) out.bits(diff < 0 ? diff + (1 << dcSize) - 1 : diff, dcSize);
    let run = 0;
    for (let k = 1; k < 64; k++) {
      const c = coeffs[ZIGZAG[k]!]!;
      if (c === 0) {
        run++;
        continue;
      }
      while (run > 15) {
        out.bits(ac.codes[0xf0]!, ac.lengths[0xf0]!);
        run -= 16;
      }
      const size = bitLength(c);
      const symbol = (run << 4) | size;
      out.bits(ac.codes[symbol]!, ac.lengths[symbol]!);
      out.bits(c < 0 ? c + (1 << size) - 1 : c, size);
      run = 0;
    }
    if (run > 0) out.bits(ac.codes[0x00]!, ac.lengths[0x00]!);
  };

  for (let by = 0; by < height; by += 8) {
    for (let bx = 0; bx < width; bx += 8) {
      for (let y = 0; y < 8; y++) {
        const py = Math.min(by + y, height - 1);
        for (let x = 0; x < 8; x++) {
          const px = Math.min(bx + x, width - 1);
          const i = (py * width + px) * 4;
          const r = rgba[i]!;
          const g = rgba[i + 1]!;
          const b = rgba[i + 2]!;
          const j = y * 8 + x;
          Y[j] = 0.299 * r + 0.587 * g + 0.114 * b - 128;
          Cb[j] = -0.168736 * r - 0.331264 * g + 0.5 * b;
          Cr[j] = 0.5 * r - 0.418688 * g - 0.081312 * b;
        }
      }
      encodeBlock(Y, qLuma, DC_LUMA, AC_LUMA, 0);
      encodeBlock(Cb, qChroma, DC_CHROMA, AC_CHROMA, 1);
      encodeBlock(Cr, qChroma, DC_CHROMA, AC_CHROMA, 2);
    }
  }
  out.flushBits();
  out.word(0xffd9);
  return Buffer.from(out.buf.subarray(0, out.pos));
}
