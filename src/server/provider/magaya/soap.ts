/**
 * Magaya's CSSoapService over SOAP 1.1 (docs/provider-magaya.md): a call is a POST of an envelope
 * whose method element is in `urn:CSSoapService`, its parameters typed with xsi:type; the answer is
 * a `<MethodResponse>` whose `<return>` is `no_error` or an error code, followed by out-parameters, an
 * XML document in one arriving as escaped text. Answers are read as a stream; the documents inside
 * out-parameters are handed over element by element. The client only reads: it calls no method that
 * writes to Magaya.
 */
import { magayaErrorText } from '~/shared/magaya';
import { ProviderError } from '../contract';
import { isNetworkFailure } from '../transport';
import { textOf, XmlElementReader, XmlRefusedError, type XmlElement } from './xml';

const SOAP_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';
export const CS_SOAP_SERVICE = 'urn:CSSoapService';
const NO_ERROR = 'no_error';
/** An out-parameter's plain value longer than this is no value the client reads (a cookie, a flag, a key). */
const VALUE_MAX_CHARS = 4096;

/**
 * `return` codes of Magaya's and the client's own failures, said in words by `magayaErrorText`
 * (src/shared/magaya.ts).
 */
export type MagayaErrorCode =
  | 'access_denied'
  | 'license_in_use'
  | 'too_many_open_sessions'
  | 'transaction_not_found'
  | 'unreachable'
  | 'fault'
  | 'bad_response'
  /** The portal's own: no API user is set. */
  | 'not_configured'
  /** The portal's own: it is shutting down, so it ended the session before the work was done. */
  | 'stopped'
  | (string & {});

/** What Magaya refused, or why it could not be asked; `code` is Magaya's `return` code or the client's own. */
export class MagayaError extends ProviderError {
  constructor(
    readonly code: MagayaErrorCode,
    detail: string | null = null,
  ) {
    super(magayaErrorText(code, detail), ERROR_KINDS[code] ?? 'bad-response');
    this.name = 'MagayaError';
  }
}

const ERROR_KINDS: Partial<Record<MagayaErrorCode, ProviderError['kind']>> = {
  unreachable: 'unreachable',
  access_denied: 'unauthorized',
  not_configured: 'not-connected',
};

export type SoapParameter = { type: 'string'; value: string } | { type: 'int'; value: number };
export const soapString = (value: string): SoapParameter => ({ type: 'string', value });
export const soapInt = (value: number): SoapParameter => ({ type: 'int', value });

const escapeXml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');

/** A SOAP 1.1 request envelope for one method of CSSoapService. */
export function soapEnvelope(method: string, parameters: Record<string, SoapParameter>): string {
  const body = Object.entries(parameters)
    .map(
      ([name, { type, value }]) =>
        `<${name} xsi:type="xsd:${type}">${escapeXml(String(value))}</${name}>`,
    )
    .join('');
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    `<soap:Envelope xmlns:soap="${SOAP_ENVELOPE}"` +
    ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"' +
    ' soap:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">' +
    `<soap:Body><m:${method} xmlns:m="${CS_SOAP_SERVICE}">${body}</m:${method}></soap:Body></soap:Envelope>`
  );
}

export interface SoapCallOptions {
  /** Local names of the elements wanted from the XML documents inside out-parameters. */
  wanted?: ReadonlySet<string>;
  /**
   * Each wanted element as it is read, before the call's `return` code is known: a call that then
   * fails rejects, and the caller keeps nothing of what it was handed.
   */
  onElement?: (element: XmlElement) => void;
}

export interface SoapTransport {
  url: string;
  /** How long one call may take before it counts as stalled. */
  timeoutMs: number;
}

