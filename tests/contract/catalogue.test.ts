// The catalogue as a whole: unique ids and routes, path parameters that match their schemas,
// bodies that refuse unknown fields.
import { describe, expect, it } from 'vitest';
import type { AnySchema, CallDef } from '../../src/contract';
import { issuesOf } from './helpers';
import {
  adminCalls,
  calls,
  forcedCalls,
  handoffCalls,
  mergeCalls,
  profileCalls,
  registrationCalls,
  resetCalls,
} from '../../src/contract';

const all = Object.entries(calls) as [string, CallDef][];

/** A strict object, possibly wrapped in a pipe (a cross-field check). */
function isStrictObject(schema: AnySchema): boolean {
  if (schema.type === 'strict_object') return true;
  const pipe = (schema as { pipe?: AnySchema[] }).pipe;
  return Array.isArray(pipe) && pipe[0] !== undefined && pipe[0] !== schema && isStrictObject(pipe[0]);
}

/** The schema type at the start of a (possibly piped) schema. */
function baseType(schema: AnySchema): string {
  const pipe = (schema as { pipe?: AnySchema[] }).pipe;
  return Array.isArray(pipe) && pipe[0] && pipe[0] !== schema ? baseType(pipe[0]) : schema.type;
}

describe('call catalogue', () => {
  it('keys every call by its id, and no id repeats', () => {
    for (const [key, call] of all) expect(call.id).toBe(key);
    const ids = all.map(([, call]) => call.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('keeps every group whole in the catalogue (no id is shadowed by another group)', () => {
    const groups = [
      handoffCalls,
      forcedCalls,
      mergeCalls,
      resetCalls,
      registrationCalls,
      profileCalls,
      adminCalls,
    ];
    const keys = groups.flatMap((group) => Object.keys(group));
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(calls).toHaveProperty(key);
  });

  it('has one call per method and path', () => {
    const routes = all.map(([, call]) => `${call.method} ${call.path.replace(/:[A-Za-z0-9]+/g, ':')}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('writes paths relative to /rest/ui/ (no leading or trailing slash, no spec braces)', () => {
    for (const [, call] of all) {
      expect(call.path, call.id).not.toMatch(/^\/|\/$|[{}?]/);
      expect(call.path, call.id).not.toMatch(/^rest\//);
    }
  });

  it('declares exactly the path parameters its path has', () => {
    for (const [, call] of all) {
      const placeholders = [...call.path.matchAll(/:([A-Za-z][A-Za-z0-9]*)/g)].map((m) => m[1]).sort();
      if (placeholders.length === 0) {
        expect(call.params, call.id).toBeUndefined();
        continue;
      }
      expect(call.params?.type, call.id).toBe('strict_object');
      const keys = Object.keys((call.params as unknown as { entries: object }).entries).sort();
      expect(keys, call.id).toEqual(placeholders);
    }
  });

  it('sends POST and PATCH bodies as strict objects or bare primitives; GET and DELETE send none', () => {
    for (const [, call] of all) {
      if (call.method === 'GET' || call.method === 'DELETE') {
        expect(call.body, call.id).toBeUndefined();
        continue;
      }
      if (call.body === undefined) continue;
      const ok = isStrictObject(call.body) || ['string', 'number', 'boolean'].includes(baseType(call.body));
      expect(ok, call.id).toBe(true);
    }
  });

  it('gives queries as strict objects', () => {
    for (const [, call] of all) {
      if (call.query !== undefined) expect(call.query.type, call.id).toBe('strict_object');
    }
  });

  it('treats anonymous/ paths, and only those, as anonymous', () => {
    for (const [, call] of all) expect(call.anonymous, call.id).toBe(call.path.startsWith('anonymous/'));
  });

  it('accepts 503 with a customer message on every resend', () => {
    const resends = all.filter(([, call]) => /\/send-(email|sms)$/.test(call.path));
    expect(resends.length).toBeGreaterThan(0);
    for (const [, call] of resends) {
      const schema = call.accepted[503];
      expect(schema, call.id).toBeDefined();
      expect(issuesOf(schema, { message: 'm', customerMessage: 'SMS down' }), call.id).toEqual([]);
      expect(issuesOf(schema, { message: 'm' }).length, call.id).toBeGreaterThan(0);
    }
  });

  it('has every code call under each prefix of section 7', () => {
    const prefixes = [
      'forced-actions/factor-enrolment',
      'forced-actions/merge-identities',
      'forced-actions/mfa',
      'anonymous/password-reset',
    ];
    const suffixes = ['send-email', 'send-sms', 'verify-email', 'verify-mobile', 'verify-authenticator-app'];
    const posts = new Set(all.filter(([, c]) => c.method === 'POST').map(([, c]) => c.path));
    for (const prefix of prefixes)
      for (const s of suffixes) expect(posts, `${prefix}/${s}`).toContain(`${prefix}/${s}`);
    for (const path of [
      'profile/change-email/send-email',
      'profile/change-email/verify-email',
      'profile/change-mobile/send-sms',
      'profile/change-mobile/verify-mobile',
      'anonymous/registration/send-sms',
      'anonymous/registration/verify-mobile',
      'anonymous/registration/verify-authenticator-app',
    ])
      expect(posts, path).toContain(path);
  });

  it('takes trustDevice on the MFA verify calls only', () => {
    const verifies = all.filter(([, call]) => /\/verify-(email|mobile|authenticator-app)$/.test(call.path));
    expect(verifies.length).toBe(4 * 3 + 2 + 2);
    for (const [, call] of verifies) {
      const withTrust = issuesOf(call.body, { code: '123456', trustDevice: true });
      const isMfa = call.path.startsWith('forced-actions/mfa/');
      expect(withTrust, call.id).toEqual(isMfa ? [] : expect.arrayContaining([expect.any(String)]));
      expect(issuesOf(call.body, { code: '123456' }), call.id).toEqual([]);
      expect(issuesOf(call.body, { code: '' }), call.id).toEqual(['Required field']);
    }
  });
});
