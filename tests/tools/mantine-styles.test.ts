// Mantine's CSS is imported per component (app/styles.ts for the first page, each page for its
// extras). A component used where its CSS is not loaded renders unstyled (a merge checkbox once
// showed as a bare black tick until the MFA page had been visited), so every component a file uses
// must have its stylesheet imported globally or in the same flow or area.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'src/client'])
  .toString()
  .trim()
  .split('\n')
  .filter((f) => /\.tsx?$/.test(f));

/** A flow (src/client/flows/<flow>, or flows/forced/<step>), else the file's folder. */
const areaOf = (file: string): string => {
  const parts = file.split('/');
  if (parts[2] === 'flows') return parts.slice(0, parts[3] === 'forced' ? 5 : 4).join('/');
  return parts.slice(0, -1).join('/');
};

const stylesheetsIn = (source: string) =>
  [...source.matchAll(/@mantine\/core\/styles\/([A-Za-z]+)\.css/g)].map((m) => m[1]!);

describe('Mantine stylesheets', () => {
  it('are loaded wherever their component is used', () => {
    const global = new Set(stylesheetsIn(readFileSync('src/client/app/styles.ts', 'utf8')));
    const byArea = new Map<string, Set<string>>();
    for (const file of files) {
      const area = areaOf(file);
      for (const name of stylesheetsIn(readFileSync(file, 'utf8'))) {
        if (!byArea.has(area)) byArea.set(area, new Set());
        byArea.get(area)!.add(name);
      }
    }
    const missing: string[] = [];
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      for (const m of source.matchAll(/import\s*\{([^}]+)\}\s*from\s*'@mantine\/core'/g)) {
        for (const raw of m[1]!.split(',')) {
          const name = raw
            .trim()
            .replace(/^type\s+/, '')
            .split(' as ')[0]!;
          if (!/^[A-Z]/.test(name)) continue;
          if (!existsSync(`node_modules/@mantine/core/styles/${name}.css`)) continue;
          if (global.has(name) || byArea.get(areaOf(file))?.has(name)) continue;
          missing.push(`${file}: ${name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
