// The password reset's own forms (sections 2.4 and 5): start (email and security code), the choice
// of account, the security question answers and the new password. Typed values live only here, in
// form state, until they are sent with the machine's event.
// This page's own Mantine styles (app/styles.ts loads only what the first page needs).
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Radio.css';
import { Alert, Button, Group, Image, PasswordInput, Radio, Stack, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent, type Ref } from 'react';
import * as v from 'valibot';
import type { Refusal } from '../../../../machines/password-reset/password-reset.types';
import {
  email as emailField,
  limits,
  newPassword,
  requiredSecret,
  requiredString,
} from '../../../contract/fields';
import { useCaptchaImageSrc } from '../shared/captcha-image';
import { passwordResetTexts as t } from './password-reset.texts';

const errorProps = { 'aria-live': 'polite' } as const;
const firstIssue = (schema: v.GenericSchema, value: unknown): string | undefined => {
  const result = v.safeParse(schema, value);
  return result.success ? undefined : result.issues[0].message;
};
const fieldErrorsOf = (refusal: Refusal | null): Record<string, string> =>
  Object.fromEntries((refusal?.fieldErrors ?? []).map((e) => [e.fieldName, e.message]));

/**
 * The refusal's message. It can take the focus (tabIndex -1): a refusal without a field to go back
 * to sends it here, from the submit button that was disabled while it sent (WCAG 2.4.3).
 */
function RefusalAlert({ refusal, ref }: { refusal: Refusal | null; ref?: Ref<HTMLDivElement> }) {
  if (!refusal) return null;
  return (
    <Alert color="red" role="alert" ref={ref} tabIndex={-1}>
      {refusal.message}
    </Alert>
  );
}

/** The checked radio of a group, else its first: where the focus goes for the group's error. */
function focusRadio(group: HTMLElement | null) {
  (
    group?.querySelector<HTMLInputElement>('input[type="radio"]:checked') ??
    group?.querySelector<HTMLInputElement>('input[type="radio"]')
  )?.focus();
}

// ---- Get started ------------------------------------------------------------------------------

export function StartForm(props: {
  busy: boolean;
  refusal: Refusal | null;
  /** The machine's number of the captcha image: a new number asks for a new image. */
  captchaDraw: number;
  onRefreshCaptcha: () => void;
  onSubmit: (values: { email: string; captchaCode: string }) => void;
}) {
  const [values, setValues] = useState({ email: '', captchaCode: '' });
  const [errors, setErrors] = useState<{ email?: string; captchaCode?: string }>({});
  const emailInput = useRef<HTMLInputElement>(null);
  const captchaInput = useRef<HTMLInputElement>(null);
  const captchaSrc = useCaptchaImageSrc(props.captchaDraw);

  // A refused start comes with a new captcha: its code is typed again.
  useEffect(() => {
    if (props.refusal === null) return;
    setValues((current) => ({ ...current, captchaCode: '' }));
    setErrors({ captchaCode: fieldErrorsOf(props.refusal).captchaCode });
    captchaInput.current?.focus();
  }, [props.refusal]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = {
      email: firstIssue(emailField, values.email),
      captchaCode: firstIssue(requiredString(limits.captchaCode), values.captchaCode),
    };
    setErrors(found);
    // The first field in error has the focus, so that its error is read with it (WCAG 3.3.1).
    if (found.email) emailInput.current?.focus();
    else if (found.captchaCode) captchaInput.current?.focus();
    if (found.email || found.captchaCode) return;
    props.onSubmit({ email: values.email.trim(), captchaCode: values.captchaCode.trim() });
  };

  return (
    <Stack gap="md">
      <RefusalAlert refusal={props.refusal} />
      <form onSubmit={submit} noValidate aria-label={t.start.title}>
        <Stack gap="sm">
          <TextInput
            ref={emailInput}
            label={t.start.email}
            type="email"
            autoComplete="email"
            required
            value={values.email}
            error={errors.email}
            errorProps={errorProps}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setValues((c) => ({ ...c, email: value }));
              setErrors((c) => ({ ...c, email: undefined }));
            }}
          />
          <Group gap="sm" align="center">
            <Image src={captchaSrc} alt={t.start.captchaAlt} w={180} h={60} fit="contain" radius="sm" />
            <Button variant="subtle" size="compact-sm" onClick={props.onRefreshCaptcha} disabled={props.busy}>
              {t.start.refreshCaptcha}
            </Button>
          </Group>
          <TextInput
            ref={captchaInput}
            label={t.start.securityCode}
            autoComplete="off"
            required
            value={values.captchaCode}
            error={errors.captchaCode}
            errorProps={errorProps}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setValues((c) => ({ ...c, captchaCode: value }));
              setErrors((c) => ({ ...c, captchaCode: undefined }));
            }}
          />
          <Button type="submit" loading={props.busy} mt="xs">
            {t.start.submit}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}

