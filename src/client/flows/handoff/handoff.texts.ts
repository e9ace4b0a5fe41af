// Texts of the handoff to an application (sections 2.3 and 8), shared by every page that hands off.
// Strings quoted from the spec are word for word; tests import them from here.

/**
 * Section 8's handoff error, word for word: 'The following error occurred and you cannot handoff to
 * {app}. {message}.' The server's message usually ends with its own full stop; it is not doubled.
 */
export function handoffRefusedMessage(appName: string, message: string): string {
  const sentence = message.trim().replace(/\.+$/, '');
  return `The following error occurred and you cannot handoff to ${appName}. ${sentence}.`;
}

export const handoffTexts = {
  /** Shown while the hidden form posts the response to the application. */
  handingOff: (appName: string) => `Handing off to ${appName}`,
  /** The hidden form's button, for a browser that did not submit it. */
  continueHandoff: 'Continue',
  /** Title of the 8 s toast of a refused handoff. */
  refusedTitle: 'Handoff failed',
  refused: handoffRefusedMessage,
} as const;