/** One call: its plain out-parameters by name (`return` is no_error; any other code is thrown as a MagayaError). */
export async function callSoap(
  transport: SoapTransport,
  method: string,
  parameters: Record<string, SoapParameter>,
  options: SoapCallOptions = {},
): Promise<Map<string, string>> {
  let response: Response;
  try {
    response = await fetch(transport.url, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml; charset=utf-8', Accept: 'text/xml' },
      body: soapEnvelope(method, parameters),
      signal: AbortSignal.timeout(transport.timeoutMs),
    });
  } catch (error) {
    if (isNetworkFailure(error)) throw new MagayaError('unreachable');
    throw error;
  }
  // A SOAP Fault comes with a 500; anything else that is not a 200 is no answer of CSSoapService.
  if (!response.ok && response.status !== 500) {
    await response.body?.cancel();
    throw response.status >= 502 && response.status <= 504
      ? new MagayaError('unreachable')
      : new MagayaError('bad_response', `HTTP ${response.status}`);
  }
  const answer = new SoapAnswerReader(options);
  try {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    for await (const chunk of response.body ?? [])
      answer.write(decoder.decode(chunk, { stream: true }));
    answer.write(decoder.decode());
    answer.close();
  } catch (error) {
    if (error instanceof MagayaError) throw error;
    if (error instanceof XmlRefusedError) throw new MagayaError('bad_response', error.message);
    if (isNetworkFailure(error)) throw new MagayaError('unreachable');
    if (error instanceof TypeError)
      throw new MagayaError('bad_response', 'The answer is not UTF-8');
    throw error;
  }
  return answer.result();
}

/**
 * Reads an answer envelope: the Body's first element is the MethodResponse (or a Fault); its child
 * elements are the out-parameters. A parameter whose text is an XML document is read as one, by its
 * own streaming reader, as the text arrives.
 */
class SoapAnswerReader {
  private readonly outer: XmlElementReader;
  private readonly values = new Map<string, string>();
  private readonly documents = new Map<string, XmlElementReader>();
  private method: string | null = null;
  private fault: XmlElement | null = null;

  constructor(private readonly options: SoapCallOptions) {
    this.outer = new XmlElementReader(
      (name) => name === 'Fault',
      (path, text) => this.take(path, text),
    );
  }

  write(text: string): void {
    this.outer.write(text);
    this.handOver();
  }

  close(): void {
    this.outer.close();
    for (const document of this.documents.values()) document.close();
    this.handOver();
    this.fault = this.outer.take()[0] ?? null;
  }

  result(): Map<string, string> {
    if (this.fault)
      throw new MagayaError(
        'fault',
        textOf(this.fault, 'faultstring') || textOf(this.fault, 'faultcode') || 'SOAP Fault',
      );
    if (this.method === null)
      throw new MagayaError('bad_response', 'The answer holds no method response');
    const values = new Map([...this.values].map(([name, value]) => [name, value.trim()]));
    const code = values.get('return');
    if (code === undefined) throw new MagayaError('bad_response', 'The answer has no return code');
    if (code !== NO_ERROR) throw new MagayaError(code);
    return values;
  }

  /** Text of Envelope/Body/MethodResponse/parameter (and deeper, for a parameter written as markup). */
  private take(path: readonly string[], text: string): void {
    if (path.length < 3 || path[1] !== 'Body' || path[2] === 'Fault') return;
    this.method ??= path[2]!;
    if (path.length !== 4) return;
    const name = path[3]!;
    const document = this.documents.get(name);
    if (document) {
      document.write(text);
      return;
    }
    const value = (this.values.get(name) ?? '') + text;
    if (value.trimStart().startsWith('<')) {
      // An escaped document: from here on its text goes to a reader of its own, not to memory.
      const reader = new XmlElementReader((local) => this.options.wanted?.has(local) ?? false);
      this.documents.set(name, reader);
      this.values.delete(name);
      reader.write(value.trimStart());
      return;
    }
    if (value.length > VALUE_MAX_CHARS)
      throw new MagayaError('bad_response', `The out-parameter ${name} is too long`);
    this.values.set(name, value);
  }

  private handOver(): void {
    for (const document of this.documents.values())
      for (const element of document.take()) this.options.onElement?.(element);
  }
}
