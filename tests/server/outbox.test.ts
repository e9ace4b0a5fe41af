// Email and SMS transports: the dev outbox (/dev/outbox, HTML and JSON, shared through the
// database), real SMTP (a minimal SMTP server in the test), a real HTTP SMS gateway (a local HTTP
// server), and production, where the outbox does not exist and unconfigured transports answer 503.
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EMAIL_UNAVAILABLE_CUSTOMER_MESSAGE,
  EMAIL_UNAVAILABLE_MESSAGE,
  SMS_UNAVAILABLE_CUSTOMER_MESSAGE,
  SMS_UNAVAILABLE_MESSAGE,
} from '../../src/server/domain/factors/messages';
import { NOT_FOUND_MESSAGE } from '../../src/server/domain/messages';
import { startServer, type TestServer } from './support/server';
import { targets } from './support/targets';
import { latestCode, outbox, post, signInToStep, type Json } from './support/factors';

/** Just enough SMTP (RFC 5321) for nodemailer to hand over messages: no TLS, no auth. */
async function startSmtp(): Promise<{
  port: number;
  messages: Array<{ to: string[]; data: string }>;
  close(): Promise<void>;
}> {
  const messages: Array<{ to: string[]; data: string }> = [];
  const server: Server = createTcpServer((socket) => {
    let buffer = '';
    let inData = false;
    let to: string[] = [];
    let data = '';
    socket.write('220 test.local ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            messages.push({ to, data });
            to = [];
            data = '';
            socket.write('250 2.0.0 queued\r\n');
          } else data += (line.startsWith('..') ? line.slice(1) : line) + '\n';
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') socket.write('250-test.local\r\n250 8BITMIME\r\n');
        else if (verb === 'HELO') socket.write('250 test.local\r\n');
        else if (verb === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          socket.write('250 2.1.5 OK\r\n');
        } else if (verb === 'MAIL' || verb === 'RSET' || verb === 'NOOP') socket.write('250 2.0.0 OK\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.write('221 2.0.0 bye\r\n');
          socket.end();
        } else socket.write('502 5.5.2 not implemented\r\n');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An SMS gateway that records each JSON POST and answers `status`. */
async function startGateway() {
  const received: Array<{ authorization: string | undefined; body: { to: string; message: string } }> = [];
  const state = { status: 202 };
  const server = createHttpServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      if (request.method === 'POST' && request.headers['content-type'] === 'application/json') {
        received.push({
          authorization: request.headers.authorization,
          body: JSON.parse(body) as { to: string; message: string },
        });
      }
      response.writeHead(state.status, { 'content-type': 'application/json' }).end('{"id":"msg-1"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/messages`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(targets)('dev outbox on $name', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists what was sent, newest first, as JSON, filtered by recipient and channel', async () => {
    const client = server.client();
    await signInToStep(client, 'C10003', 'FACTOR_ENROLMENT');
    const sms = server.client();
    await signInToStep(sms, 'C10005', 'MFA');
    await post(sms, 'forced-actions/mfa/start');

    const all = await outbox(client);
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all.map((m) => m.id)).toEqual([...all.map((m) => m.id)].sort((a, b) => b - a));
    const [email] = await outbox(client, '?to=C10003@Example.com');
    expect(email).toEqual({
      id: expect.any(Number),
      channel: 'EMAIL',
      to: 'c10003@example.com',
      subject: 'Your verification code',
      text: expect.stringContaining(email!.code!),
      code: expect.stringMatching(/^\d{6}$/),
      sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // Mobiles match with or without their spaces.
    const texts = await outbox(client, '?to=%2B61400000005&channel=SMS');
    expect(texts.length).toBe(1);
    expect(texts[0]).toMatchObject({ channel: 'SMS', to: '+61 400 000 005', subject: null });
    expect(await outbox(client, '?channel=sms&limit=1')).toHaveLength(1);
    expect(await latestCode(client, '+61 400 000 005')).toBe(texts[0]!.code);

    const bad = await client.get<Json>('/dev/outbox?channel=PIGEON', {
      headers: { accept: 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect((await client.get('/dev/outbox?limit=0')).status).toBe(400);
  });

  it('shows an HTML page to browsers, escaping what it shows', async () => {
    const client = server.client();
    await signInToStep(client, 'C10003', 'FACTOR_ENROLMENT');
    await server.app.services.factors.outbox.record({
      channel: 'EMAIL',
      to: 'x@example.com',
      subject: '<script>alert(1)</script>',
      text: 'a & b',
      code: null,
    });
    const res = await client.get('/dev/outbox');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.text).toContain('<h1>Dev outbox</h1>');
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.text).not.toContain('<script>');
    expect(res.text).toContain('a &amp; b');
    const code = await latestCode(client, 'c10003@example.com');
    expect(res.text).toContain(code);
    // The page's style carries the request's CSP nonce.
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce).toBeDefined();
    expect(res.text).toContain(`<style nonce="${nonce}">`);
  });
});

describe.each(targets)('production transports on $name', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(target, { env: { NODE_ENV: 'production', SEED_DEMO: 'true' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('has no dev outbox', async () => {
    const client = server.client();
    for (const accept of ['application/json', 'text/html']) {
      const res = await client.get('/dev/outbox', { headers: { accept } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: NOT_FOUND_MESSAGE });
    }
  });

  it('answers 503 for email and SMS codes when no SMTP server or gateway is configured', async () => {
    const client = server.client();
    await signInToStep(client, 'C10003', 'FACTOR_ENROLMENT');
    const email = await post(client, 'forced-actions/factor-enrolment/send-email');
    expect(email.status).toBe(503);
    expect(email.body).toEqual({
      message: EMAIL_UNAVAILABLE_MESSAGE,
      customerMessage: EMAIL_UNAVAILABLE_CUSTOMER_MESSAGE,
    });
    expect(await server.db.selectFrom('outbox_messages').selectAll().execute()).toEqual([]);

    const sms = server.client();
    await signInToStep(sms, 'C10005', 'MFA');
    expect((await post(sms, 'forced-actions/mfa/start')).body).toEqual({
      nextFactor: 'EMAIL',
      smsUnavailableMessage: SMS_UNAVAILABLE_MESSAGE,
    });
    const resend = await post(sms, 'forced-actions/mfa/send-sms');
    expect(resend.status).toBe(503);
    expect(resend.body).toEqual({
      message: SMS_UNAVAILABLE_MESSAGE,
      customerMessage: SMS_UNAVAILABLE_CUSTOMER_MESSAGE,
    });
  });
});

describe.each(targets)('SMTP and the SMS gateway on $name', (target) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    gateway = await startGateway();
    server = await startServer(target, {
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Bank Portal <codes@bank.example>',
        SMS_GATEWAY_URL: gateway.url,
        SMS_GATEWAY_TOKEN: 'gateway-secret',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
    await gateway?.close();
  });

  it('sends the email code over SMTP, and it verifies', async () => {
    const client = server.client();
    await signInToStep(client, 'C10003', 'FACTOR_ENROLMENT');
    expect(smtp.messages).toHaveLength(1);
    const [message] = smtp.messages;
    expect(message!.to).toEqual(['c10003@example.com']);
    expect(message!.data).toMatch(/^From: Bank Portal <codes@bank\.example>$/m);
    expect(message!.data).toMatch(/^Subject: Your verification code$/m);
    const code = /verification code is (\d{6})/.exec(message!.data)?.[1];
    expect(code).toBeDefined();
    expect((await post(client, 'forced-actions/factor-enrolment/verify-email', { code })).status).toBe(204);
    // Nothing went to the outbox, and with both transports real there is none to show.
    expect(await server.db.selectFrom('outbox_messages').selectAll().execute()).toEqual([]);
    expect((await client.get('/dev/outbox')).status).toBe(404);
  });

  it('posts the SMS code to the gateway as JSON with the bearer token, and it verifies', async () => {
    const client = server.client();
    await signInToStep(client, 'C10005', 'MFA');
    expect((await post(client, 'forced-actions/mfa/start')).body).toMatchObject({ nextFactor: 'SMS' });
    const sent = gateway.received.at(-1)!;
    expect(sent.authorization).toBe('Bearer gateway-secret');
    expect(sent.body.to).toBe('+61400000005');
    const code = /verification code is (\d{6})/.exec(sent.body.message)?.[1];
    expect((await post(client, 'forced-actions/mfa/verify-mobile', { code })).body).toMatchObject({
      outcome: 'DIRECT_LOGIN',
    });
  });

  it('falls back to email when the gateway refuses the message, and a resend answers 503', async () => {
    gateway.state.status = 500;
    try {
      const client = server.client();
      await signInToStep(client, 'C10005', 'MFA');
      expect((await post(client, 'forced-actions/mfa/start')).body).toEqual({
        nextFactor: 'EMAIL',
        smsUnavailableMessage: SMS_UNAVAILABLE_MESSAGE,
      });
      const resend = await post(client, 'forced-actions/mfa/send-sms');
      expect(resend.status).toBe(503);
      expect(resend.body).toMatchObject({ customerMessage: SMS_UNAVAILABLE_CUSTOMER_MESSAGE });
    } finally {
      gateway.state.status = 202;
    }
  });
});
