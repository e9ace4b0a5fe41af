// After `vite build`: the gzip size of the JS and CSS the sign-in page loads (entry, its static
// imports, and the lazily loaded sign-in route with its imports), checked against the budget.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 170;
const dist = 'dist/portal';
const manifestPath = join(dist, '.vite/manifest.json');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

if (!existsSync(manifestPath)) {
  console.error(`No ${manifestPath}: run vite build with build.manifest enabled.`);
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;

const files = new Set<string>();
const visit = (key: string): void => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) visit(imported);
};

const entries = Object.keys(manifest).filter((k) => manifest[k]?.isEntry);
entries.forEach(visit);
const signInKey = Object.keys(manifest).find((k) => k.endsWith('flows/sign-in/SignInPage.tsx'));
if (signInKey) visit(signInKey);
else console.warn('The sign-in route is not a separate chunk: counting the entry only.');

let total = 0;
const rows = [...files].sort().map((file) => {
  const gz = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += gz;
  return `  ${(gz / 1024).toFixed(1).padStart(7)} KB  ${file}`;
});
console.log('Sign-in page, gzip:');
console.log(rows.join('\n'));
const totalKb = total / 1024;
console.log(`  ${totalKb.toFixed(1).padStart(7)} KB  total (budget ${BUDGET_KB} KB; ${total} bytes)`);
if (totalKb > BUDGET_KB) {
  console.error(`Over budget by ${(totalKb - BUDGET_KB).toFixed(1)} KB.`);
  process.exit(1);
}
