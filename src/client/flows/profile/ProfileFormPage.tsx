// A single-step profile screen (section 2.3): the screen's fields and the current password, run by
// the profile-form machine with the screen's call. Change-name and change-date-of-birth are
// read-only once the identity is verified, with the spec's warning. The values live only in this
// form until they are sent with user.submit.
import '@mantine/dates/styles.css';
import {
  Alert,
  Button,
  Container,
  Group,
  NativeSelect,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import * as v from 'valibot';
import { profileFormMachine } from '../../../../machines/profile/profile-form/profile-form.machine';
import {
  selectBusy,
  selectErrorMessage,
  selectRefusal,
  selectView,
} from '../../../../machines/profile/profile-form/profile-form.select';
import type { CurrentUser } from '../../../contract/entities';
import { limits, messages } from '../../../contract/fields';
import { todayIsoDate } from '../../../contract/profile';
import { parseTypedDate } from '../../app/parse-date';
import { PageLoader } from '../../app/shell/PageLoader';
import { useSession } from '../../app/session';
import { fieldErrorProps } from '../forced/shared/field-props';
import { useFlowActor } from '../shared/use-flow-actor';
import { applyProfileOutput } from './profile-output';
import { profileFormActors, type ProfileFormScreen } from './profile.actors';
import { IDENTITY_VERIFIED_WARNING, profileFormTexts as t, screenTexts } from './profile.texts';
import { WizardFailed } from './WizardFrame';

export interface FieldSpec {
  name: string;
  label: string;
  kind: 'text' | 'password' | 'date' | 'select';
  required: boolean;
  hint?: string;
  autoComplete?: string;
  placeholder?: string;
  /**
   * The contract's rule for the field (section 5), checked as the server will check it (trimmed
   * first where the rule trims, then required, format and length), so that what the server would
   * refuse with a 400 is told at the field instead. Without one, the field is only required or not.
   */
  schema?: v.GenericSchema<string | null | undefined, unknown>;
  /** Select options (value, label). */
  options?: ReadonlyArray<{ value: string; label: string }>;
  /** The field's starting value. */
  initial?: (user: CurrentUser) => string;
}

export interface ProfileFormSpec {
  screen: ProfileFormScreen;
  heading: string;
  submitLabel: string;
  toast: string;
  lockedWhenVerified?: boolean;
  intro?: string;
  fields: readonly FieldSpec[];
  /** What a read-only screen shows. */
  readOnlyValue?: (user: CurrentUser) => string;
  /** Checks across fields (e.g. the confirmation), after each field's own. */
  validate?: (values: Record<string, string>) => Record<string, string>;
}

const fieldId = (name: string) => `profile-field-${name}`;
/**
 * The date field's clear button at 28 px (Mantine's default, sm, is 22 px): at least 24 px to hit
 * (WCAG 2.5.8). DateInput hands these props to Input.ClearButton, which takes a size, though its
 * type lists only a button's attributes.
 */
const clearButtonSize = { size: 'md' };
const calendarLabels = screenTexts.changeDateOfBirth.calendar;

function checkField(field: FieldSpec, value: string): string | null {
  if (field.required && value.trim() === '') return t.required;
  if (!field.schema) return null;
  const result = v.safeParse(field.schema, value, { abortPipeEarly: true });
  return result.success ? null : result.issues[0].message;
}

/**
 * What is wrong with a date typed into a date field (section 5: the date of birth, 1900-01-01 up to
 * today), or null when it is a date the field takes or nothing is typed. The picker would otherwise
 * drop such text silently on blur and keep the last date it took.
 */
export function typedDateError(text: string, today: string = todayIsoDate()): string | null {
  if (text.trim() === '') return null;
  const iso = parseTypedDate(text);
  if (iso === null) return t.invalidDate;
  if (iso < limits.birthDateMin) return messages.minValue(limits.birthDateMin);
  if (iso > today) return messages.maxValue(today);
  return null;
}

export function ProfileFormPage({ spec }: { spec: ProfileFormSpec }) {
  const session = useSession();
  const navigate = useNavigate();
  const [, send, actorRef] = useFlowActor(profileFormMachine, {
    input: { lockedWhenVerified: spec.lockedWhenVerified ?? false },
    actors: profileFormActors(spec.screen),
    onDone: (output) =>
      applyProfileOutput(output, spec.toast, session, (to, options) => void navigate(to, options)),
  });
  const view = useSelector(actorRef, selectView);
  const busy = useSelector(actorRef, selectBusy);
  const refusal = useSelector(actorRef, selectRefusal);
  const errorMessage = useSelector(actorRef, selectErrorMessage);
  const user = session.currentUser;

  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries([
      ...spec.fields.map((f) => [
        f.name,
        user && f.initial ? f.initial(user) : (f.options?.[0]?.value ?? ''),
      ]),
      ['currentPassword', ''],
    ]),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Date fields whose typed text is not a date they take, with what is wrong: told on blur, kept
  // on screen (not replaced by the last date taken), and refused on submit.
  const [typedDateErrors, setTypedDateErrors] = useState<Record<string, string>>({});
  const setTypedDateError = (name: string, error: string | null) =>
    setTypedDateErrors((current) => {
      if ((current[name] ?? null) === error) return current;
      const { [name]: _, ...rest } = current;
      return error === null ? rest : { ...rest, [name]: error };
    });
  const inputs = useRef<Record<string, HTMLElement | null>>({});
  const refusalAlert = useRef<HTMLDivElement>(null);

  // Each refusal: its field errors on the fields (the current password emptied), focus on the first;
  // without a field of the form to go to, on the refusal's message (the submit button, disabled
  // while it sent, has dropped the focus: WCAG 2.4.3).
  useEffect(() => {
    if (!refusal) return;
    const next = Object.fromEntries(refusal.fieldErrors.map((e) => [e.fieldName, e.message]));
    setErrors(next);
    if ('currentPassword' in next) setValues((v) => ({ ...v, currentPassword: '' }));
    const first = refusal.fieldErrors.map((e) => inputs.current[e.fieldName]).find((el) => el != null);
    if (first) first.focus();
    else refusalAlert.current?.focus();
  }, [refusal]);

  const clearError = (name: string) =>
    setErrors((e) => {
      const { [name]: _, ...rest } = e;
      return rest;
    });
  const set = (name: string, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    clearError(name);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    for (const field of spec.fields) {
      const error = typedDateErrors[field.name] ?? checkField(field, values[field.name] ?? '');
      if (error) found[field.name] = error;
    }
    if ((values.currentPassword ?? '') === '') found.currentPassword = t.required;
    Object.assign(found, spec.validate?.(values) ?? {}, found);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      const first = [...spec.fields.map((f) => f.name), 'currentPassword'].find((n) => n in found);
      if (first) inputs.current[first]?.focus();
      return;
    }
    send({ type: 'user.submit', values: { ...values, currentPassword: values.currentPassword ?? '' } });
  };

  const errorOf = (name: string) => errors[name] ?? null;
  const register = (name: string) => (element: HTMLElement | null) => {
    inputs.current[name] = element;
  };

  return (
    <Container size={520} px={0} py="xl">
      <Stack gap="lg">
        <Title order={1}>{spec.heading}</Title>
        {view === 'checking' && <PageLoader />}
        {view === 'readOnly' && (
          <Stack gap="md">
            {user && spec.readOnlyValue && (
              <Text>
                <Text span fw={600}>
                  {t.currentValue}:
                </Text>{' '}
                {spec.readOnlyValue(user)}
              </Text>
            )}
            <Alert color="orange" role="alert">
              {IDENTITY_VERIFIED_WARNING}
            </Alert>
            <Group>
              <Button variant="default" onClick={() => send({ type: 'user.cancel' })}>
                {t.back}
              </Button>
            </Group>
          </Stack>
        )}
        {view === 'failed' && (
          <WizardFailed message={errorMessage} onBack={() => send({ type: 'user.cancel' })} />
        )}
        {(view === 'form' || view === 'done') && (
          <form onSubmit={submit} noValidate aria-label={spec.heading}>
            <Stack gap="md">
              {spec.intro && <Text>{spec.intro}</Text>}
              {refusal && (
                <Alert color="red" role="alert" ref={refusalAlert} tabIndex={-1}>
                  {refusal.message}
                </Alert>
              )}
              {spec.fields.map((field) => {
                const common = {
                  id: fieldId(field.name),
                  label: field.label,
                  required: field.required,
                  description: field.hint,
                  error: errorOf(field.name),
                  // Mantine's PasswordInput marks its input data-invalid only: assistive technology needs aria.
                  'aria-invalid': errorOf(field.name) !== null,
                  errorProps: fieldErrorProps,
                };
                if (field.kind === 'date') {
                  return (
                    <DateInput
                      key={field.name}
                      {...common}
                      ref={register(field.name) as never}
                      value={values[field.name] || null}
                      onChange={(value) => {
                        setTypedDateError(field.name, null);
                        set(field.name, value ?? '');
                      }}
                      // Section 9's helper: 'DD Mon YYYY' is read as well as YYYY-MM-DD.
                      dateParser={parseTypedDate}
                      onInput={(event) => {
                        // Told again on blur if still wrong; not while it is being typed.
                        setTypedDateError(field.name, typedDateError(event.currentTarget.value));
                        clearError(field.name);
                      }}
                      onBlur={() => {
                        const error = typedDateErrors[field.name];
                        if (error) setErrors((e) => ({ ...e, [field.name]: error }));
                      }}
                      fixOnBlur={!(field.name in typedDateErrors)}
                      valueFormat="YYYY-MM-DD"
                      placeholder={field.placeholder}
                      minDate={limits.birthDateMin}
                      maxDate={todayIsoDate()}
                      clearable
                      clearButtonProps={{
                        'aria-label': `Clear ${field.label.toLowerCase()}`,
                        ...clearButtonSize,
                      }}
                      // The calendar (WCAG 2.2 AA): its arrows named, no days in the red of
                      // weekends or the faded grey of other months, under 4.5:1 on white.
                      ariaLabels={calendarLabels}
                      weekendDays={[]}
                      hideOutsideDates
                    />
                  );
                }
                if (field.kind === 'select') {
                  return (
                    <NativeSelect
                      key={field.name}
                      {...common}
                      ref={register(field.name) as never}
                      data={[...(field.options ?? [])]}
                      value={values[field.name] ?? ''}
                      onChange={(event) => set(field.name, event.currentTarget.value)}
                    />
                  );
                }
                const Input = field.kind === 'password' ? PasswordInput : TextInput;
                return (
                  <Input
                    key={field.name}
                    {...common}
                    ref={register(field.name) as never}
                    value={values[field.name] ?? ''}
                    autoComplete={field.autoComplete}
                    placeholder={field.placeholder}
                    onChange={(event) => set(field.name, event.currentTarget.value)}
                  />
                );
              })}
              <PasswordInput
                id={fieldId('currentPassword')}
                ref={register('currentPassword') as never}
                label={t.currentPassword}
                description={t.currentPasswordHint}
                required
                autoComplete="current-password"
                value={values.currentPassword ?? ''}
                onChange={(event) => set('currentPassword', event.currentTarget.value)}
                error={errorOf('currentPassword')}
                aria-invalid={errorOf('currentPassword') !== null}
                errorProps={fieldErrorProps}
              />
              <Group justify="flex-end">
                <Button variant="default" onClick={() => send({ type: 'user.cancel' })} disabled={busy}>
                  {t.cancel}
                </Button>
                <Button type="submit" loading={busy}>
                  {spec.submitLabel}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Container>
  );
}
