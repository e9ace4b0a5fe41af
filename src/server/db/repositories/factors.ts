// Enrolled factors, security answers and the per-account failure count that wrong codes share
// with wrong passwords.
import { sql, type Kysely } from 'kysely';
import type { Database, FactorKind } from '../schema';
import { noteChange } from '../../observability/context';

export interface FactorRow {
  id: string;
  factor_type: FactorKind;
  mobile: string | null;
  secret_sealed: string | null;
  last_used_step: number | null;
}

export async function factorsOf(db: Kysely<Database>, identityId: string): Promise<FactorRow[]> {
  return db
    .selectFrom('identity_factors')
    .select(['id', 'factor_type', 'mobile', 'secret_sealed', 'last_used_step'])
    .where('identity_id', '=', identityId)
    .execute();
}

/** The identity's factor types and whether both security answers are set, in one round trip. */
export async function enrolmentOf(
  db: Kysely<Database>,
  identityId: string,
): Promise<{ factors: FactorKind[]; securityAnswers: number }> {
  const row = await sql<{ factors: FactorKind[] | null; answers: number }>`
    select
      array(select f.factor_type from identity_factors f where f.identity_id = ${identityId}::uuid
            order by f.factor_type) as factors,
      (select count(*)::int from security_answers a where a.identity_id = ${identityId}::uuid) as answers
  `.execute(db);
  const first = row.rows[0];
  return { factors: first?.factors ?? [], securityAnswers: first?.answers ?? 0 };
}

/**
 * Accepts a TOTP step for the factor only if it is later than the last accepted one, in one
 * statement: of any number of concurrent submissions of one code, exactly one wins.
 */
export async function claimTotpStep(db: Kysely<Database>, factorId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('identity_factors')
    .set({ last_used_step: step })
    .where('id', '=', factorId)
    .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Adds the factor, or replaces the identity's factor of that type (a new secret starts unused). */
export async function putFactor(
  db: Kysely<Database>,
  input: {
    id: string;
    identityId: string;
    type: FactorKind;
    mobile: string | null;
    secretSealed: string | null;
    lastUsedStep?: number | null;
    now: Date;
  },
): Promise<void> {
  await db
    .insertInto('identity_factors')
    .values({
      id: input.id,
      identity_id: input.identityId,
      factor_type: input.type,
      mobile: input.mobile,
      secret_sealed: input.secretSealed,
      enrolled_at: input.now,
      last_used_step: input.lastUsedStep ?? null,
    })
    .onConflict((oc) =>
      oc.columns(['identity_id', 'factor_type']).doUpdateSet({
        mobile: input.mobile,
        secret_sealed: input.secretSealed,
        enrolled_at: input.now,
        last_used_step: input.lastUsedStep ?? null,
      }),
    )
    .execute();
  noteChange({
    event: 'FACTOR_ENROLLED',
    fields: { identityId: input.identityId, factorType: input.type },
    committed: async (read) =>
      (await read
        .selectFrom('identity_factors')
        .select('id')
        .where('identity_id', '=', input.identityId)
        .where('factor_type', '=', input.type)
        .where('enrolled_at', '=', input.now)
        .executeTakeFirst()) !== undefined,
  });
}

export async function removeFactor(
  db: Kysely<Database>,
  identityId: string,
  type: FactorKind,
): Promise<boolean> {
  const result = await db
    .deleteFrom('identity_factors')
    .where('identity_id', '=', identityId)
    .where('factor_type', '=', type)
    .executeTakeFirst();
  const removed = Number(result.numDeletedRows) > 0;
  if (removed) {
    noteChange({
      event: 'FACTOR_REMOVED',
      fields: { identityId, factorType: type },
      committed: async (read) =>
        (await read
          .selectFrom('identity_factors')
          .select('id')
          .where('identity_id', '=', identityId)
          .where('factor_type', '=', type)
          .executeTakeFirst()) === undefined,
    });
  }
  return removed;
}

export interface SecurityAnswerRow {
  position: number;
  question_code: string;
  answer_hash: string;
}

export async function securityAnswersOf(
  db: Kysely<Database>,
  identityId: string,
): Promise<SecurityAnswerRow[]> {
  return db
    .selectFrom('security_answers')
    .select(['position', 'question_code', 'answer_hash'])
    .where('identity_id', '=', identityId)
    .orderBy('position')
    .execute();
}

/** Replaces both answers. */
export async function putSecurityAnswers(
  db: Kysely<Database>,
  identityId: string,
  answers: ReadonlyArray<{ position: 1 | 2; questionCode: string; answerHash: string }>,
  now: Date,
): Promise<void> {
  await db.deleteFrom('security_answers').where('identity_id', '=', identityId).execute();
  await db
    .insertInto('security_answers')
    .values(
      answers.map((a) => ({
        identity_id: identityId,
        position: a.position,
        question_code: a.questionCode,
        answer_hash: a.answerHash,
        set_at: now,
      })),
    )
    .execute();
  noteChange({
    event: 'SECURITY_ANSWERS_SET',
    fields: { identityId },
    committed: async (read) =>
      (await read
        .selectFrom('security_answers')
        .select('position')
        .where('identity_id', '=', identityId)
        .where('set_at', '=', now)
        .executeTakeFirst()) !== undefined,
  });
}

export async function passwordHashOf(db: Kysely<Database>, identityId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('credentials')
    .select('password_hash')
    .where('identity_id', '=', identityId)
    .executeTakeFirst();
  return row?.password_hash;
}
