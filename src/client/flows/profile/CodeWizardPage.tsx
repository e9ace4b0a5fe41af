// A profile wizard that verifies a new address with a code (sections 2.3 and 4.7): change-email,
// change-mobile and enrol-sms. Step 1: the new value and the current password; step 2: the code
// sent to it, with resend and cancel (the cancel call). The step addresses follow the machine.
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import * as v from 'valibot';
import type { CodeWizardMachine } from '../../../../machines/profile/code-wizard/code-wizard.machine';
import {
  selectCancelling,
  selectContext,
  selectProgress,
  selectResending,
  selectStarting,
  selectVerifying,
  selectView,
} from '../../../../machines/profile/code-wizard/code-wizard.select';
import { email as emailRule } from '../../../contract/fields';
import { mobile as mobileRule } from '../../../contract/forced';
import { announce } from '../../app/notices';
import { useSession } from '../../app/session';
import { CodeForm } from '../forced/shared/CodeForm';
import { fieldErrorProps } from '../forced/shared/field-props';
import { ForcedProgress } from '../forced/shared/ForcedStatus';
import { useFlowActor } from '../shared/use-flow-actor';
import { useFlowRoute } from '../shared/use-flow-route';
import { applyProfileOutput } from './profile-output';
import type { changeEmailActors } from './profile.actors';
import { profileFormTexts, resentToast, wizardTexts as t } from './profile.texts';
import { WizardFailed, WizardFrame } from './WizardFrame';

export interface CodeWizardSpec {
  machine: CodeWizardMachine;
  actors: typeof changeEmailActors;
  heading: string;
  /** What step 1 asks for. */
  kind: 'email' | 'mobile';
  toast: string;
}

/**
 * Section 5's rules for step 1's value, the contract's own: the server checks the request with
 * them, and registration and factor enrolment's forms check with them too (trimmed, then required,
 * then the email format, then the length).
 */
const RULES = { email: emailRule, mobile: mobileRule } as const;

function DetailsForm({
  spec,
  busy,
  refusal,
  onSubmit,
  onCancel,
}: {
  spec: CodeWizardSpec;
  busy: boolean;
  refusal: { message: string; fieldErrors: Array<{ fieldName: string; message: string }> } | null;
  onSubmit: (value: string, currentPassword: string) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const valueInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const refusalAlert = useRef<HTMLDivElement>(null);
  const field = spec.kind === 'email' ? 'email' : 'mobile';

  // Each refusal: its errors on the fields, focus on the refused field; without a field of the form
  // to go to, on the refusal's message (the Next button, disabled while it sent, has dropped the
  // focus: WCAG 2.4.3).
  useEffect(() => {
    if (!refusal) return;
    const next = Object.fromEntries(refusal.fieldErrors.map((e) => [e.fieldName, e.message]));
    setErrors(next);
    if (next.currentPassword) {
      setPassword('');
      passwordInput.current?.focus();
    } else if (next[field]) valueInput.current?.focus();
    else refusalAlert.current?.focus();
  }, [refusal, field]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    const checked = v.safeParse(RULES[spec.kind], value, { abortPipeEarly: true });
    if (!checked.success) found[field] = checked.issues[0].message;
    if (password === '') found.currentPassword = profileFormTexts.required;
    setErrors(found);
    if (found[field]) valueInput.current?.focus();
    else if (found.currentPassword) passwordInput.current?.focus();
    // The value as the rule gives it back: trimmed.
    if (checked.success && password !== '') onSubmit(checked.output, password);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={spec.heading}>
      <Stack gap="md">
        {refusal && (
          <Alert color="red" role="alert" ref={refusalAlert} tabIndex={-1}>
            {refusal.message}
          </Alert>
        )}
        <TextInput
          ref={valueInput}
          label={spec.kind === 'email' ? t.newEmail : t.mobile}
          description={spec.kind === 'mobile' ? t.mobileHint : undefined}
          required
          type={spec.kind === 'email' ? 'email' : 'tel'}
          autoComplete={spec.kind === 'email' ? 'email' : 'tel'}
          value={value}
          onChange={(event) => {
            setValue(event.currentTarget.value);
            setErrors(({ [field]: _, ...rest }) => rest);
          }}
          error={errors[field] ?? null}
          errorProps={fieldErrorProps}
        />
        <PasswordInput
          ref={passwordInput}
          label={profileFormTexts.currentPassword}
          description={profileFormTexts.currentPasswordHint}
          required
          autoComplete="current-password"
          value={password}
          onChange={(event) => {
            setPassword(event.currentTarget.value);
            setErrors(({ currentPassword: _, ...rest }) => rest);
          }}
          error={errors.currentPassword ?? null}
          aria-invalid={errors.currentPassword !== undefined}
          errorProps={fieldErrorProps}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {t.cancel}
          </Button>
          <Button type="submit" loading={busy}>
            {t.next}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function CodeWizardPage({ spec }: { spec: CodeWizardSpec }) {
  const session = useSession();
  const navigate = useNavigate();
  const channel = spec.kind === 'email' ? 'email' : 'sms';
  const [, send, actorRef] = useFlowActor(spec.machine, {
    input: undefined as never,
    actors: spec.actors,
    actions: { announceResent: () => announce({ message: resentToast(channel), tone: 'success' }) },
    onDone: (output) =>
      applyProfileOutput(output, spec.toast, session, (to, options) => void navigate(to, options)),
  });
  useFlowRoute(actorRef);
  const view = useSelector(actorRef, selectView);
  const progress = useSelector(actorRef, selectProgress);
  const starting = useSelector(actorRef, selectStarting);
  const verifying = useSelector(actorRef, selectVerifying);
  const resending = useSelector(actorRef, selectResending);
  const cancelling = useSelector(actorRef, selectCancelling);
  const context = useSelector(actorRef, selectContext);

  return (
    <WizardFrame heading={spec.heading} progress={progress}>
      {view === 'details' && (
        <DetailsForm
          spec={spec}
          busy={starting}
          refusal={context.refusal}
          onSubmit={(value, currentPassword) => send({ type: 'user.start', value, currentPassword })}
          onCancel={() => send({ type: 'user.cancel' })}
        />
      )}
      {view === 'verification' &&
        (cancelling ? (
          <ForcedProgress label={t.cancelling} />
        ) : (
          <Stack gap="md">
            <Text>
              {spec.kind === 'email'
                ? t.emailCodeSent(context.destination ?? '')
                : t.smsCodeSent(context.destination ?? '')}
            </Text>
            <CodeForm
              name={spec.heading}
              submitLabel={t.verify}
              busy={verifying}
              codeError={context.codeRefusal?.message ?? null}
              onSubmit={(code) => send({ type: 'user.verify', code })}
              resend={{
                onResend: () => send({ type: 'user.resend' }),
                busy: resending,
                refusal: context.resendRefusal,
              }}
              after={
                <Group>
                  <Button
                    variant="default"
                    onClick={() => send({ type: 'user.cancel' })}
                    // The machine takes no cancel while a code is checked or another one sent.
                    disabled={verifying || resending}
                  >
                    {t.cancel}
                  </Button>
                </Group>
              }
            />
          </Stack>
        ))}
      {view === 'failed' && (
        <WizardFailed message={context.errorMessage} onBack={() => send({ type: 'user.cancel' })} />
      )}
    </WizardFrame>
  );
}
