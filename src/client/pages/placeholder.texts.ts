// Headings of the sections whose content arrives with later issues (access requests, admin).
export const accessRequestsTexts = { heading: 'Access Requests' } as const;
export const adminTexts = { heading: 'Administration' } as const;