// ---- user-selection ---------------------------------------------------------------------------

export function UserSelectionForm(props: {
  identities: Array<{ username: string; name: string | null }>;
  busy: boolean;
  refusal: Refusal | null;
  onSubmit: (username: string) => void;
}) {
  const [chosen, setChosen] = useState<string>('');
  const [error, setError] = useState<string | undefined>();
  const radios = useRef<HTMLDivElement>(null);
  const alert = useRef<HTMLDivElement>(null);
  // A refusal has no field here: its message takes the focus.
  useEffect(() => {
    if (props.refusal !== null) alert.current?.focus();
  }, [props.refusal]);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!chosen) {
      setError(t.userSelection.required);
      focusRadio(radios.current);
      return;
    }
    props.onSubmit(chosen);
  };
  return (
    <Stack gap="md">
      <RefusalAlert refusal={props.refusal} ref={alert} />
      <form onSubmit={submit} noValidate aria-label={t.userSelection.title}>
        <Stack gap="sm">
          <Radio.Group
            label={t.userSelection.legend}
            required
            value={chosen}
            onChange={(value) => {
              setChosen(value);
              setError(undefined);
            }}
            error={error}
            errorProps={errorProps}
          >
            <Stack gap="xs" mt="xs" ref={radios}>
              {props.identities.map((identity) => (
                <Radio
                  key={identity.username}
                  value={identity.username}
                  label={identity.name ? `${identity.username} (${identity.name})` : identity.username}
                />
              ))}
            </Stack>
          </Radio.Group>
          <Button type="submit" loading={props.busy} mt="xs">
            {t.userSelection.submit}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}

// ---- security-question-verification -----------------------------------------------------------

const answerSchema = requiredString(limits.answerMax);

