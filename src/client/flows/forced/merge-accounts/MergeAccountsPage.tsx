// /forced-actions/duplicate-accounts and /forced-actions/merge-accounts/* (section 2.6): one
// machine for the notice and the wizard; the address gives the step a reload resumes at (the
// wizard data is kept in session storage), and the state's meta the step's route and progress.
import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { mergeAccountsMachine } from '../../../../../machines/forced/merge-accounts/merge-accounts.machine';
import {
  selectBusy,
  selectCandidates,
  selectCanSkip,
  selectDetails,
  selectErrorMessage,
  selectFieldErrors,
  selectIdvConflict,
  selectMergeErrors,
  selectProgress,
  selectRefusal,
  selectResending,
  selectResendRefusal,
  selectUsernameOptions,
  selectView,
  selectWizard,
} from '../../../../../machines/forced/merge-accounts/merge-accounts.select';
import { announce } from '../../../app/notices';
import { MERGE_ACCOUNTS_ROUTE, MERGE_ACCOUNTS_STEPS } from '../../../app/routes';
import { useSession } from '../../../app/session';
import { useSignOut } from '../../../app/session/use-sign-out';
import { useFlowActor } from '../../shared/use-flow-actor';
import { useFlowRoute } from '../../shared/use-flow-route';
import { DuplicateAccountsNotice } from '../duplicate-accounts/DuplicateAccountsNotice';
import { CodeForm } from '../shared/CodeForm';
import { applyFlowOutput } from '../../shared/flow-output';
import { ContinueSignInView, ForcedProgress, ForcedStepFailed } from '../shared/ForcedStatus';
import { StepProgress } from '../shared/StepProgress';
import { mergeAccountsActors } from './merge-accounts.actors';
import { clearMergeWizard, writeMergeWizard } from './merge-accounts.storage';
import { mergeAccountsTexts as t } from './merge-accounts.texts';
import { BackLink, ChangeEmailForm, ChoosePreferredUsernameForm, ConfirmationView } from './MergeSteps';
import { SelectAccountsForm } from './SelectAccountsForm';

const step = (name: string) => `${MERGE_ACCOUNTS_ROUTE}/${name}`;

