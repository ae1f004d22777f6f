/**
 * Sessions of Magaya's CSSoapService and the read-only calls made inside one. Magaya allows one
 * session per API user and asks its clients never to leave one open nor to call in parallel: work
 * runs one session at a time (in this process; across processes the sync's lease keeps it so), every
 * session is ended whatever the work did, and `too_many_open_sessions` is waited out with backoff
 * and then reported, never taken for an empty answer.
 */
import { AttachmentTooLargeError } from '../contract';
import { readAttachmentEntry, type MagayaAttachmentEntry } from './receipt';
import { callSoap, MagayaError, soapInt, soapString, type SoapTransport } from './soap';
import { textOf, type XmlElement } from './xml';

/** QueryLog's `log_entry_type` bits. */
export const LogEntry = { Creation: 1, Deletion: 2, Edition: 4, Cleanup: 8 } as const;

/** Magaya's transaction type of a warehouse receipt. */
export const WAREHOUSE_RECEIPT = 'WH';

/** The waits before asking again for a session while Magaya says another is open (about a minute in all). */
export const SESSION_BUSY_WAITS_MS = [1_000, 2_000, 5_000, 10_000, 30_000] as const;

export interface MagayaConnection extends SoapTransport {
  username: string;
  password: string;
}

export interface MagayaSessionsDeps {
  /** The endpoint and API user, or where to read them each time (an admin may change the user). */
  connection: MagayaConnection | (() => Promise<MagayaConnection>);
  /** Waits `ms` (the composition root's timers; a test's own function moves on at once). */
  pause: (ms: number) => Promise<void>;
  /**
   * Aborted at shutdown (its reason a MagayaError 'stopped'): work stops before its next call, and
   * the session still ends.
   */
  signal?: AbortSignal;
  /** The IANA time zone Magaya's server reads dates in; UTC unless given. */
  timeZone?: string;
}

/** A change-log entry: a transaction's GUID and Magaya's type of it. */
export interface LogItem {
  guid: string;
  type: string;
}

/**
 * Magaya's date-time parameter: `yyyy-MM-ddTHH:mm:ss`, the wall time in Magaya's time zone
 * (MAGAYA_TIME_ZONE, UTC by default).
 */
