// After `vite build`: a brotli (.br) and a gzip (.gz) copy next to each built script, stylesheet and
// SVG in dist/portal, which the server sends to browsers that accept them (@fastify/static's
// preCompressed, src/server/http/plugins/portal.ts). Compressed once here at the highest levels
// rather than on every request: the sign-in page's 490 KB framework chunk travels as some 130 KB.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = 'dist/portal';
const COMPRESSIBLE = /\.(js|css|svg)$/;

let raw = 0;
let brotli = 0;
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
  const file = join(entry.parentPath, entry.name);
  const content = readFileSync(file);
  const br = brotliCompressSync(content, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
    },
  });
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  raw += content.length;
  brotli += br.length;
}
console.log(
  `compressed dist/portal: ${(raw / 1024).toFixed(0)} KB of scripts, styles and SVG, ${(brotli / 1024).toFixed(0)} KB as brotli`,
);
