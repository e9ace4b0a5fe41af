// Refusals of the handoff calls and the SAML endpoints. A handoff refusal is shown by the portal
// as 'The following error occurred and you cannot handoff to {app}. {message}.', so these carry no
// final full stop.
export const handoffMessages = {
  noAccess: (appName: string) => `You do not have access to ${appName}`,
  noAccessAtFacility: (appName: string, facilityCode: string) =>
    `You do not have access to ${appName} at facility ${facilityCode}`,
  unknownApp: (appCode: string) => `There is no application ${appCode}`,
  notSaml: (appName: string) => `${appName} does not accept a SAML handoff`,
  facilityRequired: (appName: string) => `Choose the ${appName} facility to hand off to`,
  noFacility: (appName: string) => `${appName} does not take a facility`,
  noSsoRequest: 'There is no single sign-on request to answer',
  otherSsoApp: (appName: string) => `The single sign-on request is for ${appName}`,
  notContextApp: (appName: string) => `This sign-in is for ${appName}`,
} as const;

export const samlMessages = {
  missingRequest: 'SAMLRequest is required',
  unknownSp: 'The SAML request does not come from a registered service provider',
  acsMismatch: 'The AssertionConsumerServiceURL is not the one registered for this service provider',
  wrongDestination: 'The AuthnRequest is addressed to another identity provider',
  /** SAML bindings 3.4.5.2 and 3.5.5.2: a signed message names its Destination. */
  signedWithoutDestination: 'A signed AuthnRequest must name its Destination',
  expired: 'The AuthnRequest has expired; start again from the application',
  notYetValid: 'The AuthnRequest is dated in the future',
  replayed: 'The AuthnRequest has already been answered; start again from the application',
  relayStateTooLong: 'RelayState is too long',
  unknownJwtApp: 'There is no framed application with that code',
} as const;
