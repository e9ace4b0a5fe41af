// What a new password must be beyond section 9's rule (14 characters with a letter and a digit,
// checked by the contract): not a common or breached password, not built from the user's own
// username or name, not the bank's or its products' names, and not a repetition or sequence. Each
// refusal says why, so the user can choose better (NIST SP 800-63B 3.1.1.2 asks for exactly this:
// check against breached, dictionary, repetitive and context-specific words, and tell the reason).
//
// Passwords are compared in normalised forms, so decoration does not hide a weak core:
// "Password12345678!" is "password" with digits around it, "P@55w0rd-P@55w0rd" is "password"
// twice, "L0ans-2026-L0ans" contains the product name "loans".
import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { Database, Identity } from '../db/schema';
import { messages } from '../../contract/fields';

export const PASSWORD_COMMON_MESSAGE =
  'This password is too common and easy to guess. Choose a less predictable password.';
export const PASSWORD_PERSONAL_MESSAGE = 'The password must not contain your username or name.';
export const PASSWORD_BRAND_MESSAGE = 'The password must not contain the name of the bank or its products.';
export const PASSWORD_PREDICTABLE_MESSAGE =
  'The password is too predictable (repeated or sequential characters). Choose a less predictable password.';
export const PASSWORD_SAME_MESSAGE = 'The new password must be different from your current password.';
/** The same words the forms show before sending (src/contract/fields.ts). */
export const PASSWORD_MISMATCH_MESSAGE = messages.passwordMismatch;

/** The portal's own name, always blocked whatever the configuration adds. */
const PORTAL_NAMES = ['identity portal'];
/** Words shorter than this are too common inside other words to block by containment. */
const MIN_CONTAINED_TERM = 4;

let commonPasswords: ReadonlySet<string> | undefined;

/** The shipped list (src/server/data/common-passwords.txt: its header names its source). */
export function loadCommonPasswords(): ReadonlySet<string> {
  if (!commonPasswords) {
    const text = readFileSync(new URL('../data/common-passwords.txt', import.meta.url), 'utf8');
    commonPasswords = new Set(
      text
        .split('\n')
        .map((line) => line.trim().toLowerCase())
        .filter((line) => line !== '' && !line.startsWith('#')),
    );
  }
  return commonPasswords;
}

const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '!': 'i',
  '3': 'e',
  '4': 'a',
  '@': 'a',
  '5': 's',
  $: 's',
  '7': 't',
  '+': 't',
  '8': 'b',
  '9': 'g',
};
const unleet = (s: string) => [...s].map((c) => LEET[c] ?? c).join('');
const lettersOnly = (s: string) => s.replace(/[^\p{L}]/gu, '');
const alphanumeric = (s: string) => s.replace(/[^\p{L}\p{N}]/gu, '');
/** Without leading and trailing digits and symbols: the word people decorate. */
const core = (s: string) => s.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');

/** The smallest unit `s` is a repetition of (at least twice), or null. */
function repeatedUnit(s: string): string | null {
  for (let size = 1; size <= s.length / 2; size++) {
    if (s.length % size !== 0) continue;
    const unit = s.slice(0, size);
    if (unit.repeat(s.length / size) === s) return unit;
  }
  return null;
}

const SEQUENCES = ['abcdefghijklmnopqrstuvwxyz', 'qwertyuiopasdfghjklzxcvbnm', '01234567890'];
function isSequence(s: string): boolean {
  if (s.length < 4) return false;
  const reversed = [...s].reverse().join('');
  return SEQUENCES.some((seq) => seq.includes(s) || seq.includes(reversed));
}

export interface PasswordContext {
  username: string;
  name: string | null;
  email: string | null;
}

/** The reason a new password cannot be used, or null when it can. Pure: terms are given. */
export function passwordRefusal(
  password: string,
  context: PasswordContext,
  blockedTerms: readonly string[],
  common: ReadonlySet<string> = loadCommonPasswords(),
): string | null {
  const lower = password.normalize('NFKC').toLowerCase();

  // Personal words first: the reason is the most specific one.
  const username = alphanumeric(context.username.toLowerCase());
  const emailLocal = alphanumeric((context.email ?? '').split('@')[0]!.toLowerCase());
  const plain = alphanumeric(lower);
  const unleeted = lettersOnly(unleet(lower));
  if (username.length >= 3 && plain.includes(username)) return PASSWORD_PERSONAL_MESSAGE;
  if (emailLocal.length >= MIN_CONTAINED_TERM && plain.includes(emailLocal)) return PASSWORD_PERSONAL_MESSAGE;
  const nameParts = (context.name ?? '')
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((part) => part.length >= MIN_CONTAINED_TERM);
  if (nameParts.some((part) => unleeted.includes(part) || plain.includes(part)))
    return PASSWORD_PERSONAL_MESSAGE;

  const terms = [...PORTAL_NAMES, ...blockedTerms]
    .map((term) => lettersOnly(term.toLowerCase()))
    .filter((term) => term.length >= MIN_CONTAINED_TERM);
  if (terms.some((term) => unleeted.includes(term) || lettersOnly(lower).includes(term)))
    return PASSWORD_BRAND_MESSAGE;

  // The forms a guesser tries: as typed, without decoration, un-leeted, letters only, and the
  // unit of any of them that is a repetition.
  const forms = new Set<string>();
  for (const value of [lower, plain, unleet(lower), unleet(plain)]) {
    forms.add(value);
    forms.add(core(value));
    const letters = lettersOnly(value);
    if (letters.length >= MIN_CONTAINED_TERM) forms.add(letters);
  }
  const units = [...forms].map(repeatedUnit).filter((u): u is string => u !== null);
  for (const unit of units) forms.add(unit);
  forms.delete('');
  if ([...forms].some((form) => common.has(form))) return PASSWORD_COMMON_MESSAGE;

  if (new Set(lower).size < 5) return PASSWORD_PREDICTABLE_MESSAGE;
  if (units.some((unit) => unit.length <= 4)) return PASSWORD_PREDICTABLE_MESSAGE;
  const letters = lettersOnly(lower);
  const digits = lower.replace(/\D/g, '');
  if (isSequence(plain) || (isSequence(letters) && (digits.length <= 4 || isSequence(digits))))
    return PASSWORD_PREDICTABLE_MESSAGE;
  return null;
}

/** Names of the bank's realms and applications, and the configured extra terms. */
export async function blockedTermsOf(db: Kysely<Database>, configured: readonly string[]): Promise<string[]> {
  const [realms, apps] = await Promise.all([
    db.selectFrom('realms').select(['code', 'name']).execute(),
    db.selectFrom('apps').select(['code', 'name']).execute(),
  ]);
  return [
    ...realms.flatMap((r) => [r.code, r.name]),
    ...apps.flatMap((a) => [a.code, a.name]),
    ...configured,
  ];
}

export class PasswordPolicy {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly configuredTerms: readonly string[],
  ) {}

  async refusal(
    password: string,
    identity: Pick<Identity, 'username' | 'name' | 'email'>,
  ): Promise<string | null> {
    return passwordRefusal(
      password,
      { username: identity.username, name: identity.name, email: identity.email },
      await blockedTermsOf(this.db, this.configuredTerms),
    );
  }
}
