// The sign-in form (section 2.1): username, password, the security code with its captcha image from
// 3 failed sign-ins, the Caps Lock hint, the links and the privacy statement. The typed password
// lives only here, in form state, until it is sent with user.submit.
import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  useEffect,
  useRef,
  useState,
  type ChangeEvent,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Link } from 'react-router-dom';
import type { Refusal } from '../../../../machines/sign-in/sign-in.types';
import { PASSWORD_RESET_ROUTE, PRIVACY_STATEMENT_ROUTE, REGISTRATION_ROUTE } from '../../app/routes';
import { signInTexts as t } from './sign-in.texts';
import {
  firstErrorField,
  SIGN_IN_FIELDS,
  validateSignIn,
  type SignInErrors,
  type SignInField,
  type SignInValues,
} from './sign-in.validation';

export interface SignInFormProps {
  busy: boolean;
  showsSecurityCode: boolean;
  captchaSrc: string | null;
  refusal: Refusal | null;
  onSubmit: (credentials: { username: string; password: string; captchaCode: string | null }) => void;
  onRefreshCaptcha: () => void;
}

const captchaImageStyle = {
  display: 'block',
  objectFit: 'contain',
  borderRadius: 'var(--mantine-radius-sm)',
} as const;

const isField = (name: string): name is SignInField => (SIGN_IN_FIELDS as readonly string[]).includes(name);

export function SignInForm({
  busy,
  showsSecurityCode,
  captchaSrc,
  refusal,
  onSubmit,
  onRefreshCaptcha,
}: SignInFormProps) {
  // Three fields: plain state keeps the sign-in page's bundle small (no form library).
  const [values, setValues] = useState<SignInValues>({ username: '', password: '', captchaCode: '' });
  const [errors, setErrors] = useState<SignInErrors>({});
  const inputs = useRef<Partial<Record<SignInField, HTMLInputElement | null>>>({});
  const [capsLockOn, setCapsLockOn] = useState(false);
  const [pendingFocus, setPendingFocus] = useState<SignInField | null>(null);

  // Focus moves to the first field in error once the errors are on screen.
  useEffect(() => {
    if (pendingFocus === null) return;
    inputs.current[pendingFocus]?.focus();
    setPendingFocus(null);
  }, [pendingFocus]);

  // Each refusal: the secret fields are emptied, the server's field errors attach to their fields.
  useEffect(() => {
    if (refusal === null) return;
    setValues((current) => ({ ...current, password: '', captchaCode: '' }));
    const fieldErrors: SignInErrors = {};
    for (const { fieldName, message } of refusal.fieldErrors) {
      if (isField(fieldName)) fieldErrors[fieldName] = message;
    }
    setErrors(fieldErrors);
    setPendingFocus(firstErrorField(fieldErrors) ?? 'password');
  }, [refusal]);

  /** Value, change handler (which clears the field's error), error and ref of a field. */
  const bind = (field: SignInField) => ({
    value: values[field],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const { value } = event.currentTarget;
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => {
        if (current[field] === undefined) return current;
        const next = { ...current };
        delete next[field];
        return next;
      });
    },
    error: errors[field],
    ref: (node: HTMLInputElement | null) => {
      inputs.current[field] = node;
    },
  });

  const trackCapsLock = (event: KeyboardEvent<HTMLInputElement>) => {
    if (typeof event.getModifierState === 'function') setCapsLockOn(event.getModifierState('CapsLock'));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateSignIn(values, { withSecurityCode: showsSecurityCode });
    const first = firstErrorField(found);
    if (first !== null) {
      setErrors(found);
      setPendingFocus(first);
      return;
    }
    onSubmit({
      username: values.username.trim(),
      password: values.password,
      captchaCode: showsSecurityCode ? values.captchaCode.trim() : null,
    });
  };

  const errorProps = { 'aria-live': 'polite' } as const;

  return (
    <Stack gap="md">
      {refusal && (
        <Alert color="red" role="alert">
          {refusal.message}
        </Alert>
      )}
      <form onSubmit={submit} noValidate aria-label={t.heading}>
        <Stack gap="sm">
          <TextInput
            label={t.username}
            autoComplete="username"
            required
            errorProps={errorProps}
            onKeyDown={trackCapsLock}
            onKeyUp={trackCapsLock}
            {...bind('username')}
          />
          <PasswordInput
            label={t.password}
            autoComplete="current-password"
            required
            errorProps={errorProps}
            onKeyDown={trackCapsLock}
            onKeyUp={trackCapsLock}
            // Mantine's PasswordInput does not mark itself invalid as TextInput does.
            aria-invalid={errors.password !== undefined}
            {...bind('password')}
          />
          <Text size="sm" c="orange.9" aria-live="polite" role="status">
            {capsLockOn ? t.capsLockOn : ''}
          </Text>
          {showsSecurityCode && (
            <Stack gap="xs">
              <Group gap="sm" align="center">
                {captchaSrc && (
                  // What Mantine's <Image w={180} h={60} fit="contain" radius="sm"> draws, without
                  // its chunk on the sign-in page (the page's JS and CSS budget).
                  <img
                    src={captchaSrc}
                    alt={t.captchaAlt}
                    width={180}
                    height={60}
                    style={captchaImageStyle}
                  />
                )}
                <Button variant="subtle" size="compact-sm" onClick={onRefreshCaptcha} disabled={busy}>
                  {t.refreshCaptcha}
                </Button>
              </Group>
              <TextInput
                label={t.securityCode}
                autoComplete="off"
                required
                errorProps={errorProps}
                {...bind('captchaCode')}
              />
            </Stack>
          )}
          <Button type="submit" loading={busy} mt="xs">
            {t.submit}
          </Button>
        </Stack>
      </form>
      <Stack gap={4}>
        <Anchor component={Link} to={REGISTRATION_ROUTE} size="sm">
          {t.registerLink}
        </Anchor>
        <Anchor component={Link} to={PASSWORD_RESET_ROUTE} size="sm">
          {t.problemsLink}
        </Anchor>
      </Stack>
      <Text size="xs" c="dimmed">
        {t.privacyStatement}{' '}
        <Anchor component={Link} to={PRIVACY_STATEMENT_ROUTE} size="xs">
          {t.privacyStatementLink}
        </Anchor>
      </Text>
    </Stack>
  );
}

/** The sign-in page's frame around each of its views. */
export function SignInFrame({ children }: { children: ReactNode }) {
  return (
    <Container size={440} px={0} py="xl">
      {children}
    </Container>
  );
}

/**
 * The form view: heading and form. The build also draws it, empty, for the first paint of the
 * sign-in page (src/client/app/prerender/sign-in-first-view.tsx).
 */
export function SignInFormView(props: SignInFormProps) {
  return (
    <Stack gap="lg">
      <Title order={1}>{t.heading}</Title>
      <SignInForm {...props} />
    </Stack>
  );
}
