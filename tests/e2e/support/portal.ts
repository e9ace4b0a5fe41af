// The server of the calling browser-suite file: each file has its own (see global-setup.ts).
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import type { PortalAddresses } from './global-setup';

/** Call with `import.meta.url` of the test file. */
export function portalOf(testFileUrl: string): PortalAddresses {
  const file = basename(fileURLToPath(testFileUrl));
  const portal = inject('portals')[file];
  if (!portal) throw new Error(`No server was started for ${file}: is it named *.e2e.test.ts?`);
  return portal;
}