export function magayaTime(time: Date, timeZone = 'UTC'): string {
  if (timeZone === 'UTC') return time.toISOString().slice(0, 19);
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const part = Object.fromEntries(
    format.formatToParts(time).map(({ type, value }) => [type, value]),
  );
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}`;
}

export class MagayaSessions {
  /** The turn of the last work asked for: the next waits for it. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: MagayaSessionsDeps) {}

  /** Runs `work` inside a session of its own, after any work before it; the session is ended whatever happens. */
  run<T>(work: (session: MagayaSession) => Promise<T>): Promise<T> {
    const turn = this.queue.then(() => this.runNow(work));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async runNow<T>(work: (session: MagayaSession) => Promise<T>): Promise<T> {
    const { signal, timeZone } = this.deps;
    signal?.throwIfAborted();
    const connection =
      typeof this.deps.connection === 'function'
        ? await this.deps.connection()
        : this.deps.connection;
    const accessKey = await this.start(connection);
    try {
      return await work(new MagayaSession(connection, accessKey, { signal, timeZone }));
    } finally {
      // An end that fails leaves a session Magaya times out itself; the work's own outcome stands.
      await callSoap(connection, 'EndSession', { access_key: soapString(accessKey) }).catch(
        () => undefined,
      );
    }
  }

  private async start(connection: MagayaConnection): Promise<string> {
    const { pause, signal } = this.deps;
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      try {
        const values = await callSoap(connection, 'StartSession', {
          user: soapString(connection.username),
          pass: soapString(connection.password),
        });
        const accessKey = values.get('access_key');
        if (!accessKey)
          throw new MagayaError('bad_response', 'StartSession answered no access_key');
        return accessKey;
      } catch (error) {
        const wait = SESSION_BUSY_WAITS_MS[attempt];
        if (
          !(error instanceof MagayaError && error.code === 'too_many_open_sessions') ||
          wait === undefined
        )
          throw error;
        await pause(wait);
      }
    }
  }
}

/** The read-only calls, inside one open session. */
export class MagayaSession {
  constructor(
    private readonly connection: SoapTransport,
    readonly accessKey: string,
    private readonly options: { signal?: AbortSignal; timeZone?: string } = {},
  ) {}

  /** Before each call: a portal shutting down asks nothing more of Magaya. */
  private call(...args: Parameters<typeof callSoap>): ReturnType<typeof callSoap> {
    this.options.signal?.throwIfAborted();
    return callSoap(...args);
  }

  private time(time: Date): string {
    return magayaTime(time, this.options.timeZone);
  }

  /**
   * Every transaction of `type` with a date in [start, end], page by page: GetFirstTransbyDate, then
   * GetNextTransbyDate with the newest cookie each time, while Magaya says there are more.
   */
  async transactionsByDate(
    query: { type: string; start: Date; end: Date; flags: number; pageSize: number },
    wanted: string,
    onElement: (element: XmlElement) => void,
  ): Promise<void> {
    const options = { wanted: new Set([wanted]), onElement };
    let answer = await this.call(
      this.connection,
      'GetFirstTransbyDate',
      {
        access_key: soapString(this.accessKey),
        type: soapString(query.type),
        start_date: soapString(this.time(query.start)),
        end_date: soapString(this.time(query.end)),
        flags: soapInt(query.flags),
        record_quantity: soapInt(query.pageSize),
        backwards_order: soapInt(0),
      },
      options,
    );
    while (answer.get('more_results') === '1') {
      const cookie = answer.get('cookie');
      if (!cookie)
        throw new MagayaError(
          'bad_response',
          'Magaya said there were more results and gave no cookie',
        );
      answer = await this.call(
        this.connection,
        'GetNextTransbyDate',
        { cookie: soapString(cookie) },
        options,
      );
      // An old cookie returns the same page forever: a cookie that does not change is no progress.
      if (answer.get('more_results') === '1' && answer.get('cookie') === cookie)
        throw new MagayaError('bad_response', 'Magaya answered the same cookie again');
    }
  }

  /**
   * The change log's entries of `entryTypes` (LogEntry bits) in [start, end], read in slices of
   * `sliceMs`, oldest slice first.
   */
  async queryLog(query: {
    type: string;
    start: Date;
    end: Date;
    entryTypes: number;
    flags: number;
    sliceMs: number;
  }): Promise<LogItem[]> {
    const items: LogItem[] = [];
    for (let from = query.start.getTime(); from < query.end.getTime(); from += query.sliceMs) {
      const to = Math.min(from + query.sliceMs, query.end.getTime());
      await this.call(
        this.connection,
        'QueryLog',
        {
          access_key: soapString(this.accessKey),
          start_date: soapString(this.time(new Date(from))),
          end_date: soapString(this.time(new Date(to))),
          log_entry_type: soapInt(query.entryTypes),
          trans_type: soapString(query.type),
          flags: soapInt(query.flags),
        },
        {
          wanted: new Set(['GUIDItem']),
          onElement: (element) => {
            const guid = (element.attributes.GUID ?? textOf(element, 'GUID')).trim();
            if (guid)
              items.push({
                guid,
                type: (element.attributes.Type ?? textOf(element, 'Type')).trim(),
              });
          },
        },
      );
    }
    return items;
  }

  /** One transaction by number or GUID; null when Magaya has it no more (`transaction_not_found`). */
  async getTransaction(
    query: { type: string; flags: number; number: string },
    wanted: string,
  ): Promise<XmlElement | null> {
    let found: XmlElement | null = null;
    try {
      await this.call(
        this.connection,
        'GetTransaction',
        {
          access_key: soapString(this.accessKey),
          type: soapString(query.type),
          flags: soapInt(query.flags),
          number: soapString(query.number),
        },
        { wanted: new Set([wanted]), onElement: (element) => (found ??= element) },
      );
    } catch (error) {
      if (error instanceof MagayaError && error.code === 'transaction_not_found') return null;
      throw error;
    }
    return found;
  }

  /**
   * A transaction's attachments that customers may see (internal ones are left out); null when
   * Magaya has no such transaction.
   */
  async listAttachments(query: {
    type: string;
    number: string;
  }): Promise<MagayaAttachmentEntry[] | null> {
    const entries: MagayaAttachmentEntry[] = [];
    try {
      await this.call(
        this.connection,
        'GetAllAttachments',
        {
          access_key: soapString(this.accessKey),
          type: soapString(query.type),
          number: soapString(query.number),
        },
        {
          wanted: new Set(['Attachment']),
          onElement: (element) => {
            const entry = readAttachmentEntry(element);
            if (entry) entries.push(entry);
          },
        },
      );
    } catch (error) {
      if (error instanceof MagayaError && error.code === 'transaction_not_found') return null;
      throw error;
    }
    return entries;
  }

  /**
   * One attachment's bytes (its base64 `Data`, line-wrapped at 76 characters); null when Magaya has it
   * no more. More than `maxBytes` is an AttachmentTooLargeError.
   */
  async getAttachment(
    query: { type: string; number: string; identifier: string },
    maxBytes: number,
  ): Promise<Uint8Array | null> {
    let data: string | null = null;
    try {
      await this.call(
        this.connection,
        'GetAttachment',
        {
          access_key: soapString(this.accessKey),
          type: soapString(query.type),
          number: soapString(query.number),
          identifier: soapString(query.identifier),
        },
        {
          wanted: new Set(['Attachment']),
          onElement: (element) => (data ??= textOf(element, 'Data')),
        },
      );
    } catch (error) {
      if (
        error instanceof MagayaError &&
        (error.code === 'attachment_not_found' || error.code === 'transaction_not_found')
      )
        return null;
      throw error;
    }
    if (data === null) return null;
    const bytes = Buffer.from(data, 'base64');
    if (bytes.byteLength > maxBytes) throw new AttachmentTooLargeError(maxBytes);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
}
