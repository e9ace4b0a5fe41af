// The browser suite runs against the production build: build it when it is missing, or when a
// source it is made from has changed since (else the suite would test yesterday's portal).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const OUTPUTS = ['dist/portal/index.html', 'dist/portal/sign-in.html', 'dist/server/main.mjs'];
const SOURCES = ['src', 'machines', 'scripts', 'index.html', 'vite.config.ts', 'package-lock.json'];

/** The newest modification time of a file, or of any file below a folder (0 when missing). */
function newest(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stats = statSync(entry);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = 0;
  for (const child of readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, child)));
  return latest;
}

function staleness(): string | null {
  const missing = OUTPUTS.find((output) => !existsSync(output));
  if (missing) return `${missing} is missing`;
  const built = Math.min(...OUTPUTS.map((output) => statSync(output).mtimeMs));
  const changed = SOURCES.find((source) => newest(source) > built);
  return changed ? `${changed} has changed since the last build` : null;
}

const reason = staleness();
if (reason) {
  console.log(`${reason}: running npm run build`);
  execSync('npm run build', { stdio: 'inherit' });
}
