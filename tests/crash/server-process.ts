// The real server as a child process (the bundle `npm start` runs, scripts/server-bundle.ts, as
// the browser suite's global setup starts it), started on a given data directory and database, and ended by
// SIGKILL (the crash) or SIGTERM (the graceful stop at the end).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { serverArgs } from '../../scripts/server-bundle';

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

const START_TIMEOUT_MS = 120_000;

export class ServerProcess {
  #child: ChildProcess | null = null;
  #output = '';
  readonly baseUrl: string;

  constructor(
    readonly port: number,
    readonly env: Record<string, string>,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
  }

  get running(): boolean {
    return this.#child !== null;
  }

  /** What the current (or last) process wrote. */
  get output(): string {
    return this.#output;
  }

  /**
   * Starts the server and waits until /health and /ready answer 200. A start that exits, does not
   * answer in time or logs an error (pino level 50 or 60) while starting is not clean: it throws.
   * Answers the milliseconds it took.
   */
  async start(): Promise<number> {
    if (this.#child) throw new Error('The server is already running');
    const started = performance.now();
    this.#output = '';
    const child = spawn(process.execPath, await serverArgs(), {
      env: { ...process.env, ...this.env, PORT: String(this.port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    child.stdout?.on('data', (chunk: Buffer) => (this.#output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.#output += chunk.toString()));
    child.once('exit', () => {
      if (this.#child === child) this.#child = null;
    });
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (const path of ['/health', '/ready']) {
      for (;;) {
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(
            `The server exited while starting (${child.exitCode ?? child.signalCode}):\n${this.#output}`,
          );
        }
        try {
          const response = await fetch(`${this.baseUrl}${path}`);
          if (response.ok) break;
          if (path === '/ready' && Date.now() > deadline) {
            throw new Error(`/ready answered ${response.status}: ${await response.text()}`);
          }
        } catch (error) {
          if (error instanceof Error && error.message.startsWith('/ready')) throw error;
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`The server did not answer ${path}:\n${this.#output}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    if (/"level":(50|60)/.test(this.#output)) {
      throw new Error(`The server logged an error while starting:\n${this.#output}`);
    }
    return performance.now() - started;
  }

  /** SIGKILL: no handler runs, nothing is flushed. */
  async kill(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.#child = null;
  }

  /** SIGTERM: the graceful shutdown; it must exit with code 0. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await exited;
    clearTimeout(timer);
    this.#child = null;
    if (code !== 0) throw new Error(`The server's graceful stop exited with ${code}:\n${this.#output}`);
  }
}
