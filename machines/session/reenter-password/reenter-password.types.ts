/** A 422 on the re-entered password: the server's message (wrong password, locked). */
export interface ReenterRefusal {
  message: string;
}

/** POST reenter-password: accepted, or refused (422). */
export type ReenterResult = { type: 'accepted' } | ({ type: 'refused' } & ReenterRefusal);

export interface ReenterPasswordContext {
  /** The last refusal, shown on the password field until the next submit. */
  refusal: ReenterRefusal | null;
  /** The message of an unexpected failure of the submit. */
  errorMessage: string | null;
}

export type ReenterPasswordEvent =
  /** Submit in the modal; the password goes straight to the call, never into context. */
  | { type: 'user.submit'; password: string }
  /** Sign out in the modal: the shell's sign-out. */
  | { type: 'user.signOut' }
  /**
   * The server refused a call until the password is entered again (the api layer): ask now,
   * without waiting for the next cookie check.
   */
  | { type: 'password.required' };
