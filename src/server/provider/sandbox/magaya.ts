/**
 * The sandbox speaking Magaya (SANDBOX_PROTOCOL=magaya): the same generated receipts through a
 * CSSoapService-like SOAP endpoint, with the quirks Magaya's public clients describe: one session per
 * API user (a second gets `too_many_open_sessions`), cookies that must be threaded (an old cookie
 * answers the same page again), documents as escaped text in out-parameters, a boolean
 * `backwards_order` refused with a SOAP Fault, some receipts in kg and m³, some not online, and a
 * QueryLog of the sandbox's own changes.
 */
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock';
import type { ProviderAttachment, ProviderReceipt } from '../contract';
import {
  CUBIC_FEET_PER_CUBIC_METRE,
  MAGAYA_NAMESPACE,
  POUNDS_PER_KILOGRAM,
} from '../magaya/receipt';
import { childOf, parseXml, XmlRefusedError, type XmlElement } from '../magaya/xml';
import type { SandboxAttachments } from './attachments';
import type { SandboxStore } from './store';

const GUID_PREFIX = {
  receipt: '5a4d0000-0000-4000-8000-',
  consignee: 'c0a5a000-0000-4000-8000-',
} as const;

/** A sandbox id as a Magaya GUID, and back. */
export const sandboxGuid = (kind: keyof typeof GUID_PREFIX, id: number) =>
  `${GUID_PREFIX[kind]}${String(id).padStart(12, '0')}`;
