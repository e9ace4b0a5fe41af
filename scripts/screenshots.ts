// npm run screenshots: rebuilds the help-screenshot catalogue the user guide shows, from the built
// product in Chromium (see tests/e2e/support/screenshots.ts), into src/client/guide/screenshots/.
import { mkdirSync, statSync } from 'node:fs';
import { captureScreenshots, startPortal } from '../tests/e2e/support/screenshots';

const OUT_DIR = 'src/client/guide/screenshots';

mkdirSync(OUT_DIR, { recursive: true });
const portal = await startPortal();
try {
  const files = await captureScreenshots(portal.baseUrl, OUT_DIR);
  for (const file of files) console.log(`${file}  ${(statSync(file).size / 1024).toFixed(1)} KB`);
} finally {
  await portal.stop();
}
