// Texts of the status pages of section 2.1. The sentences in quotes in the spec are word for word.
export const errorTexts = {
  heading: 'Something went wrong',
  unavailable: 'The service we tried to load is temporarily unavailable...',
  message: 'Message',
  traceId: 'Trace id',
  timestamp: 'Timestamp',
  supportLead: 'If the problem continues, contact support at',
} as const;

export const notFoundTexts = {
  heading: 'Page not found',
  body: 'The page you are looking for does not exist.',
} as const;

export const permissionDeniedTexts = {
  heading: 'Permission denied',
  body: 'You do not have permission to access this page or perform this action.',
} as const;

export const sessionExpiredTexts = {
  heading: 'Session expired',
  body: 'Your session has expired. Please refresh this page to try again.',
} as const;

export const cookiesDisabledTexts = {
  heading: 'Cookies are disabled',
  body: 'Cookies must be enabled to sign in and use this site.',
  howTo: 'Turn on cookies for this site in your browser settings, then reload this page.',
} as const;
