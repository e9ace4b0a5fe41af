// select-sms-factor (section 2.6): the mobile to enrol (section 5: required, max 20, an
// international-format hint) or email instead; the server's 422 on the mobile field.
import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import type { Refusal } from '../../../../../machines/forced/continue-sign-in/forced-step';
import { mobile as mobileRule } from '../../../../contract/forced';
import { factorEnrolmentTexts as t } from './factor-enrolment.texts';
import { fieldErrorProps } from '../shared/field-props';

export interface SelectSmsFactorFormProps {
  /**
   * The mobile already entered, when the user comes back from SMS verification ('Change mobile
   * number'): the field starts from it rather than empty (WCAG 3.3.7).
   */
  initialMobile?: string | null;
  busy: boolean;
  refusal: Refusal | null;
  onEnrolSms: (mobile: string) => void;
  onChooseEmail: () => void;
}

export function SelectSmsFactorForm({
  initialMobile,
  busy,
  refusal,
  onEnrolSms,
  onChooseEmail,
}: SelectSmsFactorFormProps) {
  const [mobile, setMobile] = useState(initialMobile ?? '');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (refusal === null) return;
    setError(refusal.fieldErrors.find((e) => e.fieldName === 'mobile')?.message ?? refusal.message);
    input.current?.focus();
  }, [refusal]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = v.safeParse(mobileRule, mobile);
    if (!checked.success) {
      setError(checked.issues[0].message);
      input.current?.focus();
      return;
    }
    onEnrolSms(checked.output);
  };

  return (
    <Stack gap="md">
      {refusal && (
        <Alert color="red" role="alert">
          {refusal.message}
        </Alert>
      )}
      <form onSubmit={submit} noValidate aria-label={t.selectSms.title}>
        <Stack gap="sm">
          <TextInput
            ref={input}
            label={t.selectSms.mobile}
            description={t.selectSms.mobileHint}
            required
            type="tel"
            autoComplete="tel"
            value={mobile}
            onChange={(event) => {
              setMobile(event.currentTarget.value);
              setError(null);
            }}
            error={error}
            errorProps={fieldErrorProps}
          />
          <Group gap="sm" mt="xs">
            <Button type="submit" loading={busy}>
              {t.selectSms.submit}
            </Button>
            <Button variant="default" onClick={onChooseEmail} disabled={busy}>
              {t.selectSms.chooseEmail}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
