// `npm run invite -- --email x --app LOANS --facility F001 [...]`: creates an invitation and sends
// the invitation email (with its one-time code and the registration link) through the configured
// mail transport: SMTP_URL, else the dev outbox at /dev/outbox (outside production). The code is
// stored only as its hash, so the email is where it lives; a failed send removes the invitation.
//
// With the embedded database (no DATABASE_URL) the server must not be running: PGlite is one
// process's database. The command checks PUBLIC_URL/health and refuses while it answers.
import { parseArgs } from 'node:util';
import type { Kysely } from 'kysely';
import { systemClock, type Clock } from '../src/server/adapters/clock';
import {
  outboxMailSender,
  smtpMailSender,
  unconfiguredMailSender,
  type MailSender,
} from '../src/server/adapters/mail';
import { Outbox } from '../src/server/adapters/outbox';
import { cryptoRandom, type Random } from '../src/server/adapters/random';
import type { Database } from '../src/server/db/schema';
import { runWhenMain } from './support/database-command';
import {
  createInvitation,
  INVITATION_DEFAULT_VALIDITY_DAYS,
  InvitationError,
  sendInvitationEmail,
  type CreatedInvitation,
  type NewInvitationInput,
} from '../src/server/domain/registration/invitations';

export const INVITE_USAGE = `Usage: npm run invite -- --email <address> --app <APP> [options]

  --email <address>          the invitee's email address (the invitation is bound to it)
  --app <APP>                application code, e.g. LOANS
  --facility <CODE>          facility of the application, e.g. F001
  --role <NAME[:TYPE:SCOPE]> a role shown to the invitee; repeat for more
  --existing <USERNAME>      add the facility to this existing account instead of a new one
  --customer-number <C99999> the customer's number (new accounts)
  --name <full name>         the invitee's name
  --birth-date <YYYY-MM-DD>  the invitee's date of birth
  --username <username>      a fixed username (otherwise the invitee chooses one)
  --mobile <+61 ...>         the invitee's mobile
  --staff                    the invitee is staff
  --days <n>                 days until the invitation expires (default ${INVITATION_DEFAULT_VALIDITY_DAYS})
  --print-code               also print the invitation code here`;

export interface InviteCommandDeps {
  db: Kysely<Database>;
  clock: Clock;
  random: Random;
  mail: MailSender;
  publicUrl: string;
  out: (line: string) => void;
}

/** The invitation the arguments describe; throws InvitationError (with the usage) when they do not. */
export function parseInviteArgs(argv: string[]): { input: NewInvitationInput; printCode: boolean } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        email: { type: 'string' },
        app: { type: 'string' },
        facility: { type: 'string' },
        role: { type: 'string', multiple: true },
        existing: { type: 'string' },
        'customer-number': { type: 'string' },
        name: { type: 'string' },
        'birth-date': { type: 'string' },
        username: { type: 'string' },
        mobile: { type: 'string' },
        staff: { type: 'boolean' },
        days: { type: 'string' },
        'print-code': { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new InvitationError(`${error instanceof Error ? error.message : String(error)}\n\n${INVITE_USAGE}`);
  }
  if (!values.email || !values.app)
    throw new InvitationError(`--email and --app are required.\n\n${INVITE_USAGE}`);
  const days = values.days === undefined ? INVITATION_DEFAULT_VALIDITY_DAYS : Number(values.days);
  return {
    printCode: values['print-code'] === true,
    input: {
      email: values.email,
      appCode: values.app,
      facilityCode: values.facility ?? null,
      roles: (values.role ?? []).map((role) => {
        const [name = '', scopeType, ...scope] = role.split(':');
        return { name, scopeType: scopeType || null, scope: scope.length > 0 ? scope.join(':') : null };
      }),
      customerNumber: values['customer-number'] ?? null,
      name: values.name ?? null,
      birthDate: values['birth-date'] ?? null,
      username: values.username ?? null,
      mobile: values.mobile ?? null,
      isStaff: values.staff === true,
      existingUsername: values.existing ?? null,
      validityDays: days,
    },
  };
}

/** The option that sets each field of the invitation, for the refusals that name a field. */
const OPTION_OF_FIELD: Record<string, string> = {
  email: '--email',
  appCode: '--app',
  facilityCode: '--facility',
  roles: '--role',
  customerNumber: '--customer-number',
  name: '--name',
  birthDate: '--birth-date',
  username: '--username',
  mobile: '--mobile',
  isStaff: '--staff',
  existingUsername: '--existing',
  validityDays: '--days',
};

/** Creates the invitation and sends its email; removes it again when the email cannot be sent. */
export async function runInviteCommand(argv: string[], deps: InviteCommandDeps): Promise<CreatedInvitation> {
  const { input, printCode } = parseInviteArgs(argv);
  let created: CreatedInvitation;
  try {
    created = await createInvitation(deps, input);
  } catch (error) {
    // A refusal at a field says which option to correct: '--customer-number: Must be in the form C99999'.
    if (error instanceof InvitationError && error.field) {
      const field = error.field.fieldName.split('.')[0] ?? '';
      throw new InvitationError(`${OPTION_OF_FIELD[field] ?? error.field.fieldName}: ${error.message}`);
    }
    throw error;
  }
  try {
    await sendInvitationEmail(deps.mail, created, deps.publicUrl);
  } catch (error) {
    await deps.db.deleteFrom('invitations').where('id', '=', created.id).execute();
    throw new InvitationError(
      `The invitation email could not be sent (${error instanceof Error ? error.message : String(error)}); no invitation was created.`,
    );
  }
  deps.out(
    `Invitation ${created.id} sent to ${created.email} for ${created.productName}` +
      `${created.facility ? ` (${created.facility})` : ''}${created.existingAccount ? ', existing account' : ''}; ` +
      `expires ${created.expiresAt.toISOString()}.`,
  );
  if (deps.mail.kind === 'outbox') deps.out('The email is in the dev outbox: /dev/outbox');
  if (printCode) deps.out(`Invitation code: ${created.code}`);
  return created;
}

runWhenMain(import.meta.url, {
  usage: INVITE_USAGE,
  usageError: InvitationError,
  checkArgs: (argv) => void parseInviteArgs(argv),
  busyAdvice: 'Stop it first, or use DATABASE_URL.',
  async run(argv, database, config) {
    const mail = config.smtpUrl
      ? smtpMailSender(config.smtpUrl, config.mailFrom)
      : config.isProduction
        ? unconfiguredMailSender
        : outboxMailSender(new Outbox(database.db, systemClock));
    await runInviteCommand(argv, {
      db: database.db,
      clock: systemClock,
      random: cryptoRandom,
      mail,
      publicUrl: config.publicUrl,
      out: (line) => console.log(line),
    });
  },
});
