// The authenticator-app wizards (sections 2.3 and 4.7): enrol-authenticator-app, and
// change-authenticator-app in editing mode with the notice that the old app stops working.
// Step 1: the QR code and the setup key; step 2 (code-verification): a code of the new app and the
// current password. The step addresses follow the machine.
// This page's own Mantine styles (app/styles.ts loads only what the first page needs).
import '@mantine/core/styles/Code.css';
import { Alert, Button, Code, Group, Image, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import * as v from 'valibot';
import type { AppWizardMachine } from '../../../../machines/profile/app-wizard/app-wizard.machine';
import {
  selectContext,
  selectProgress,
  selectVerifying,
  selectView,
} from '../../../../machines/profile/app-wizard/app-wizard.select';
import { oneTimeCode } from '../../../contract/fields';
import { useSession } from '../../app/session';
import { fieldErrorProps } from '../forced/shared/field-props';
import { forcedTexts } from '../forced/shared/forced.texts';
import { ForcedProgress } from '../forced/shared/ForcedStatus';
import { useFlowActor } from '../shared/use-flow-actor';
import { useFlowRoute } from '../shared/use-flow-route';
import { applyProfileOutput } from './profile-output';
import { appWizardActors } from './profile.actors';
import { profileFormTexts, wizardTexts as t } from './profile.texts';
import { WizardFailed, WizardFrame } from './WizardFrame';

export interface AppWizardSpec {
  machine: AppWizardMachine;
  heading: string;
  toast: string;
  /** Editing mode: the old app stops working once the new one is verified. */
  editing: boolean;
}

function VerificationForm({
  busy,
  refusal,
  onSubmit,
  onCancel,
}: {
  busy: boolean;
  refusal: { message: string; fieldErrors: Array<{ fieldName: string; message: string }> } | null;
  onSubmit: (code: string, currentPassword: string) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const codeInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const refusalAlert = useRef<HTMLDivElement>(null);
  // A refusal whose errors are on none of the form's fields shows its message above them.
  const onAField = refusal?.fieldErrors.some(
    (e) => e.fieldName === 'code' || e.fieldName === 'currentPassword',
  );

  // Each refusal: its errors on the fields, focus on the refused field; without a field of the form
  // to go to, on the refusal's message (the Verify button, disabled while it sent, has dropped the
  // focus: WCAG 2.4.3). The code is emptied unless only the password was refused.
  useEffect(() => {
    if (!refusal) return;
    const next = Object.fromEntries(refusal.fieldErrors.map((e) => [e.fieldName, e.message]));
    setErrors(next);
    if (next.currentPassword) {
      setPassword('');
      passwordInput.current?.focus();
    } else {
      setCode('');
      if (next.code) codeInput.current?.focus();
      else refusalAlert.current?.focus();
    }
  }, [refusal]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    const checked = v.safeParse(oneTimeCode, code);
    if (!checked.success) found.code = checked.issues[0].message;
    if (password === '') found.currentPassword = profileFormTexts.required;
    setErrors(found);
    if (found.code) codeInput.current?.focus();
    else if (found.currentPassword) passwordInput.current?.focus();
    if (checked.success && password !== '') onSubmit(checked.output, password);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t.verify}>
      <Stack gap="md">
        <Text>{t.appCodeIntro}</Text>
        {refusal && !onAField && (
          <Alert color="red" role="alert" ref={refusalAlert} tabIndex={-1}>
            {refusal.message}
          </Alert>
        )}
        <TextInput
          ref={codeInput}
          label={forcedTexts.code}
          required
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(event) => {
            setCode(event.currentTarget.value);
            setErrors(({ code: _, ...rest }) => rest);
          }}
          error={errors.code ?? null}
          errorProps={fieldErrorProps}
        />
        <PasswordInput
          ref={passwordInput}
          label={profileFormTexts.currentPassword}
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
            {t.verify}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function AppWizardPage({ spec }: { spec: AppWizardSpec }) {
  const session = useSession();
  const navigate = useNavigate();
  const [, send, actorRef] = useFlowActor(spec.machine, {
    input: undefined as never,
    actors: appWizardActors,
    onDone: (output) =>
      applyProfileOutput(output, spec.toast, session, (to, options) => void navigate(to, options)),
  });
  useFlowRoute(actorRef);
  const view = useSelector(actorRef, selectView);
  const verifying = useSelector(actorRef, selectVerifying);
  const context = useSelector(actorRef, selectContext);
  const progress = useSelector(actorRef, selectProgress);

  return (
    <WizardFrame heading={spec.heading} progress={progress}>
      {spec.editing && view !== 'failed' && (
        <Alert color="orange" role="note">
          {t.changeAppNotice}
        </Alert>
      )}
      {view === 'loading' && <ForcedProgress label={t.loadingSetup} />}
      {view === 'setup' && context.setup && (
        <Stack gap="md">
          <Text>{t.appSetupIntro}</Text>
          <Image src={context.setup.qrCode} alt={t.qrCodeAlt} w={240} h={240} />
          <Text>
            {t.setupKey}: <Code data-testid="setup-key">{context.setup.setupKey}</Code>
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => send({ type: 'user.cancel' })}>
              {t.cancel}
            </Button>
            <Button onClick={() => send({ type: 'user.next' })}>{t.next}</Button>
          </Group>
        </Stack>
      )}
      {view === 'verification' && (
        <VerificationForm
          busy={verifying}
          refusal={context.refusal}
          onSubmit={(code, currentPassword) => send({ type: 'user.verify', code, currentPassword })}
          onCancel={() => send({ type: 'user.cancel' })}
        />
      )}
      {view === 'failed' && (
        <WizardFailed message={context.errorMessage} onBack={() => send({ type: 'user.cancel' })} />
      )}
    </WizardFrame>
  );
}
