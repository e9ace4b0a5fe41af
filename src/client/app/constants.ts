// Business constants of section 9 that the shell uses.

/** Section 9: toast duration 8 s (the update toast stays until dismissed). */
export const TOAST_DURATION_MS = 8_000;

/** Section 9: chunk load time-out 120 s. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
