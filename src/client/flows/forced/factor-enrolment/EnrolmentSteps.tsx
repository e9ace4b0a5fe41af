// The enrolment steps forced factor enrolment (section 2.6) and registration (section 2.5) both
// show: select-sms-factor, sms-verification and security-questions, each its instructions and its
// form. The page gives what its flow does differently: the events, its own select-sms address and,
// for registration, the security questions' submit label.
import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { CodeForm, type CodeFormProps } from '../shared/CodeForm';
import { factorEnrolmentTexts as t } from './factor-enrolment.texts';
import { SecurityQuestionsForm, type SecurityQuestionsFormProps } from './SecurityQuestionsForm';
import { SelectSmsFactorForm, type SelectSmsFactorFormProps } from './SelectSmsFactorForm';

/** select-sms-factor: the instructions, then the mobile to enrol or email instead. */
export function SelectSmsStep(props: SelectSmsFactorFormProps) {
  return (
    <>
      <Text>{t.selectSms.instructions}</Text>
      <SelectSmsFactorForm {...props} />
    </>
  );
}

export interface SmsVerificationStepProps {
  /** The mobile the code was sent to; the instructions name it when it is known. */
  mobile: string | null;
  busy: boolean;
  /** The server's message for the last refused code. */
  codeError: string | null;
  onVerify: (code: string) => void;
  resend: NonNullable<CodeFormProps['resend']>;
  /** The address of the flow's own select-sms step: 'Change mobile number' goes back to it. */
  changeMobileTo: string;
}

/** sms-verification: the instructions with the mobile, then the code with resend and change mobile. */
export function SmsVerificationStep({
  mobile,
  busy,
  codeError,
  onVerify,
  resend,
  changeMobileTo,
}: SmsVerificationStepProps) {
  return (
    <>
      <Text>{t.smsVerification.instructions(mobile)}</Text>
      <CodeForm
        name={t.smsVerification.title}
        submitLabel={t.smsVerification.submit}
        busy={busy}
        codeError={codeError}
        onSubmit={onVerify}
        resend={resend}
        after={
          <Anchor component={Link} to={changeMobileTo} size="sm">
            {t.smsVerification.changeMobile}
          </Anchor>
        }
      />
    </>
  );
}

export interface SecurityQuestionsStepProps extends SecurityQuestionsFormProps {
  /** Section 8: the SMS gateway's unavailable message, shown above the instructions; null for none. */
  smsUnavailable: string | null;
}

/** security-questions: SMS unavailable (where it was), the instructions, then the two questions. */
export function SecurityQuestionsStep({ smsUnavailable, ...form }: SecurityQuestionsStepProps) {
  return (
    <>
      {smsUnavailable && (
        <Alert color="orange" title={t.smsUnavailableTitle}>
          {smsUnavailable}
        </Alert>
      )}
      <Text>{t.securityQuestions.instructions}</Text>
      <SecurityQuestionsForm {...form} />
    </>
  );
}
