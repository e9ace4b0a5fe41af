// Between the api layer and the 'Re-enter password' watcher (section 4.2). A call the server
// refuses until the password is entered again (401 REENTER_PASSWORD_REQUIRED_MESSAGE) waits here
// for the modal to be passed, and is then sent again: the session is alive, so section 8's
// session-expired handling (forget the user, sign in again, MFA included) would be wrong. The api
// layer loads this module only then; the watcher, running while the user is signed in, registers
// how to ask.

/** Asks for the password now; settles once the modal has closed (rejects if `signal` aborts). */
export type ReenterPrompt = (signal?: AbortSignal) => Promise<void>;

/** How long a refused call waits for the watcher to start (its chunk loads after sign-in). */
export const WATCHER_WAIT_MS = 10_000;

let prompt: ReenterPrompt | null = null;
const waiting = new Set<() => void>();

export function registerReenterPrompt(next: ReenterPrompt | null): void {
  prompt = next;
  if (next) for (const wake of [...waiting]) wake();
}

/** Whether the password was entered again; false when no watcher is there to ask. */
export async function passwordReentered(signal?: AbortSignal): Promise<boolean> {
  if (!prompt) {
    await new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, WATCHER_WAIT_MS);
      waiting.add(wake);
    });
  }
  if (!prompt) return false;
  await prompt(signal);
  return true;
}
