// The handoff machine's browser actions, provided by the views that run it.
import type { HandoffRefusal } from '../../../../machines/handoff/handoff.types';
import { announce } from '../../app/notices';
import { handoffTexts } from './handoff.texts';

/** Section 8: a refused handoff is told in a toast for 8 s (the shell's notice toasts last 8 s). */
export function announceRefusal(_: unknown, refusal: HandoffRefusal | null): void {
  if (!refusal) return;
  announce({
    title: handoffTexts.refusedTitle,
    message: handoffTexts.refused(refusal.appName, refusal.message),
    tone: 'error',
  });
}
