// Hand-pinned transitions of the admin's roles lists machine (/admin/roles): both option lists kept
// as the server gives them (READ_ONLY and VIEW_ACCESS_REQUESTS disabled), loaded once, and a failed
// load shown with its reason (or the fallback) until a retry loads them. No paging or filter.
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import {
  identityRolesMachine,
  ROLES_LOAD_FAILED,
} from '../../machines/admin/identity-roles/identity-roles.machine';
import type { AdminRoles } from '../../src/contract/admin';
import { ADMIN_ROLES } from '../model/admin-identities.model';
import { UNEXPECTED_FAILURE } from './access-requests.fixtures';
import { scripted, type Answer } from './admin-identities.fixtures';

function start(answers: Array<Answer<AdminRoles>>) {
  const calls: unknown[] = [];
  const actor = createActor(
    identityRolesMachine.provide({ actors: { loadRoles: scripted('roles', answers, calls) } }),
  ).start();
  return { actor, calls };
}

describe('admin roles lists machine', () => {
  it('loads both lists once and keeps them as given, the roles granted outside the portal disabled', async () => {
    const { actor, calls } = start([ADMIN_ROLES]);
    expect(actor.getSnapshot().value).toBe('loading');
    expect(actor.getSnapshot().context.roles).toBeNull();
    await waitFor(actor, (s) => s.matches('ready'));
    const { roles, errorMessage } = actor.getSnapshot().context;
    expect(errorMessage).toBeNull();
    expect(roles).toEqual(ADMIN_ROLES);
    for (const list of [roles?.samAdmin, roles?.accessRequestUser]) {
      expect(list?.filter((o) => o.disabled).map((o) => o.value)).toEqual([
        'READ_ONLY',
        'VIEW_ACCESS_REQUESTS',
      ]);
    }
    // Loaded, there is nothing to retry.
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('ready');
    expect(calls).toHaveLength(1);
  });

  it('shows why the load failed (or the fallback) until a retry loads the lists, then forgets it', async () => {
    const { actor, calls } = start([new Error(UNEXPECTED_FAILURE), new Error(''), ADMIN_ROLES]);
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context).toEqual({ roles: null, errorMessage: UNEXPECTED_FAILURE });
    actor.send({ type: 'user.retry' });
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.matches('failed') && calls.length === 2);
    expect(actor.getSnapshot().context.errorMessage).toBe(ROLES_LOAD_FAILED);
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toEqual({ roles: ADMIN_ROLES, errorMessage: null });
    expect(calls).toHaveLength(3);
  });
});
