// Props every forced-step field shares.

/**
 * A field's error: announced politely, and in a red that keeps 4.5:1 on white (WCAG AA); Mantine's
 * default error red (red 6) reaches only 3.3:1.
 */
export const fieldErrorProps = { 'aria-live': 'polite', c: 'red.9' } as const;
