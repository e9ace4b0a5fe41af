// The browser suite runs against the production build: build it when it is missing.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

if (!existsSync('dist/portal/index.html')) {
  console.log('dist/portal is missing: running npm run build');
  execSync('npm run build', { stdio: 'inherit' });
}
