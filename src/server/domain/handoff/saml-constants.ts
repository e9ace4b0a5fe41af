// The SAML 2.0 and XML Signature names this identity provider speaks.
export const SAML_PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
export const SAML_ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
export const SAML_METADATA_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
export const XMLDSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

export const BINDING_HTTP_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
export const BINDING_HTTP_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export const STATUS_SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
export const NAMEID_PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
export const CM_BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
export const ATTRNAME_BASIC = 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic';
export const AC_PASSWORD_PROTECTED_TRANSPORT =
  'urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport';
/** REFEDS MFA profile: the sign-in passed a second factor. */
export const AC_REFEDS_MFA = 'https://refeds.org/profile/mfa';

export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const RSA_SHA512 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512';
export const DIGEST_SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
export const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
export const ENVELOPED_SIGNATURE = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

/** How long a response may be presented at the ACS (Conditions and SubjectConfirmationData). */
export const RESPONSE_LIFETIME_MS = 5 * 60_000;
/** An AuthnRequest older than this is refused as expired. */
export const REQUEST_MAX_AGE_MS = 5 * 60_000;
/** Clocks of SPs and this server may disagree by this much. */
export const CLOCK_SKEW_MS = 60_000;