export function SecurityAnswersForm(props: {
  challenges: Array<{ code: string; description: string }>;
  busy: boolean;
  refusal: Refusal | null;
  onSubmit: (answers: Array<{ question: string; answer: string }>) => void;
}) {
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const inputs = useRef<Record<string, HTMLInputElement | null>>({});
  const alert = useRef<HTMLDivElement>(null);

  // A wrong answer: that answer is emptied and the server's message is put on it, with the focus;
  // a refusal without a field error puts the focus on its message.
  useEffect(() => {
    if (props.refusal === null) return;
    const found: Record<string, string> = {};
    for (const { fieldName, message } of props.refusal.fieldErrors) {
      const code = fieldName.replace(/^answer\./, '');
      found[code] = message;
    }
    setErrors(found);
    setAnswers((current) => Object.fromEntries(Object.entries(current).filter(([code]) => !found[code])));
    const first = props.challenges.find((c) => found[c.code]);
    if (first) inputs.current[first.code]?.focus();
    else alert.current?.focus();
  }, [props.refusal, props.challenges]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = Object.fromEntries(
      props.challenges.map((c) => [c.code, firstIssue(answerSchema, answers[c.code] ?? '')]),
    );
    setErrors(found);
    const first = props.challenges.find((c) => found[c.code]);
    if (first) {
      inputs.current[first.code]?.focus();
      return;
    }
    props.onSubmit(
      props.challenges.map((c) => ({ question: c.code, answer: (answers[c.code] ?? '').trim() })),
    );
  };

  return (
    <Stack gap="md">
      <RefusalAlert refusal={props.refusal} ref={alert} />
      <form onSubmit={submit} noValidate aria-label={t.securityQuestions.title}>
        <Stack gap="sm">
          {props.challenges.map((challenge) => (
            <TextInput
              key={challenge.code}
              ref={(node) => {
                inputs.current[challenge.code] = node;
              }}
              label={t.securityQuestions.answer(challenge.description)}
              autoComplete="off"
              required
              maxLength={limits.answerMax}
              value={answers[challenge.code] ?? ''}
              error={errors[challenge.code]}
              errorProps={errorProps}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setAnswers((c) => ({ ...c, [challenge.code]: value }));
                setErrors((c) => ({ ...c, [challenge.code]: undefined }));
              }}
            />
          ))}
          <Button type="submit" loading={props.busy} mt="xs">
            {t.securityQuestions.submit}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}

// ---- set-password -----------------------------------------------------------------------------

type PasswordField = 'password' | 'confirmPassword';
const PASSWORD_FIELDS: readonly PasswordField[] = ['password', 'confirmPassword'];

export function validateResetPassword(values: Record<PasswordField, string>) {
  const errors: Partial<Record<PasswordField, string>> = {};
  errors.password = firstIssue(newPassword, values.password);
  errors.confirmPassword = firstIssue(requiredSecret(), values.confirmPassword);
  if (!errors.password && !errors.confirmPassword && values.password !== values.confirmPassword)
    errors.confirmPassword = t.setPassword.mismatch;
  return errors;
}

export function SetPasswordForm(props: {
  busy: boolean;
  refusal: Refusal | null;
  onSubmit: (values: { password: string; confirmPassword: string }) => void;
}) {
  const [values, setValues] = useState<Record<PasswordField, string>>({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Partial<Record<PasswordField, string>>>({});
  const inputs = useRef<Partial<Record<PasswordField, HTMLInputElement | null>>>({});

  useEffect(() => {
    if (props.refusal === null) return;
    setValues({ password: '', confirmPassword: '' });
    const found = fieldErrorsOf(props.refusal);
    setErrors({ password: found.password, confirmPassword: found.confirmPassword });
    inputs.current[PASSWORD_FIELDS.find((f) => found[f]) ?? 'password']?.focus();
  }, [props.refusal]);

  const bind = (field: PasswordField) => ({
    value: values[field],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const { value } = event.currentTarget;
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => ({ ...current, [field]: undefined }));
    },
    error: errors[field],
    'aria-invalid': errors[field] !== undefined,
    errorProps,
    ref: (node: HTMLInputElement | null) => {
      inputs.current[field] = node;
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateResetPassword(values);
    const first = PASSWORD_FIELDS.find((f) => found[f]);
    setErrors(found);
    if (first) {
      inputs.current[first]?.focus();
      return;
    }
    props.onSubmit(values);
  };

  return (
    <Stack gap="md">
      <RefusalAlert refusal={props.refusal} />
      <form onSubmit={submit} noValidate aria-label={t.setPassword.title}>
        <Stack gap="sm">
          <PasswordInput
            label={t.setPassword.newPassword}
            description={t.setPassword.hint}
            autoComplete="new-password"
            required
            {...bind('password')}
          />
          <PasswordInput
            label={t.setPassword.confirmPassword}
            autoComplete="new-password"
            required
            {...bind('confirmPassword')}
          />
          <Button type="submit" loading={props.busy} mt="xs">
            {t.setPassword.submit}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
