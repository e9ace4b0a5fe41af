// /profile/change-security-questions (section 2.3): two questions from the server's enumeration
// (defaults DRIVERS_LICENCE and MEDICARE), answers 4 to 50 (section 5), and the current password.
import { useCallback } from 'react';
import { PageLoader } from '../../app/shell/PageLoader';
import { useAsync } from '../../app/use-async';
import { ProfileFormPage } from './ProfileFormPage';
import { securityQuestionsScreen } from './profile-form.screens';
import { profileCalls } from './profile.actors';

export default function ChangeSecurityQuestionsPage() {
  const load = useCallback((signal: AbortSignal) => profileCalls.securityQuestions(signal), []);
  const questions = useAsync(load);
  if (questions.status !== 'done') return <PageLoader />;
  return <ProfileFormPage spec={securityQuestionsScreen(questions.value)} />;
}