export default function MergeAccountsPage() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const signOut = useSignOut();
  const [, send, actorRef] = useFlowActor(mergeAccountsMachine, {
    input: {
      path: location.pathname,
      username: session.currentUser?.username ?? '',
      targetPath: session.targetPath,
      adminTargetPath: session.adminTargetPath,
    },
    actors: mergeAccountsActors,
    actions: {
      announceResent: () => announce({ message: t.resent('email'), tone: 'success' }),
      reloadCurrentUser: () => {
        session.reload().catch(() => {});
      },
    },
    onDone: (output) => {
      clearMergeWizard();
      applyFlowOutput(output, session, (to, options) => void navigate(to, options));
    },
  });
  useFlowRoute(actorRef);

  const view = useSelector(actorRef, selectView);
  const busy = useSelector(actorRef, selectBusy);
  const resending = useSelector(actorRef, selectResending);
  const progress = useSelector(actorRef, selectProgress);
  const candidates = useSelector(actorRef, selectCandidates);
  const canSkip = useSelector(actorRef, selectCanSkip);
  const wizard = useSelector(actorRef, selectWizard);
  const refusal = useSelector(actorRef, selectRefusal);
  const fieldErrors = useSelector(actorRef, selectFieldErrors);
  const idvConflict = useSelector(actorRef, selectIdvConflict);
  const resendRefusal = useSelector(actorRef, selectResendRefusal);
  const usernameOptions = useSelector(actorRef, selectUsernameOptions);
  const details = useSelector(actorRef, selectDetails);
  const mergeErrors = useSelector(actorRef, selectMergeErrors);
  const errorMessage = useSelector(actorRef, selectErrorMessage);
  const continuation = useSelector(actorRef, (s) => s.children.continueSignIn);

  // The wizard data survives a reload (section 3); it is written once the stored data was read.
  useEffect(() => {
    if (view === 'loading') return;
    if (view === 'done') clearMergeWizard();
    else writeMergeWizard(wizard);
  }, [view, wizard]);

  if (
    view === 'loading' ||
    view === 'continuing' ||
    view === 'failed' ||
    view === 'invalidating' ||
    view === 'done'
  ) {
    return (
      <Container size={560} px={0} py="xl">
        {view === 'loading' && <ForcedProgress label={t.loading} />}
        {view === 'continuing' && <ContinueSignInView actor={continuation} />}
        {view === 'failed' && <ForcedStepFailed message={errorMessage} onLeave={() => void signOut()} />}
        {view === 'invalidating' && <ForcedProgress label={t.cancelling} />}
        {view === 'done' && <ForcedProgress label={t.signingIn} />}
      </Container>
    );
  }

  if (view === 'notice') {
    return (
      <Container size={560} px={0} py="xl">
        <DuplicateAccountsNotice
          email={session.currentUser?.email ?? null}
          canSkip={canSkip}
          busy={busy}
          error={refusal?.message ?? null}
          onStartMerge={() => send({ type: 'user.startMerge' })}
          onSkip={() => send({ type: 'user.skip' })}
        />
      </Container>
    );
  }

  const hasNotSelected = (wizard.notSelectedIdentities?.length ?? 0) > 0;
  const stepTitle = {
    selectAccounts: t.selectAccounts.title,
    changeEmail: t.changeEmail.title,
    emailVerification: t.emailVerification.title,
    choosePreferredUsername: t.choosePreferredUsername.title,
    confirmation: t.confirmation.title,
    emailChanged: t.emailChanged.title,
    completed: t.completed.title,
  }[view];

  return (
    <Container size={560} px={0} py="xl">
      <Stack gap="lg">
        <Title order={1}>{t.heading}</Title>
        {progress !== null && <StepProgress value={progress} />}
        <Title order={2} size="h3" data-step-heading>
          {stepTitle}
        </Title>
        {view === 'selectAccounts' && (
          <>
            <Text>{t.selectAccounts.instructions}</Text>
            <SelectAccountsForm
              candidates={candidates}
              selectedIds={(wizard.selectedIdentities ?? []).map((i) => i.id)}
              noneSelected={wizard.selectedIdentities !== null && wizard.selectedIdentities.length === 0}
              busy={busy}
              refusal={refusal}
              idvConflict={idvConflict}
              onSelectionChanged={() => send({ type: 'user.selectionChanged' })}
              onSubmit={(identities) => send({ type: 'user.selectAccounts', identities })}
            />
          </>
        )}
        {view === 'changeEmail' && (
          <>
            <Text>{t.changeEmail.instructions}</Text>
            <ChangeEmailForm
              currentEmail={session.currentUser?.email ?? null}
              busy={busy}
              refusal={refusal}
              backTo={step(MERGE_ACCOUNTS_STEPS.SELECT_ACCOUNTS)}
              onSubmit={(email) => send({ type: 'user.changeEmail', email })}
            />
          </>
        )}
        {view === 'emailVerification' && (
          <>
            <Text>{t.emailVerification.instructions(wizard.newEmail)}</Text>
            <CodeForm
              name={t.emailVerification.title}
              submitLabel={t.emailVerification.submit}
              busy={busy}
              codeError={refusal ? (fieldErrors.code ?? refusal.message) : null}
              onSubmit={(code) => send({ type: 'user.verify', code })}
              resend={{
                onResend: () => send({ type: 'user.resend' }),
                busy: resending,
                refusal: resendRefusal,
              }}
              after={
                <BackLink
                  to={step(MERGE_ACCOUNTS_STEPS.CHANGE_EMAIL)}
                  label={t.emailVerification.back}
                  disabled={busy || resending}
                />
              }
            />
          </>
        )}
        {view === 'choosePreferredUsername' && (
          <>
            <Text>{t.choosePreferredUsername.instructions}</Text>
            {usernameOptions.length > 0 && (
              <ChoosePreferredUsernameForm
                options={usernameOptions}
                initial={wizard.preferredUsername}
                busy={busy}
                refusal={refusal}
                backTo={step(
                  hasNotSelected ? MERGE_ACCOUNTS_STEPS.CHANGE_EMAIL : MERGE_ACCOUNTS_STEPS.SELECT_ACCOUNTS,
                )}
                onSubmit={(username) => send({ type: 'user.chooseUsername', username })}
              />
            )}
          </>
        )}
        {view === 'confirmation' && (
          <ConfirmationView
            details={details}
            errors={mergeErrors}
            busy={busy}
            backTo={step(MERGE_ACCOUNTS_STEPS.CHOOSE_PREFERRED_USERNAME)}
            onMerge={() => send({ type: 'user.merge' })}
          />
        )}
        {view === 'emailChanged' && (
          <>
            <Text>{t.emailChanged.body(wizard.newEmail)}</Text>
            <Button onClick={() => send({ type: 'user.continue' })}>{t.emailChanged.continue}</Button>
          </>
        )}
        {view === 'completed' && (
          <>
            <Text>{t.completed.body(wizard.preferredUsername, wizard.mergedUsernames ?? [])}</Text>
            <Button onClick={() => send({ type: 'user.continue' })}>{t.completed.continue}</Button>
          </>
        )}
      </Stack>
    </Container>
  );
}
