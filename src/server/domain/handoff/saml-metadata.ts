// The identity provider's SAML 2.0 metadata: entity id, signing certificate and the SSO endpoints
// (HTTP-Redirect and HTTP-POST), built with xmlbuilder2 like every other document we send.
import { create } from 'xmlbuilder2';
import type { SamlSigningKey } from '../../adapters/signing-keys';
import {
  BINDING_HTTP_POST,
  BINDING_HTTP_REDIRECT,
  NAMEID_PERSISTENT,
  SAML_METADATA_NS,
  SAML_PROTOCOL_NS,
  XMLDSIG_NS,
} from './saml-constants';

export interface IdpEndpoints {
  entityId: string;
  ssoUrl: string;
}

export function buildIdpMetadata(endpoints: IdpEndpoints, key: SamlSigningKey): string {
  const descriptor = create({ version: '1.0', encoding: 'UTF-8' })
    .ele(SAML_METADATA_NS, 'md:EntityDescriptor', { 'xmlns:ds': XMLDSIG_NS, entityID: endpoints.entityId })
    .ele(SAML_METADATA_NS, 'md:IDPSSODescriptor', {
      // Requests of SPs with a registered certificate are verified; others need not be signed.
      WantAuthnRequestsSigned: 'false',
      protocolSupportEnumeration: SAML_PROTOCOL_NS,
    });
  descriptor
    .ele(SAML_METADATA_NS, 'md:KeyDescriptor', { use: 'signing' })
    .ele(XMLDSIG_NS, 'ds:KeyInfo')
    .ele(XMLDSIG_NS, 'ds:X509Data')
    .ele(XMLDSIG_NS, 'ds:X509Certificate')
    .txt(key.certificateBase64);
  descriptor.ele(SAML_METADATA_NS, 'md:NameIDFormat').txt(NAMEID_PERSISTENT);
  for (const binding of [BINDING_HTTP_REDIRECT, BINDING_HTTP_POST]) {
    descriptor.ele(SAML_METADATA_NS, 'md:SingleSignOnService', {
      Binding: binding,
      Location: endpoints.ssoUrl,
    });
  }
  return descriptor.doc().end({ prettyPrint: true, wellFormed: true });
}
