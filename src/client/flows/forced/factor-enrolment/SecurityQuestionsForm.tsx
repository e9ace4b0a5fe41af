// security-questions (sections 2.6 and 5): two different questions from the enumeration (defaults
// DRIVERS_LICENCE and MEDICARE), answers required, 4 to 50; the server's 422 on its fields. The
// answers live only here, in form state, until they are sent with user.submit.
import { Alert, Button, NativeSelect, Stack, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import * as v from 'valibot';
import type { Refusal } from '../../../../../machines/forced/continue-sign-in/forced-step';
import type {
  SecurityQuestion,
  SecurityQuestionsInput,
} from '../../../../../machines/forced/factor-enrolment/factor-enrolment.types';
import { SecurityQuestionsFields } from '../../../../contract/forced';
import { factorEnrolmentTexts as t } from './factor-enrolment.texts';
import { fieldErrorProps as errorProps } from '../shared/field-props';

type Field = keyof SecurityQuestionsInput;
type Errors = Partial<Record<Field, string>>;
const FIELDS: readonly Field[] = ['question1', 'answer1', 'question2', 'answer2'];

/** Section 3: the questions offered first. */
export const DEFAULT_QUESTIONS = ['DRIVERS_LICENCE', 'MEDICARE'] as const;

export function validateSecurityQuestions(values: SecurityQuestionsInput): Errors {
  const errors: Errors = {};
  const result = v.safeParse(SecurityQuestionsFields, values, { abortPipeEarly: true });
  if (!result.success) {
    for (const issue of result.issues) {
      const field = issue.path?.[0]?.key as Field | undefined;
      if (field && errors[field] === undefined) errors[field] = issue.message;
    }
  }
  if (errors.question2 === undefined && values.question1 !== '' && values.question1 === values.question2) {
    errors.question2 = t.securityQuestions.sameQuestion;
  }
  return errors;
}

function initialQuestion(questions: SecurityQuestion[], index: 0 | 1): string {
  const preferred = DEFAULT_QUESTIONS[index];
  if (questions.some((q) => q.code === preferred)) return preferred;
  return questions[index]?.code ?? '';
}

export interface SecurityQuestionsFormProps {
  questions: SecurityQuestion[];
  busy: boolean;
  refusal: Refusal | null;
  onSubmit: (values: SecurityQuestionsInput) => void;
  /**
   * The submit button's text: forced enrolment ends here ('Finish enrolment', the default);
   * registration still has set-password to come (section 2.5) and passes its own.
   */
  submitLabel?: string;
}

export function SecurityQuestionsForm({
  questions,
  busy,
  refusal,
  onSubmit,
  submitLabel = t.securityQuestions.submit,
}: SecurityQuestionsFormProps) {
  const [values, setValues] = useState<SecurityQuestionsInput>(() => ({
    question1: initialQuestion(questions, 0),
    answer1: '',
    question2: initialQuestion(questions, 1),
    answer2: '',
  }));
  const [errors, setErrors] = useState<Errors>({});
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | HTMLSelectElement | null>>>({});
  const refusalAlert = useRef<HTMLDivElement>(null);

  // Each refusal: its field errors on the fields, the focus on the first; without a field to go to,
  // on the refusal's message (the submit button, busy while it sent, has dropped it: WCAG 2.4.3).
  useEffect(() => {
    if (refusal === null) return;
    const found: Errors = {};
    for (const { fieldName, message } of refusal.fieldErrors) {
      if ((FIELDS as readonly string[]).includes(fieldName)) found[fieldName as Field] = message;
    }
    setErrors(found);
    const first = FIELDS.find((f) => found[f]);
    if (first) inputs.current[first]?.focus();
    else refusalAlert.current?.focus();
  }, [refusal]);

  const change = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const ref = (field: Field) => (node: HTMLInputElement | HTMLSelectElement | null) => {
    inputs.current[field] = node;
  };
  const options = questions.map((q) => ({ value: q.code, label: q.description }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateSecurityQuestions(values);
    const first = FIELDS.find((f) => found[f]);
    if (first) {
      setErrors(found);
      inputs.current[first]?.focus();
      return;
    }
    onSubmit({ ...values, answer1: values.answer1.trim(), answer2: values.answer2.trim() });
  };

  return (
    <Stack gap="md">
      {refusal && (
        <Alert color="red" role="alert" ref={refusalAlert} tabIndex={-1}>
          {refusal.message}
        </Alert>
      )}
      <form onSubmit={submit} noValidate aria-label={t.securityQuestions.title}>
        <Stack gap="sm">
          {([1, 2] as const).map((n) => {
            const question = `question${n}` as const;
            const answer = `answer${n}` as const;
            return (
              <Stack gap="xs" key={n}>
                <NativeSelect
                  label={t.securityQuestions.question(n)}
                  required
                  data={options}
                  value={values[question]}
                  onChange={(event) => change(question, event.currentTarget.value)}
                  error={errors[question]}
                  errorProps={errorProps}
                  ref={ref(question)}
                />
                <TextInput
                  label={t.securityQuestions.answer(n)}
                  required
                  autoComplete="off"
                  value={values[answer]}
                  onChange={(event) => change(answer, event.currentTarget.value)}
                  error={errors[answer]}
                  errorProps={errorProps}
                  ref={ref(answer)}
                />
              </Stack>
            );
          })}
          <div>
            <Button type="submit" loading={busy} mt="xs">
              {submitLabel}
            </Button>
          </div>
        </Stack>
      </form>
    </Stack>
  );
}
