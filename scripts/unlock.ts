// `npm run unlock -- <username>`: support lifts the lock that repeated failed passwords or codes
// put on an account (domain/lockout.ts), and forgets its failures and waits. Usernames are
// case-insensitive (C10001 and c10001 are one account). The unlock is written into the identity's
// history, with the System as the actor. A username without an identity is unlocked too (unknown
// usernames are counted and locked like known ones), and the command says so.
//
// With the embedded database (no DATABASE_URL) the server must not be running: PGlite is one
// process's database. The command checks PUBLIC_URL/health and refuses while it answers.
import type { Kysely } from 'kysely';
import { systemClock, type Clock } from '../src/server/adapters/clock';
import type { Database } from '../src/server/db/schema';
import { limits } from '../src/contract/fields';
import {
  Lockout,
  lockoutPolicyOf,
  UNLOCKED_BY_COMMAND_TEXT,
  usernameKeyer,
} from '../src/server/domain/lockout';
import { loadDataKey } from '../src/server/adapters/secret-box';
import { runWhenMain } from './support/database-command';

export const UNLOCK_USAGE = `Usage: npm run unlock -- <username>

  Lifts the lock of the account (any case: C10001 and c10001 are the same account) and forgets
  its failed passwords and codes, so it can sign in again at once.`;

export class UnlockUsageError extends Error {}

export interface UnlockCommandDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** The data key (DATA_ENCRYPTION_KEY or DATA_DIR/keys/data.key): failure rows are keyed by it. */
  dataKey: Buffer;
  out: (line: string) => void;
}

export function parseUnlockArgs(argv: string[]): string {
  const positional = argv.filter((a) => a !== '--');
  const [username, ...rest] = positional;
  if (!username || rest.length > 0 || username.startsWith('-')) throw new UnlockUsageError(UNLOCK_USAGE);
  const trimmed = username.trim();
  if (trimmed === '' || trimmed.length > limits.signInUsername)
    throw new UnlockUsageError(
      `The username must be 1 to ${limits.signInUsername} characters.\n\n${UNLOCK_USAGE}`,
    );
  return trimmed;
}

/** Unlocks the username; answers what it printed about it. */
export async function runUnlockCommand(
  argv: string[],
  deps: UnlockCommandDeps,
): Promise<{ username: string; wasLocked: boolean; identityId: string | null }> {
  const typed = parseUnlockArgs(argv);
  // The thresholds do not matter to an unlock; only the rows are touched.
  const lockout = new Lockout(
    deps.db,
    deps.clock,
    lockoutPolicyOf({ lockAfterFailures: 0, failureDelaySeconds: 0, failureDelayMaxSeconds: 0 }),
    usernameKeyer(deps.dataKey),
  );
  const identity = (await lockout.identityByUsername(typed)) ?? null;
  const result = await lockout.unlock({
    identity,
    username: typed,
    actorIdentityId: null,
    description: UNLOCKED_BY_COMMAND_TEXT,
  });
  const who = identity ? identity.username : `${result.username} (no account has this username)`;
  deps.out(
    result.wasLocked
      ? `Unlocked ${who}; its failed attempts are forgotten.`
      : `${who} was not locked; its failed attempts (if any) are forgotten.`,
  );
  return { ...result, identityId: identity?.id ?? null };
}

runWhenMain(import.meta.url, {
  usage: UNLOCK_USAGE,
  usageError: UnlockUsageError,
  checkArgs: (argv) => void parseUnlockArgs(argv),
  busyAdvice: 'Stop it first, use DATABASE_URL, or ask an administrator to unlock the account in the portal.',
  async run(argv, database, config) {
    await runUnlockCommand(argv, {
      db: database.db,
      clock: systemClock,
      dataKey: loadDataKey(config.dataEncryptionKey, config.dataDir),
      out: (line) => console.log(line),
    });
  },
});
