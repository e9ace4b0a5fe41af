// XML helpers for the SAML endpoints: text that XML 1.0 can carry, and a strict parser for what
// service providers send.
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';

/**
 * Characters XML 1.0 cannot carry at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF) are
 * dropped; everything else is kept and escaped by the builder.
 */
export function xmlText(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

export class XmlInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlInputError';
  }
}

/** Largest XML document a service provider may send. */
export const MAX_REQUEST_XML_BYTES = 64 * 1024;

/**
 * Parses a document from a service provider. A DOCTYPE is refused outright (SAML never needs one,
 * and it is how entity-expansion attacks start); any parser warning or error refuses the document.
 */
export function parseStrictXml(xml: string): Document {
  if (Buffer.byteLength(xml, 'utf8') > MAX_REQUEST_XML_BYTES) throw new XmlInputError('The XML is too large');
  if (/<!DOCTYPE/i.test(xml)) throw new XmlInputError('A DOCTYPE is not allowed');
  let document: Document;
  try {
    document = new DOMParser({
      onError: (level, message) => {
        throw new XmlInputError(`${level}: ${message}`);
      },
    }).parseFromString(xml, 'text/xml');
  } catch (error) {
    if (error instanceof XmlInputError) throw error;
    throw new XmlInputError(error instanceof Error ? error.message : 'The XML cannot be read');
  }
  if (!document.documentElement) throw new XmlInputError('The XML has no root element');
  return document;
}

/** Direct children of `parent` with the namespace and local name. */
export function childElements(parent: Element, namespace: string, localName: string): Element[] {
  const out: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === node.ELEMENT_NODE) {
      const element = node as Element;
      if (element.namespaceURI === namespace && element.localName === localName) out.push(element);
    }
  }
  return out;
}

/** The text content of an element, trimmed. */
export function textOf(element: Element): string {
  return (element.textContent ?? '').trim();
}
