// Configuration: defaults, validation, and the production rules.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, readPackageVersion } from '../../src/server/config';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.resolve('./.data'),
      pgliteDir: path.resolve('./.data/pglite'),
      databaseUrl: null,
      databasePoolSize: 10,
      databaseStatementTimeoutMs: 15_000,
      publicUrl: 'http://localhost:8080',
      nodeEnv: 'development',
      isProduction: false,
      captchaFixedAnswer: null,
      sessionIdleMinutes: 30,
      sessionAbsoluteHours: 12,
      logLevel: 'info',
      trustProxy: false,
      portalDist: path.resolve('dist/portal'),
      seedDemo: true,
      appVersion: readPackageVersion(),
      dataEncryptionKey: null,
      secureCookies: false,
    });
  });

  it('reads every variable', () => {
    const key = Buffer.alloc(32, 1).toString('base64');
    const config = loadConfig({
      PORT: '9000',
      HOST: '127.0.0.1',
      DATA_DIR: '/tmp/portal-data',
      DATABASE_URL: 'postgres://app:secret@db:5432/portal',
      DATABASE_STATEMENT_TIMEOUT_MS: '30000',
      PUBLIC_URL: 'https://sso.example.com/',
      NODE_ENV: 'test',
      CAPTCHA_FIXED_ANSWER: 'ABCDE',
      SESSION_IDLE_MINUTES: '15',
      SESSION_ABSOLUTE_HOURS: '8',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '10.0.0.0/8, 192.168.1.1',
      PORTAL_DIST: '/srv/portal',
      SEED_DEMO: 'false',
      APP_VERSION: '2.0.0',
      DATA_ENCRYPTION_KEY: key,
      RATE_LIMIT_PER_MINUTE: '100',
      LOGIN_RATE_LIMIT_PER_MINUTE: '10',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/tmp/portal-data',
      databaseUrl: 'postgres://app:secret@db:5432/portal',
      databaseStatementTimeoutMs: 30_000,
      publicUrl: 'https://sso.example.com',
      nodeEnv: 'test',
      captchaFixedAnswer: 'ABCDE',
      sessionIdleMinutes: 15,
      sessionAbsoluteHours: 8,
      logLevel: 'warn',
      trustProxy: ['10.0.0.0/8', '192.168.1.1'],
      portalDist: '/srv/portal',
      seedDemo: false,
      appVersion: '2.0.0',
      rateLimitPerMinute: 100,
      loginRateLimitPerMinute: 10,
      secureCookies: true,
    });
    expect(config.dataEncryptionKey?.equals(Buffer.alloc(32, 1))).toBe(true);
  });

  it('is silent by default in tests and honours TRUST_PROXY forms', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).logLevel).toBe('silent');
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  it('never honours CAPTCHA_FIXED_ANSWER in production', () => {
    const config = loadConfig({ NODE_ENV: 'production', CAPTCHA_FIXED_ANSWER: 'ABCDE' });
    expect(config.isProduction).toBe(true);
    expect(config.captchaFixedAnswer).toBeNull();
  });

  it('seeds the demo data set (an admin with a published password) in production only when told to', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' })).toMatchObject({ databaseUrl: null, port: 8080 });
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        NODE_ENV: 'staging',
        DATABASE_URL: 'mysql://db',
        PUBLIC_URL: 'not a url',
        SEED_DEMO: 'maybe',
        SESSION_IDLE_MINUTES: '0',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of [
      'PORT',
      'NODE_ENV',
      'DATABASE_URL',
      'PUBLIC_URL',
      'SEED_DEMO',
      'SESSION_IDLE_MINUTES',
    ]) {
      expect(problems).toContain(name);
    }
  });

  it('does not start in the default mode on an address others can reach', () => {
    // The default (development) serves one-time codes at /dev/outbox and seeds the demo admin.
    expect(() => loadConfig({ PUBLIC_URL: 'https://sso.example.com' })).toThrow(/NODE_ENV must be set/);
    expect(() => loadConfig({ PUBLIC_URL: 'http://10.1.2.3:8080', NODE_ENV: '' })).toThrow(ConfigError);
    // On this machine, or with the mode said in so many words, it does.
    for (const url of ['http://localhost:8080', 'http://127.0.0.1:9000', 'http://[::1]:8080'])
      expect(loadConfig({ PUBLIC_URL: url }).nodeEnv).toBe('development');
    expect(loadConfig({ PUBLIC_URL: 'https://sso.example.com', NODE_ENV: 'production' }).isProduction).toBe(
      true,
    );
    expect(loadConfig({ PUBLIC_URL: 'https://sso.example.com', NODE_ENV: 'development' }).nodeEnv).toBe(
      'development',
    );
  });

  it('refuses a data key that is not 32 bytes', () => {
    expect(() => loadConfig({ DATA_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') })).toThrow(
      ConfigError,
    );
  });
});
