// A small HTTP client with a cookie jar of its own for the crash driver (plain fetch, real sockets).
// It keeps its cookies across server restarts: the sessions live in the database, so a browser
// that was mid-operation when the server died carries on with the same cookies.
import { hashSessionToken } from '../../src/server/domain/sessions';

export const API = '/rest/ui/';

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
  text: string;
}

export class CrashClient {
  readonly cookies = new Map<string, string>();
  baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  /** SHA-256 of every cookie value: the session rows this browser can reach have one of them. */
  cookieHashes(): string[] {
    return [...this.cookies.values()].map(hashSessionToken);
  }

  async request<T = Record<string, unknown>>(
    method: string,
    path: string,
    json?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> {
    const sent: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest', ...headers };
    let body: string | undefined;
    if (json !== undefined) {
      body = JSON.stringify(json);
      sent['content-type'] = 'application/json';
    }
    if (this.cookies.size > 0) sent.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(this.baseUrl + path, { method, headers: sent, body, redirect: 'manual' });
    const text = await response.text();
    for (const line of response.headers.getSetCookie()) this.#store(line);
    let parsed: unknown;
    if ((response.headers.get('content-type') ?? '').includes('application/json') && text.length > 0) {
      parsed = JSON.parse(text);
    }
    return { status: response.status, body: parsed as T, text };
  }

  post<T = Record<string, unknown>>(path: string, json?: unknown) {
    return this.request<T>('POST', `${API}${path}`, json);
  }

  get<T = Record<string, unknown>>(path: string) {
    return this.request<T>('GET', `${API}${path}`);
  }

  login(username: string, password: string) {
    return this.post<{ outcome?: string; forcedAction?: string; message?: string }>('anonymous/login', {
      username,
      password,
    });
  }

  /** Draws a captcha so that the session holds a challenge (answered by CAPTCHA_FIXED_ANSWER). */
  async captcha(): Promise<void> {
    const image = await this.request('GET', `/captcha.jpg?${Date.now()}`);
    expectStatus('captcha image', image, 200);
  }

  /** The latest code sent to `to`, waiting for sends that run after the answer. */
  async latestCode(to: string, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await this.request<{ messages: Array<{ code: string | null }> }>(
        'GET',
        `/dev/outbox?to=${encodeURIComponent(to)}&limit=1`,
        undefined,
        { accept: 'application/json' },
      );
      expectStatus('dev outbox', res, 200);
      const code = res.body.messages[0]?.code;
      if (code) return code;
      if (Date.now() > deadline) throw new Error(`No code in the outbox for ${to}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  #store(line: string) {
    const [pair, ...attributes] = line.split(';').map((s) => s.trim());
    if (!pair) return;
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const expired = attributes.some((a) => {
      const [k, v] = a.split('=');
      if (k?.toLowerCase() === 'max-age') return Number(v) <= 0;
      if (k?.toLowerCase() === 'expires') return new Date(v ?? '').getTime() <= Date.now();
      return false;
    });
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

export function expectStatus(what: string, reply: Reply<unknown>, ...statuses: number[]): void {
  if (!statuses.includes(reply.status)) {
    throw new Error(
      `${what}: expected ${statuses.join(' or ')}, got ${reply.status} ${reply.text.slice(0, 300)}`,
    );
  }
}
