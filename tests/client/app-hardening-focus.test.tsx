// WCAG 2.4.3 after a refusal with no field to point at: the button pressed was busy (disabled)
// while the call ran and dropped the focus, which must not fall to the page's body. The security
// questions (forced factor enrolment, registration) and the /single-sign-on handoff put it on the
// refusal's message; a refusal with field errors still puts it on the first field in error.
import { MantineProvider } from '@mantine/core';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Refusal } from '../../machines/forced/continue-sign-in/forced-step';
import {
  SecurityQuestionsForm,
  type SecurityQuestionsFormProps,
} from '../../src/client/flows/forced/factor-enrolment/SecurityQuestionsForm';
import { singleSignOnTexts as t } from '../../src/client/flows/single-sign-on/single-sign-on.texts';
import type { HandoffTarget } from '../../src/contract/entities';
import { attempts, targets } from '../machines/fixtures/handoff.fixtures';
import { users } from '../machines/fixtures/sign-in.fixtures';
import { mountSingleSignOn } from '../model/harness/handoff-pages';
import { facilityButton, loansContext } from '../model/single-sign-on.paths';

afterEach(() => vi.restoreAllMocks());

describe('the security questions, refused', () => {
  const questions = [
    { code: 'DRIVERS_LICENCE', description: 'Driver licence number' },
    { code: 'MEDICARE', description: 'Medicare card number' },
    { code: 'FIRST_SCHOOL', description: 'First school' },
  ];

  function mount() {
    const props: SecurityQuestionsFormProps = { questions, busy: false, refusal: null, onSubmit: vi.fn() };
    const view = render(
      <MantineProvider>
        <SecurityQuestionsForm {...props} />
      </MantineProvider>,
    );
    const update = (next: Partial<SecurityQuestionsFormProps>) =>
      view.rerender(
        <MantineProvider>
          <SecurityQuestionsForm {...props} {...next} />
        </MantineProvider>,
      );
    return { update };
  }

  const submit = () => screen.getByRole('button', { name: 'Finish enrolment' });

  it('without a field error: the focus goes to the refusal’s message', () => {
    const m = mount();
    submit().focus();
    m.update({ busy: true });
    const refusal: Refusal = {
      message: 'Your enrolment could not be completed. Try again.',
      fieldErrors: [],
    };
    m.update({ busy: false, refusal });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(refusal.message);
    expect(alert).toHaveFocus();
  });

  it('with an error on a field it does not show: the focus still goes to the message', () => {
    const m = mount();
    m.update({
      refusal: { message: 'Refused.', fieldErrors: [{ fieldName: 'identityId', message: 'Unknown' }] },
    });
    expect(screen.getByRole('alert')).toHaveFocus();
  });

  it('each refusal takes the focus again, even with the same words', () => {
    const m = mount();
    m.update({ refusal: { message: 'Refused.', fieldErrors: [] } });
    act(() => submit().focus());
    m.update({ refusal: { message: 'Refused.', fieldErrors: [] } });
    expect(screen.getByRole('alert')).toHaveFocus();
  });

  it('with a field error: the focus goes to that field, not to the message', () => {
    const m = mount();
    m.update({
      refusal: {
        message: 'Check your answers.',
        fieldErrors: [{ fieldName: 'answer2', message: 'The answer is too common.' }],
      },
    });
    expect(screen.getByLabelText(/^Answer 2/, { selector: 'input' })).toHaveFocus();
  });
});

describe('/single-sign-on, a refused handoff', () => {
  async function withTargets(list: HandoffTarget[]) {
    const m = mountSingleSignOn({ user: users.customer, context: loansContext });
    await act(() => m.api.answer({ type: 'xstate.done.actor.getHandoffTargets', output: list }));
    return m;
  }
  const refuse = (m: Awaited<ReturnType<typeof withTargets>>) =>
    act(() => m.api.answer({ type: 'xstate.done.actor.ssoSamlHandoff', output: attempts.refused }));

  it('after Yes: the focus goes to the refusal', async () => {
    const m = await withTargets([targets.loansF001]);
    await m.user.click(await screen.findByRole('button', { name: t.yes }));
    await m.api.waiting('ssoSamlHandoff');
    await refuse(m);
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert).toHaveFocus());
  });

  it('after choosing a facility: the focus goes to the refusal, and again after the next refusal', async () => {
    const m = await withTargets([targets.loansF001, targets.loansF002]);
    await screen.findByRole('list');
    await m.user.click(facilityButton(targets.loansF002));
    await m.api.waiting('ssoSamlHandoff');
    await refuse(m);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveFocus());
    await m.user.click(facilityButton(targets.loansF001));
    await m.api.waiting('ssoSamlHandoff');
    await refuse(m);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveFocus());
  });
});