export function sandboxIdOfGuid(kind: keyof typeof GUID_PREFIX, guid: string): number | null {
  if (!guid.startsWith(GUID_PREFIX[kind])) return null;
  const id = Number(guid.slice(GUID_PREFIX[kind].length));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The sandbox's statuses as Magaya's; Cancelled receipts are taken offline instead. */
const MAGAYA_STATUS_OF: Readonly<Record<string, string>> = {
  Pending: 'Pending',
  'Received at MIA warehouse': 'OnHand',
  'Received at NL warehouse': 'OnHand',
  'On-Hold': 'InProcess',
  'In-Transit': 'InTransit',
  Arrived: 'AtDestination',
  'At destination': 'AtDestination',
  'Received at SME warehouse': 'AtDestination',
  Delivered: 'Delivered',
};

/** Every fourth receipt is written in kg and m³, as a metric Magaya would. */
const isMetric = (id: number) => id % 4 === 0;

const escapeXml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
const element = (name: string, text: string | number, attributes = '') =>
  `<${name}${attributes}>${escapeXml(String(text))}</${name}>`;
const metricFigure = (value: number, factor: number, decimals: number) =>
  (value / factor).toFixed(decimals);

function measureXml(
  name: 'Weight' | 'TotalWeight' | 'Volume' | 'TotalVolume',
  value: number,
  metric: boolean,
): string {
  const weight = name.endsWith('Weight');
  if (!metric) return element(name, value, ` Unit="${weight ? 'lb' : 'ft3'}"`);
  return weight
    ? element(name, metricFigure(value, POUNDS_PER_KILOGRAM, 4), ' Unit="kg"')
    : element(name, metricFigure(value, CUBIC_FEET_PER_CUBIC_METRE, 6), ' Unit="m3"');
}

function modeXml(mode: string): string {
  const [code, description] = mode.includes(' - ') ? mode.split(' - ', 2) : ['', mode];
  return (
    `<ModeOfTransportation${code ? ` Code="${escapeXml(code)}"` : ''}>` +
    element('Description', description ?? '') +
    '</ModeOfTransportation>'
  );
}

/**
 * A sandbox receipt as Magaya's `<WarehouseReceipt>`: one package's tracking number only on the
 * receipt, several packages' on their items.
 */
export function warehouseReceiptXml(receipt: ProviderReceipt, document = false): string {
  const metric = isMetric(receipt.id);
  const single = receipt.commodities.length === 1;
  const items = receipt.commodities
    .map(
      (item) =>
        '<Item>' +
        element('Description', item.description) +
        element('Pieces', item.pieces) +
        element('PackageName', 'Box') +
        measureXml('Weight', item.totalWeightValue, metric) +
        measureXml('Volume', item.totalVolumeValue, metric) +
        (item.trackingNumber && !single ? element('TrackingNumber', item.trackingNumber) : '') +
        '</Item>',
    )
    .join('');
  const carrierTracking = single ? receipt.commodities[0]!.trackingNumber : null;
  return (
    `<WarehouseReceipt${document ? ` xmlns="${MAGAYA_NAMESPACE}"` : ''} GUID="${sandboxGuid('receipt', receipt.id)}">` +
    element('Type', 'WH') +
    element('CreatedOn', receipt.receivedDate) +
    element('Number', receipt.number) +
    element('Status', MAGAYA_STATUS_OF[receipt.status] ?? 'Pending') +
    modeXml(receipt.modeOfTransportation) +
    element('ShipperName', receipt.shipperName) +
    element('ConsigneeName', receipt.consigneeName) +
    (receipt.consigneeId === null
      ? ''
      : `<Consignee GUID="${sandboxGuid('consignee', receipt.consigneeId)}">` +
        element('Name', receipt.consigneeName) +
        '</Consignee>') +
    (carrierTracking ? element('CarrierTrackingNumber', carrierTracking) : '') +
    `<Items>${items}</Items>` +
    element('MeasurementUnits', metric ? 'Metric' : 'English') +
    element('TotalPieces', receipt.pieces) +
    measureXml('TotalWeight', receipt.totalWeightValue, metric) +
    measureXml('TotalVolume', receipt.totalVolumeValue, metric) +
    `<OriginPort>${element('Name', receipt.origin.name)}</OriginPort>` +
    `<DestinationPort>${element('Name', receipt.destination)}</DestinationPort>` +
    element('IsOnline', receipt.status === 'Cancelled' ? 'false' : 'true') +
    '</WarehouseReceipt>'
  );
}

type ParameterType = 'string' | 'int';
type Answer = { status: number; body: string };

/** A call the sandbox refuses as malformed: a SOAP Fault. */
class MalformedCall extends Error {}

/**
 * A cookie of a date query: the receipts it found and where its page starts; it never changes, so
 * an old one answers its page again.
 */
interface DateCookie {
  accessKey: string;
  ids: readonly number[];
  offset: number;
  pageSize: number;
}

export interface SandboxMagayaDeps {
  store: () => SandboxStore;
  attachments: SandboxAttachments;
  clock: Clock;
  username: string;
  password: string;
}

/** The sandbox's Magaya API user: demo data behind a demo password, like the rest of the sandbox. */
export const SANDBOX_MAGAYA_USERNAME = 'portal';
export const SANDBOX_MAGAYA_PASSWORD = 'sandbox';

/** How long an idle session stays open before the sandbox ends it itself, as Magaya does. */
export const SANDBOX_SESSION_IDLE_MS = 10 * 60_000;

export class SandboxMagaya {
  /** The open session of the API user: its access key and when it was last used. */
  private session: { accessKey: string; usedAt: number } | null = null;
  private readonly cookies = new Map<string, DateCookie>();
  /** Calls answered, by method: what a test counts. */
  readonly calls = new Map<string, number>();

  constructor(private readonly deps: SandboxMagayaDeps) {}

  /** The answer to one POSTed envelope. */
  async answer(body: string): Promise<Answer> {
    let call: { method: string; parameters: Map<string, { type: string; value: string }> };
    try {
      call = readCall(body);
    } catch (error) {
      if (error instanceof MalformedCall || error instanceof XmlRefusedError)
        return fault(error.message);
      throw error;
    }
    this.calls.set(call.method, (this.calls.get(call.method) ?? 0) + 1);
    try {
      return await this.dispatch(call.method, call.parameters);
    } catch (error) {
      if (error instanceof MalformedCall) return fault(error.message);
      throw error;
    }
  }

  /** Whether the API user has a session open now. */
  get sessionOpen(): boolean {
    return this.liveSession() !== null;
  }

  private async dispatch(
    method: string,
    parameters: Map<string, { type: string; value: string }>,
  ): Promise<Answer> {
    const parameter = (name: string, type: ParameterType) => {
      const found = parameters.get(name);
      if (!found) throw new MalformedCall(`${method}: the parameter ${name} is missing`);
      if (found.type !== `xsd:${type}`)
        throw new MalformedCall(`${method}: the parameter ${name} must be xsd:${type}`);
      if (type === 'int' && !/^-?\d{1,10}$/.test(found.value.trim()))
        throw new MalformedCall(`${method}: the parameter ${name} is not an integer`);
      return found.value.trim();
    };
    const session = () => {
      const live = this.liveSession();
      if (!live || live.accessKey !== parameter('access_key', 'string')) return false;
      live.usedAt = this.deps.clock.now();
      return true;
    };
    switch (method) {
      case 'StartSession': {
        if (
          parameter('user', 'string') !== this.deps.username ||
          parameter('pass', 'string') !== this.deps.password
        )
          return answer(method, 'access_denied');
        if (this.liveSession()) return answer(method, 'too_many_open_sessions');
        this.endSession();
        this.session = {
          accessKey: randomBytes(12).toString('hex'),
          usedAt: this.deps.clock.now(),
        };
        return answer(method, 'no_error', { access_key: this.session.accessKey });
      }
      case 'EndSession': {
        if (!session()) return answer(method, 'access_denied');
        this.endSession();
        return answer(method, 'no_error');
      }
      case 'GetFirstTransbyDate': {
        const backwards = parameter('backwards_order', 'int');
        if (!session()) return answer(method, 'access_denied');
        const type = parameter('type', 'string');
        const start = magayaDate(parameter('start_date', 'string'), 'start');
        const end = magayaDate(parameter('end_date', 'string'), 'end');
        const pageSize = Number(parameter('record_quantity', 'int'));
        parameter('flags', 'int');
        if (pageSize < 1)
          throw new MalformedCall('GetFirstTransbyDate: record_quantity must be at least 1');
        const ids =
          type === 'WH' ? this.deps.store().receivedBetween(start, end, backwards === '1') : [];
        const cookie = this.newCookie({
          accessKey: this.session!.accessKey,
          ids,
          offset: 0,
          pageSize,
        });
        return answer(method, 'no_error', { cookie, more_results: ids.length > 0 ? '1' : '0' });
      }
      case 'GetNextTransbyDate': {
        const state = this.cookies.get(parameter('cookie', 'string'));
        if (!state || this.liveSession()?.accessKey !== state.accessKey)
          return answer(method, 'invalid_cookie');
        this.session!.usedAt = this.deps.clock.now();
        const store = this.deps.store();
        const page = state.ids.slice(state.offset, state.offset + state.pageSize).flatMap((id) => {
          const receipt = store.receipt(id);
          return receipt ? [warehouseReceiptXml(receipt)] : [];
        });
        const next = state.offset + state.pageSize;
        const cookie = this.newCookie({ ...state, offset: next });
        return answer(method, 'no_error', {
          trans_list_xml:
            '<?xml version="1.0" encoding="utf-8"?>' +
            `<WarehouseReceipts xmlns="${MAGAYA_NAMESPACE}">${page.join('')}</WarehouseReceipts>`,
          cookie,
          more_results: next < state.ids.length ? '1' : '0',
        });
      }
      case 'QueryLog': {
        if (!session()) return answer(method, 'access_denied');
        const start = magayaDate(parameter('start_date', 'string'), 'start');
        const end = magayaDate(parameter('end_date', 'string'), 'end');
        const entries = Number(parameter('log_entry_type', 'int'));
        const type = parameter('trans_type', 'string');
        parameter('flags', 'int');
        const changes =
          type === 'WH'
            ? this.deps
                .store()
                .changesBetween(start, end)
                .filter((change) => (change.entry & entries) !== 0)
            : [];
        const items = changes.map(
          (change) =>
            `<GUIDItem>${element('GUID', sandboxGuid('receipt', change.id))}${element('Type', 'WH')}</GUIDItem>`,
        );
        return answer(method, 'no_error', {
          trans_list_xml: `<GUIDItems xmlns="${MAGAYA_NAMESPACE}">${items.join('')}</GUIDItems>`,
        });
      }
      case 'GetTransaction': {
        if (!session()) return answer(method, 'access_denied');
        const type = parameter('type', 'string');
        parameter('flags', 'int');
        const number = parameter('number', 'string');
        const id = this.receiptIdOf(type, number);
        const receipt = id === null ? null : this.deps.store().receipt(id);
        if (!receipt) return answer(method, 'transaction_not_found');
        return answer(method, 'no_error', {
          trans_xml: `<?xml version="1.0" encoding="utf-8"?>${warehouseReceiptXml(receipt, true)}`,
        });
      }
      case 'GetAllAttachments': {
        if (!session()) return answer(method, 'access_denied');
        const receiptId = this.receiptIdOf(
          parameter('type', 'string'),
          parameter('number', 'string'),
        );
        const listed =
          receiptId === null
            ? null
            : await this.deps.attachments.list(this.deps.store(), receiptId);
        if (receiptId === null || !listed) return answer(method, 'transaction_not_found');
        const owner = sandboxGuid('receipt', receiptId);
        const entries = [
          ...listed.map((attachment) => attachmentEntryXml(owner, attachment)),
          internalEntryXml(owner),
        ];
        return answer(method, 'no_error', {
          attachments_xml: `<Attachments xmlns="${MAGAYA_NAMESPACE}">${entries.join('')}</Attachments>`,
        });
      }
      case 'GetAttachment': {
        if (!session()) return answer(method, 'access_denied');
        const receiptId = this.receiptIdOf(
          parameter('type', 'string'),
          parameter('number', 'string'),
        );
        const identifier = parameter('identifier', 'string');
        const file =
          receiptId === null || !identifier.startsWith(`${receiptId}-`)
            ? null
            : await this.deps.attachments.file(this.deps.store(), identifier);
        if (!file) return answer(method, 'attachment_not_found');
        const data = Buffer.from(file.bytes).toString('base64');
        const lines = Array.from({ length: Math.ceil(data.length / 76) }, (_, index) =>
          data.slice(index * 76, index * 76 + 76),
        ).join('\n');
        return answer(method, 'no_error', {
          attachment_xml:
            `<Attachment xmlns="${MAGAYA_NAMESPACE}">` +
            element('Name', file.fileName) +
            element('Identifier', identifier) +
            element('Data', lines) +
            '</Attachment>',
        });
      }
      default:
        throw new MalformedCall(`Unknown method ${method}`);
    }
  }

  /** A warehouse receipt's sandbox id by its GUID or number; null for another type or one it cannot have. */
  private receiptIdOf(type: string, number: string): number | null {
    if (type !== 'WH') return null;
    return (
      sandboxIdOfGuid('receipt', number) ??
      (number.startsWith('WR-') ? Number(number.slice(3)) || null : null)
    );
  }

  private liveSession() {
    const { session } = this;
    return session && this.deps.clock.now() - session.usedAt < SANDBOX_SESSION_IDLE_MS
      ? session
      : null;
  }

  private endSession(): void {
    const ended = this.session?.accessKey;
    this.session = null;
    for (const [cookie, state] of this.cookies)
      if (state.accessKey === ended) this.cookies.delete(cookie);
  }

  private newCookie(state: DateCookie): string {
    const cookie = randomBytes(9).toString('base64url');
    this.cookies.set(cookie, state);
    return cookie;
  }
}

/** A sandbox attachment as a GetAllAttachments entry. */
function attachmentEntryXml(owner: string, attachment: ProviderAttachment): string {
  const dot = attachment.fileName.lastIndexOf('.');
  return (
    '<Attachment>' +
    element('Name', dot > 0 ? attachment.fileName.slice(0, dot) : attachment.fileName) +
    element('Extension', dot > 0 ? attachment.fileName.slice(dot + 1) : '') +
    element('IsImage', attachment.kind === 'photo' ? 'true' : 'false') +
    element('IsInternal', 'false') +
    element('Size', attachment.size) +
    element('OwnerGUID', owner) +
    element('Identifier', attachment.id) +
    '</Attachment>'
  );
}

/** The forwarder's own paperwork on every receipt, which no customer may see: the portal must not list it. */
const internalEntryXml = (owner: string) =>
  '<Attachment>' +
  element('Name', 'Cost sheet') +
  element('Extension', 'pdf') +
  element('IsImage', 'false') +
  element('IsInternal', 'true') +
  element('Size', 18_211) +
  element('OwnerGUID', owner) +
  element('Identifier', `${owner}-internal`) +
  '</Attachment>';

/** The method element of a SOAP 1.1 call and its parameters with their xsi:type. */
function readCall(body: string): {
  method: string;
  parameters: Map<string, { type: string; value: string }>;
} {
  const envelope = parseXml(body);
  const call = childOf(envelope, 'Body')?.children[0];
  if (envelope.name !== 'Envelope' || !call)
    throw new MalformedCall('The request is no SOAP envelope with a method in its Body');
  const parameters = new Map(
    call.children.map((child: XmlElement) => [
      child.name,
      { type: child.attributes.type ?? '', value: child.text },
    ]),
  );
  return { method: call.name, parameters };
}

/** `yyyy-MM-dd` (the whole day) or `yyyy-MM-ddTHH:mm:ss`, read as UTC. */
function magayaDate(text: string, side: 'start' | 'end'): number {
  const withTime =
    text.length === 10 ? `${text}T${side === 'start' ? '00:00:00.000' : '23:59:59.999'}` : text;
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?$/.test(withTime)
    ? Date.parse(`${withTime}Z`)
    : NaN;
  if (Number.isNaN(time))
    throw new MalformedCall(`The date ${text} is not yyyy-MM-dd or yyyy-MM-ddTHH:mm:ss`);
  return time;
}

const SOAP_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?>' +
  '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"' +
  ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"' +
  ' xmlns:ns="urn:CSSoapService"><SOAP-ENV:Body>';
const SOAP_CLOSE = '</SOAP-ENV:Body></SOAP-ENV:Envelope>';

/** A MethodResponse: its return code, then the out-parameters, every value escaped text. */
function answer(method: string, code: string, out: Record<string, string> = {}): Answer {
  const parameters = Object.entries(out)
    .map(([name, value]) => element(name, value, ' xsi:type="xsd:string"'))
    .join('');
  return {
    status: 200,
    body:
      `${SOAP_OPEN}<ns:${method}Response>` +
      element('return', code, ' xsi:type="xsd:string"') +
      `${parameters}</ns:${method}Response>${SOAP_CLOSE}`,
  };
}

function fault(message: string): Answer {
  return {
    status: 500,
    body:
      `${SOAP_OPEN}<SOAP-ENV:Fault><faultcode>SOAP-ENV:Client</faultcode>` +
      element('faultstring', message) +
      `</SOAP-ENV:Fault>${SOAP_CLOSE}`,
  };
}
