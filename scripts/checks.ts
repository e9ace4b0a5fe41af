// The static checks of `npm test`, side by side: types (tsc), lint (eslint) and format (prettier).
// Each is a script of package.json and needs nothing from the others, so on the 2-core CI machine
// they finish in the time of the longest instead of the sum (about 62 s one after another).
// Each one's output is printed whole once it ends, under its name; the exit code is 1 when any
// failed, and the failures are named last.
import { spawn } from 'node:child_process';

const CHECKS = ['typecheck', 'lint', 'format:check'] as const;

function run(name: string): Promise<{ name: string; passed: boolean }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${String(error)}\n`)));
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const text = Buffer.concat(output).toString('utf8').trimEnd();
      console.log(`--- ${name}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds.toFixed(1)} s`);
      if (text) console.log(text);
      resolve({ name, passed: code === 0 });
    });
  });
}

const outcomes = await Promise.all(CHECKS.map(run));
const failed = outcomes.filter((o) => !o.passed);
if (failed.length > 0) {
  console.error(`Checks failed: ${failed.map((o) => o.name).join(', ')}`);
  process.exitCode = 1;
}
